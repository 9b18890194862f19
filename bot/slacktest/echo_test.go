package slacktest

import (
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// messageEvents records the message events a client receives and acks them.
func messageEvents(r *recorder[*slackevents.MessageEvent]) handler {
	return func(sm *socketmode.Client, e socketmode.Event) {
		if e.Type != socketmode.EventTypeEventsAPI {
			return
		}
		if me, ok := e.Data.(slackevents.EventsAPIEvent).InnerEvent.Data.(*slackevents.MessageEvent); ok {
			r.add(me)
		}
		_ = sm.Ack(*e.Request)
	}
}

func TestEchoBotMessages(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	var events recorder[*slackevents.MessageEvent]
	startClient(t, s, messageEvents(&events))
	api := botAPI(s)
	ctx := testContext(t)

	_, root, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Job started", false))
	if err != nil {
		t.Fatal(err)
	}
	_, reply, err := api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("Step 1", false), slack.MsgOptionTS(root))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := api.UpdateMessageContext(ctx, "C0GENERAL", root, slack.MsgOptionText("Job done", false)); err != nil {
		t.Fatal(err)
	}
	got := waitLen(t, &events, 3)
	tests := []struct {
		name                              string
		ev                                *slackevents.MessageEvent
		subtype, ts, threadTS, text, user string
	}{
		{"root post", got[0], "", root, "", "Job started", s.cfg.botUserID},
		{"thread post", got[1], "", reply, root, "Step 1", s.cfg.botUserID},
	}
	for _, tc := range tests {
		if tc.ev.SubType != tc.subtype || tc.ev.TimeStamp != tc.ts || tc.ev.ThreadTimeStamp != tc.threadTS || tc.ev.Text != tc.text || tc.ev.User != tc.user || tc.ev.BotID != s.cfg.botID {
			t.Errorf("%s: event %+v", tc.name, tc.ev)
		}
	}
	changed := got[2]
	if changed.SubType != "message_changed" || changed.Message == nil || changed.Message.Text != "Job done" || changed.Message.Timestamp != root ||
		changed.PreviousMessage == nil || changed.PreviousMessage.Text != "Job started" || changed.Message.Edited == nil {
		t.Errorf("message_changed event %+v (message %+v)", changed, changed.Message)
	}
}

func TestEchoOff(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithEchoBotMessages(false))
	var events recorder[*slackevents.MessageEvent]
	startClient(t, s, messageEvents(&events))
	ctx := testContext(t)
	if _, _, err := botAPI(s).PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("quiet", false)); err != nil {
		t.Fatal(err)
	}
	// Events reach a single connection in order: an echo would come first.
	ts, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "loud"})
	if err != nil {
		t.Fatal(err)
	}
	if first := waitLen(t, &events, 1)[0]; first.TimeStamp != ts {
		t.Errorf("first event is %+v, want the user's message %s", first, ts)
	}
}
