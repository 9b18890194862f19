package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestEnvelopesAckedOnce: over Socket Mode, every kind of envelope is
// acknowledged exactly once, whether its handler acks it (a command), the
// core does (a message nobody's), or nothing claims it (a command or an
// event no feature serves, an event slack-go cannot read): counted once the
// replica has stopped, when no ack can come any more.
func TestEnvelopesAckedOnce(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	h.StartBot(bottest.Config{})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()

	var envelopes []string
	for _, c := range []slacktest.SlashCommand{
		{Command: "/docs-agent", Text: "help", UserID: alice, ChannelID: general},
		{Command: "/docs-nobody-serves", Text: "x", UserID: alice, ChannelID: general},
	} {
		id, _, err := h.Slack.SendSlashCommand(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		envelopes = append(envelopes, id)
	}
	_, chatter, err := h.Slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: general, UserID: alice, Text: "lunch at noon?"})
	if err != nil {
		t.Fatal(err)
	}
	events := []string{chatter}
	for _, ev := range []map[string]any{
		{"type": "member_joined_channel", "user": alice, "channel": general},
		{"type": "no_such_event", "channel": general},
	} {
		id, err := h.Slack.DeliverEvent(ctx, ev)
		if err != nil {
			t.Fatalf("event %v: %v", ev["type"], err)
		}
		events = append(events, id)
	}
	for _, id := range events {
		env, ok := h.Slack.EnvelopeOfEvent(id)
		if !ok {
			t.Fatalf("no envelope for event %s", id)
		}
		envelopes = append(envelopes, env)
	}
	h.WaitFor("every envelope acknowledged", func() bool {
		acked := map[string]bool{}
		for _, a := range h.Slack.Acks() {
			acked[a.EnvelopeID] = true
		}
		for _, id := range envelopes {
			if !acked[id] {
				return false
			}
		}
		return true
	})
	h.StopAll()

	n := map[string]int{}
	for _, a := range h.Slack.Acks() {
		n[a.EnvelopeID]++
	}
	for i, id := range envelopes {
		if n[id] != 1 {
			t.Errorf("envelope %d (%s) acknowledged %d times, want once", i, id, n[id])
		}
	}
	for _, a := range h.Slack.Acks() {
		if a.EnvelopeID == envelopes[0] && len(a.Payload) == 0 {
			t.Errorf("the help command was acknowledged without its answer")
		}
	}
}
