package bot_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestStopWithManyHandlersAckingLate stops a bot while more envelope
// handlers are busy than slack-go queues acks for (20), and lets each ack
// only once the Socket Mode event loop has ended, when nothing sends acks
// any more: Run returns all the same, rather than wait for ever on acks
// that cannot be delivered.
func TestStopWithManyHandlersAckingLate(t *testing.T) {
	t.Parallel()
	const n = 30
	h := bottest.New(t, redisURL)
	var busy atomic.Int32
	release := make(chan struct{})
	var once sync.Once
	letGo := func() { once.Do(func() { close(release) }) }
	t.Cleanup(letGo)
	r := h.StartBot(bottest.Config{Register: func(b *bot.Bot) {
		b.HandleCommand("/docs-slow", func(_ context.Context, req *bot.CommandRequest) {
			busy.Add(1)
			<-release
			req.Ack(nil)
		})
	}})

	for i := range n {
		if _, _, err := h.Slack.SendSlashCommand(t.Context(), slacktest.SlashCommand{
			Command: "/docs-slow", Text: fmt.Sprint(i), UserID: alice, ChannelID: general,
		}); err != nil {
			t.Fatal(err)
		}
	}
	h.WaitFor(fmt.Sprintf("%d commands in their handlers", n), func() bool { return busy.Load() >= n })

	stopped := make(chan struct{})
	go func() { r.Stop(); close(stopped) }()
	h.WaitFor("the Socket Mode loop to end", func() bool { return !r.Bot.Connected() })
	letGo()
	select {
	case <-stopped:
	case <-time.After(time.Minute):
		t.Fatalf("Run did not return within a minute of the handlers acking late\nlogs:\n%s", h.Logs.String())
	}
}
