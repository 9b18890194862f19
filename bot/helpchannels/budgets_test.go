package helpchannels_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestHelpAskerShareTakenBeforeTheChannels: an unasked question takes the
// asker's share of questions first and the channel's only after: a person
// past their share (1 here) is told privately and spends nothing of the
// channel's (2 here), so another person is still answered; a question the
// channel's share refuses (👀) gives its asker's share back, which they
// then ask with.
func TestHelpAskerShareTakenBeforeTheChannels(t *testing.T) {
	t.Parallel()
	const dan = "U0DAN"
	h := newHarness(t)
	h.Slack.AddUser(dan, "dan")
	cfg := helpIn(bot.ModeAuto)
	cfg.Help.PerChannel = 2
	cfg.Ask.PerUser = 1
	h.StartBot(cfg)
	h.answerIn(help, h.post(alice, help, "How do I rotate an API key?"))
	past := []string{h.post(alice, help, "How do webhooks get signed?"), h.post(alice, help, "Where are the rate limits?")}
	h.Idle()
	if n := len(h.Privates(alice, "You asked 1 question in the last hour")); n != 2 {
		t.Errorf("alice was told %d times that her share is spent, want 2", n)
	}
	for _, ts := range past {
		if m, _ := h.Slack.Message(help, ts); len(m.Reactions) != 0 || len(h.botReplies(help, ts)) != 0 {
			t.Errorf("a question past its asker's share got %q and %d replies: the channel's share was spent on it", m.Reactions, len(h.botReplies(help, ts)))
		}
	}
	// The channel's second answer of the hour is bob's.
	h.answerIn(help, h.post(bob, help, "How do I add a custom domain?"))

	// Past the channel's share: 👀, and dan's share is given back.
	spent := h.post(dan, help, "How do I verify a webhook signature?")
	h.WaitFor("👀 on dan's question", func() bool {
		m, _ := h.Slack.Message(help, spent)
		return len(m.Reactions) == 1 && m.Reactions[0] == "eyes"
	})
	m, err := h.Slack.Mention(t.Context(), slacktest.UserMessage{ChannelID: help, UserID: dan, Text: "<@U0BOT> how do I rotate an API key?"})
	if err != nil {
		t.Fatal(err)
	}
	h.answerIn(help, m.TS)
	h.Settle()
	if n := h.API.Questions(); n != 3 {
		t.Errorf("the assistant was asked %d times, want 3 (alice's first, bob's, dan's mention)", n)
	}
	if n := len(h.Privates(dan, "You asked")); n != 0 {
		t.Errorf("dan was refused on his share: %+v", h.Privates(dan, "You asked"))
	}
}
