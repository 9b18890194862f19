package pane_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
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
// following it: the thread says so, that the job cannot be cancelled and
// still runs, and that its result comes; the session waits for the person
// again; the job's live message is edited no more, by any replica (two
// run), and the job's result is still posted once.
func TestPaneStopOfAJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true, bottest.LongJobs())
	cfg := bottest.Config{Answers: true, Editors: []string{alice}}
	h.StartBot(cfg)
	h.StartBot(cfg)
	th := h.open(alice, general)
	asked, _ := h.Reply(alice, th.Channel, th.ThreadTS, "add a page on rotating keys")
	h.WaitFor("the job created", func() bool { return len(h.API.Jobs()) == 1 })
	id := h.API.Jobs()[0].ID
	st := h.OpenStore()
	var root string
	h.WaitFor("the job followed in the pane's thread", func() bool {
		j, err := st.Jobs().JobByThread(t.Context(), store.Thread{Team: "T0TEST", Channel: th.Channel, TS: th.ThreadTS})
		if err != nil || j.ID != id {
			return false
		}
		root = j.Root
		return root != ""
	})
	h.session(th, "processing")
	if _, err := h.Slack.StopAgentSession(t.Context(), th.Channel, th.ThreadTS, alice); err != nil {
		t.Fatal(err)
	}
	note := h.replied(th.Channel, th.ThreadTS, "cannot be cancelled through the docs API")
	bottest.WantContains(t, "the Stop's note", note.Text, "Stopped following", id, "still runs", "still be posted here, once")
	h.session(th, "active")
	rootEdits := func() int {
		n := 0
		for _, c := range h.Slack.Calls("chat.update") {
			if c.Params["ts"] == root {
				n++
			}
		}
		return n
	}
	before := rootEdits()
	defer func() {
		for _, c := range h.Slack.Calls("chat.update") {
			t.Logf("update %s %s root=%s", c.Params["channel"], c.Params["ts"], root)
		}
	}()
	pr := h.Complete(id, 1)
	h.replied(th.Channel, th.ThreadTS, pr)
	// The ✅ on the person's message comes after the finish is recorded,
	// when the live message would have been edited.
	h.WaitFor("the job shown ended on the person's message", func() bool {
		m, ok := h.Slack.Message(th.Channel, asked)
		return ok && slices.Contains(m.Reactions, "white_check_mark")
	})
	h.Idle()
	if n := rootEdits() - before; n != 0 {
		t.Errorf("the live message was edited %d times after Stop", n)
	}
	if f := h.Finishes(th.Channel, th.ThreadTS); len(f) != 1 {
		t.Errorf("%d results posted, want 1", len(f))
	}
}
