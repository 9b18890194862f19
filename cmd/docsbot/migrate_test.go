package main

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestMigrateCommand moves a job and a piece of work the earlier layout
// kept, on the built binary, then finds nothing left; the job is then found
// by its thread.
func TestMigrateCommand(t *testing.T) {
	t.Parallel()
	prefix := redistest.Prefix(t)
	rdb := sharedRedis.Client()
	defer rdb.Close()
	ctx := t.Context()
	th := store.Thread{Team: "T1", Channel: "C1", TS: "1732233445.000100"}
	pipe := rdb.TxPipeline()
	pipe.HSet(ctx, prefix+"job:job-1", "t", th.Team, "c", th.Channel, "s", th.TS, "r", "U1", "p0", "Document the flags",
		"st", "active", "g", 1, "n", 0, "na", 0, "pl", 0, "tk", 0, "ca", 1, "ua", 1)
	pipe.Set(ctx, prefix+"thread:"+th.Team+":"+th.Channel+":"+th.TS, "job-1", 0)
	pipe.Do(ctx, "ZADD", prefix+"sched", 1, "job-1")
	pipe.HSet(ctx, prefix+"in:cmd:1", "k", "agent.start", "d", "{}", "rt", 1, "kp", 3600000, "tk", 0, "at", 0)
	pipe.Do(ctx, "ZADD", prefix+"inbox", 1, "cmd:1")
	if _, err := pipe.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	env := []string{envRedisURL + "=" + sharedRedis.URL, envRedisPrefix + "=" + prefix}

	res := docsbot(t, nil, env, "migrate")
	if want := "moved 1 job and 1 piece of work of the earlier layout into the shards under " + prefix; res.code != 0 || !strings.Contains(res.stdout, want) {
		t.Fatalf("first migrate: %s\nwant %q", res, want)
	}
	res = docsbot(t, nil, env, "migrate")
	if want := "nothing of the earlier layout is left under " + prefix; res.code != 0 || !strings.Contains(res.stdout, want) {
		t.Fatalf("second migrate: %s\nwant %q", res, want)
	}
	st, err := store.Open(ctx, sharedRedis.URL, store.WithPrefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if j, err := st.Jobs().JobByThread(ctx, th); err != nil || j.ID != "job-1" || j.Prompt != "Document the flags" {
		t.Fatalf("JobByThread after migrate = %+v, %v", j, err)
	}
	if n, err := st.Inbox().Queued(ctx); err != nil || n != 1 {
		t.Fatalf("Queued after migrate = %d, %v; want the moved work", n, err)
	}
}

func TestMovedText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		up   store.Upgraded
		want string
	}{
		{store.Upgraded{Jobs: 1}, "1 job"},
		{store.Upgraded{Jobs: 2, Work: 1}, "2 jobs and 1 piece of work"},
		{store.Upgraded{Jobs: 3, Links: 1, Work: 4}, "3 jobs, 1 thread link and 4 pieces of work"},
	} {
		if got := movedText(tc.up); got != tc.want {
			t.Errorf("movedText(%+v) = %q, want %q", tc.up, got, tc.want)
		}
	}
}
