package assistant_test

import (
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestPaneStopEndsAnAnswer: while an answer streams in the pane its agent
// session is processing; Stop ends the answer there, saying so, and the
// session waits for the person again.
func TestPaneStopEndsAnAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true, docsapitest.WithDeltaDelay(300*time.Millisecond))
	h.StartBot(bottest.Config{Answers: true})
	th := h.open(alice, general)
	h.Reply(alice, th.Channel, th.ThreadTS, "How do I rotate an API key?")
	h.WaitFor("the answer streaming", func() bool {
		for _, m := range h.botReplies(th.Channel, th.ThreadTS) {
			if m.Streaming {
				return true
			}
		}
		return false
	})
	h.session(th, "processing")
	stop, err := h.Slack.StopAgentSession(t.Context(), th.Channel, th.ThreadTS, alice)
	if err != nil {
		t.Fatal(err)
	}
	if len(stop.Halted) != 1 {
		t.Fatalf("Slack halted %d streams, want the answer's", len(stop.Halted))
	}
	h.replied(th.Channel, th.ThreadTS, "you pressed Stop")
	h.session(th, "active")
	h.Idle()
	for _, m := range h.botReplies(th.Channel, th.ThreadTS) {
		if strings.Contains(string(m.Blocks), "feedback") {
			t.Errorf("the stopped answer went on to its end: %s", m.Blocks)
		}
	}
}

// TestPaneStopOfAJob: Stop while a job started in the pane runs stops
// following it there and says the job cannot be cancelled; the job is not
// cancelled (its result still comes).
func TestPaneStopOfAJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}})
	th := h.open(alice, general)
	h.Reply(alice, th.Channel, th.ThreadTS, "add a page on rotating keys")
	h.WaitFor("the job created", func() bool { return len(h.API.Jobs()) == 1 })
	h.session(th, "processing")
	if _, err := h.Slack.StopAgentSession(t.Context(), th.Channel, th.ThreadTS, alice); err != nil {
		t.Fatal(err)
	}
	h.replied(th.Channel, th.ThreadTS, "cannot be cancelled through the docs API")
	h.session(th, "active")
	pr := h.Complete(h.API.Jobs()[0].ID, 1)
	h.replied(th.Channel, th.ThreadTS, pr)
}
