package bot_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/store"
)

// TestAuditTrailTrimmedByTheBot: a bot whose audit log can trim drops the
// records older than the log's retention once it runs; no command of its
// own is needed for that.
func TestAuditTrailTrimmedByTheBot(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st := openHarnessStore(t, h)
	// Both logs are the same stream; reading through the long one shows
	// what is kept.
	long := st.AuditLog(store.AuditOptions{Retention: time.Hour})
	short := st.AuditLog(store.AuditOptions{Retention: time.Millisecond})
	if _, err := long.Append(ctx, store.AuditRecord{Team: "T1", User: "U1", Action: store.AuditJobStart, Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	kept := func() int {
		n := 0
		if err := long.Each(ctx, store.AuditQuery{}, func(store.AuditRecord) error { n++; return nil }); err != nil {
			t.Error(err)
		}
		return n
	}
	if n := kept(); n != 1 {
		t.Fatalf("records before the bot runs = %d, want 1", n)
	}
	// The record must be older than the short retention when the bot's
	// first trim runs, or that trim keeps it and the next is an hour away:
	// let a few milliseconds pass (the Redis clock is this machine's).
	time.Sleep(10 * time.Millisecond)
	b := coreOn(h, st, bot.Config{Audit: short})
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	// WaitFor shows the bot's log if it does not happen.
	h.WaitFor("the old record trimmed", func() bool { return kept() == 0 })
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v, want nil after ctx ends", err)
	}
}

// TestAuditOfWorkOnce: a piece of work's audit record is appended once,
// whether it is written with the work's Done or the work is deferred after
// it (appended then, with its mark: not lost when the next attempt does not
// ask for it, not appended again when it does).
func TestAuditOfWorkOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		deferred bool
		again    bool // the next attempt asks for the record again
	}{
		{"written with Done", false, false},
		{"deferred, asked for again", true, true},
		{"deferred, not asked for again", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := bottest.New(t, redisURL)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			st := openHarnessStore(t, h)
			audit := st.AuditLog(store.AuditOptions{})
			b := coreOn(h, st, bot.Config{Audit: audit})
			attempts := make(chan int, 4)
			b.Router().HandleWork("test.audited", bot.WorkHandler{Do: func(ctx context.Context, w *bot.Work) error {
				if w.Attempt == 1 || tt.again {
					b.Audit().Work(ctx, w, "audited", store.AuditRecord{Team: "T1", User: "U1", Action: store.AuditJobStart, Outcome: "ok"})
				}
				attempts <- w.Attempt
				if tt.deferred && w.Attempt == 1 {
					return bot.Later(time.Millisecond, errors.New("asked to wait"))
				}
				return nil
			}})
			const key = "cmd:audited-once"
			if _, err := st.Inbox().Enqueue(ctx, store.Work{Key: key, Kind: "test.audited", Payload: []byte("{}")}, time.Hour); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- b.Run(ctx) }()
			want := 1
			if tt.deferred {
				want = 2
			}
			// The work done (every attempt behind it), waited on as the
			// harness waits: bounded, with the bot's log if it never is.
			h.WaitFor("the work done", func() bool {
				n, err := st.Inbox().Queued(ctx)
				return err == nil && n == 0 && len(attempts) >= want
			})
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run = %v", err)
			}
			var recs []store.AuditRecord
			if err := audit.Each(context.Background(), store.AuditQuery{}, func(r store.AuditRecord) error {
				recs = append(recs, r)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || recs[0].Work != key || recs[0].Action != store.AuditJobStart {
				t.Errorf("audit records %+v, want one job start of %s", recs, key)
			}
			if n := len(attempts); n != want {
				t.Errorf("%d attempts, want %d", n, want)
			}
		})
	}
}

// openHarnessStore opens a Store on the harness's keys, closed when the
// test ends.
func openHarnessStore(t *testing.T, h *bottest.Harness) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), redisURL, store.WithPrefix(h.Prefix))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// coreOn is the bot's core alone, with cfg, on h's fake Slack and the
// store st, logging to h's log: for a test that registers its own work.
func coreOn(h *bottest.Harness, st *store.Store, cfg bot.Config) *bot.Bot {
	client := slack.New("xoxb-test-bot-token", slack.OptionAppLevelToken("xapp-test-app-token"), slack.OptionAPIURL(h.Slack.APIURL))
	cfg.Logger = slog.New(slog.NewTextHandler(h.Logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return bot.New(cfg, client, bot.WorkStore{Inbox: st.Inbox(), LastChoices: st.Choices()})
}
