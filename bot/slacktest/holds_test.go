package slacktest

import (
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// TestHoldAnswer: a post whose answer is held shows at once, and a person
// may react to it, the reaction delivered to the app, before the poster
// hears its ts; Release gives it the ts the message has. A call the hold
// does not match, and a later one, is answered at once.
func TestHoldAnswer(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	reacted := &recorder[string]{}
	ackEverything(t, s, func(e socketmode.Event) {
		if ev, ok := e.Data.(slackevents.EventsAPIEvent); ok {
			if r, ok := ev.InnerEvent.Data.(*slackevents.ReactionAddedEvent); ok {
				reacted.add(r.Item.Timestamp)
			}
		}
	})
	api := botAPI(s)
	ctx := testContext(t)
	h := s.HoldAnswer("chat.postMessage", func(p map[string]string) bool { return p["text"] == "held" })
	t.Cleanup(h.Release)
	if _, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("not held", false)); err != nil {
		t.Fatalf("a post the hold does not match: %v", err)
	}
	type posted struct {
		ts  string
		err error
	}
	answer := make(chan posted, 1)
	go func() {
		_, ts, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("held", false))
		answer <- posted{ts, err}
	}()
	call, err := h.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := s.Message("C0GENERAL", call.TS); !ok || m.Text != "held" || call.Channel != "C0GENERAL" {
		t.Fatalf("the held post %+v is not shown as posted (%+v, %t)", call, m, ok)
	}
	if err := s.React(ctx, "U0ALICE", "C0GENERAL", call.TS, "white_check_mark"); err != nil {
		t.Fatalf("reacting to the held post: %v", err)
	}
	if got := waitLen(t, reacted, 1); got[0] != call.TS {
		t.Errorf("the reaction delivered names %s, want %s", got[0], call.TS)
	}
	select {
	case p := <-answer:
		t.Fatalf("the poster heard back (%+v) before the release", p)
	default:
	}
	h.Release()
	if p := <-answer; p.err != nil || p.ts != call.TS {
		t.Fatalf("after the release the post answered %+v, want ts %s", p, call.TS)
	}
	if _, _, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("held", false)); err != nil {
		t.Fatalf("a second post: %v", err)
	}
}
