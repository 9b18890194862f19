package ask_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/bottest"
)

// TestAskShareOfAGuest: a guest's questions an hour are
// DOCSBOT_ASK_PER_GUEST, not a member's DOCSBOT_ASK_PER_USER: past it the
// guest is told, as a guest, when they can ask again, and the assistant is
// not asked; a member still asks their own share.
func TestAskShareOfAGuest(t *testing.T) {
	t.Parallel()
	const guest = "U0GUEST"
	h := newHarness(t)
	h.Slack.AddGuest(guest, "gus", false)
	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Ask: ask.Config{PerUser: 3, PerGuest: 1}}})
	h.answered(h.asked(guest, "How do I install the CLI?"))
	h.Command(guest, general, "/docs-ask", "How do webhooks get signed?")
	h.WaitFor("the guest told their share is spent", func() bool {
		return h.told(guest, "You asked 1 question in the last hour, as many as docsbot answers for a guest or a person of another organisation")
	})
	for _, q := range []string{"How do I install the CLI?", "How do webhooks get signed?"} {
		h.answered(h.asked(alice, q))
	}
	h.Idle()
	if n := h.API.Questions(); n != 3 {
		t.Errorf("the assistant was asked %d times, want 3 (the guest's second refused)", n)
	}
}
