package install_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/install"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// installed saves n installations in a store of their own and returns a
// directory over them with the workspaces.
func installed(b *testing.B, n int) (*install.Directory, *store.Store, []bot.Workspace) {
	b.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, redisURL, store.WithPrefix(redistest.Prefix(b)))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	sealer, err := store.NewSealer(secretsKey)
	if err != nil {
		b.Fatal(err)
	}
	is := st.Installations(sealer)
	wss := make([]bot.Workspace, n)
	for i := range wss {
		wss[i] = bot.Workspace{Team: fmt.Sprintf("T%07d", i)}
		if _, err := is.Save(ctx, store.Installation{Workspace: wss[i], TeamName: "Workspace", BotToken: fmt.Sprintf("xoxb-%d-token", i), BotUserID: "U0BOT"}); err != nil {
			b.Fatal(err)
		}
	}
	return install.NewDirectory(install.DirectoryConfig{}, is), st, wss
}

// BenchmarkDirectory measures what install mode's lookup of a workspace's
// token costs: a replica's memory for each installation it has served, the
// Redis commands of a first lookup and of a cached one, and a cached
// lookup's time. go test ./bot/install -run XXX -bench Directory -benchmem
func BenchmarkDirectory(b *testing.B) {
	const n = 1000
	ctx := context.Background()
	dir, st, wss := installed(b, n)
	calls := func() int64 {
		s, err := st.Stats().ServerStats(ctx)
		if err != nil {
			b.Fatal(err)
		}
		return s.Calls
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c0 := calls()
	for _, ws := range wss {
		dir.Client(ctx, ws)
	}
	c1 := calls()
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := float64(after.HeapAlloc-before.HeapAlloc) / n
	first := float64(c1-c0-1) / n // the second INFO counts itself
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		dir.Client(ctx, wss[i%n])
	}
	b.StopTimer()
	b.ReportMetric(float64(calls()-c1-1)/float64(b.N), "redis-cmds/cached-lookup")
	b.ReportMetric(heap, "heap-B/installation")
	b.ReportMetric(first, "redis-cmds/first-lookup")
	if dir.Cached() != n {
		b.Fatalf("%d installations held, want %d", dir.Cached(), n)
	}
}
