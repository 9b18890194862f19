package bot_test

import (
	"context"
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
	st, err := store.Open(ctx, redisURL, store.WithPrefix(h.Prefix))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
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
	client := slack.New("xoxb-test-bot-token", slack.OptionAppLevelToken("xapp-test-app-token"), slack.OptionAPIURL(h.Slack.APIURL))
	logger := slog.New(slog.NewTextHandler(h.Logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	b := bot.New(bot.Config{Audit: short, Logger: logger}, client, bot.WorkStore{Inbox: st.Inbox(), LastChoices: st.Choices()})
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	// WaitFor shows the bot's log if it does not happen.
	h.WaitFor("the old record trimmed", func() bool { return kept() == 0 })
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v, want nil after ctx ends", err)
	}
}
