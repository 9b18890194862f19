package bot_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
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
	busy, letGo, r := slowBot(h)

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

// TestStopAcknowledgesEnvelopesInFlight stops a bot while a slash command's
// handler is still recording it, as a rolling update does: the Slack socket
// stays open until the handler has acknowledged it, so the person is not
// shown a timeout for work that runs.
func TestStopAcknowledgesEnvelopesInFlight(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	busy, letGo, r := slowBot(h)
	env, _, err := h.Slack.SendSlashCommand(t.Context(), slacktest.SlashCommand{Command: "/docs-slow", UserID: alice, ChannelID: general})
	if err != nil {
		t.Fatal(err)
	}
	h.WaitFor("the command in its handler", func() bool { return busy.Load() == 1 })
	stopped := make(chan struct{})
	go func() { r.Stop(); close(stopped) }()
	h.WaitLogged("stopping: the Slack socket stays open until the envelopes in flight are acknowledged", 1)
	letGo()
	<-stopped
	if !slices.ContainsFunc(h.Slack.Acks(), func(a slacktest.Ack) bool { return a.EnvelopeID == env }) {
		t.Errorf("the command in flight when the bot stopped was not acknowledged\nlogs:\n%s", h.Logs.String())
	}
}

// slowBot starts a bot whose /docs-slow handler acks only once letGo is
// called (or the test ends); busy counts the handlers waiting.
func slowBot(h *bottest.Harness) (busy *atomic.Int32, letGo func(), r *bottest.Running) {
	busy = new(atomic.Int32)
	release := make(chan struct{})
	var once sync.Once
	letGo = func() { once.Do(func() { close(release) }) }
	h.T.Cleanup(letGo)
	r = h.StartBot(bottest.Config{Config: app.Config{Register: func(b *bot.Bot) {
		b.Router().HandleCommand("/docs-slow", func(_ context.Context, req *bot.CommandRequest) {
			busy.Add(1)
			<-release
			req.Ack(nil)
		})
	}}})
	return busy, letGo, r
}
