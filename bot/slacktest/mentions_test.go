package slacktest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// innerEvents records the inner events of events_api envelopes, acking each.
func innerEvents(r *recorder[slackevents.EventsAPIInnerEvent]) handler {
	return func(sm *socketmode.Client, e socketmode.Event) {
		if e.Type != socketmode.EventTypeEventsAPI {
			return
		}
		r.add(e.Data.(slackevents.EventsAPIEvent).InnerEvent)
		_ = sm.Ack(*e.Request)
	}
}

func TestMention(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithEchoBotMessages(false))
	var seen recorder[slackevents.EventsAPIInnerEvent]
	startClient(t, s, innerEvents(&seen))
	parent, err := s.Mention(testContext(t), UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "summarise the docs"})
	if err != nil {
		t.Fatal(err)
	}
	reply, err := s.Mention(testContext(t), UserMessage{ChannelID: "C0GENERAL", UserID: "U0BOB", Text: "<@U0BOT> and the API", ThreadTS: parent.TS})
	if err != nil {
		t.Fatal(err)
	}
	got := waitLen(t, &seen, 4)
	tests := []struct {
		name       string
		ts, thread string
		text       string
	}{
		{"in the channel", parent.TS, "", "<@U0BOT> summarise the docs"},
		{"in a thread", reply.TS, parent.TS, "<@U0BOT> and the API"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mentions, messages int
			for _, ev := range got {
				switch d := ev.Data.(type) {
				case *slackevents.AppMentionEvent:
					if d.TimeStamp == tc.ts {
						mentions++
						if d.Channel != "C0GENERAL" || d.ThreadTimeStamp != tc.thread || d.Text != tc.text {
							t.Errorf("app_mention = %+v, want channel C0GENERAL thread %q text %q", d, tc.thread, tc.text)
						}
					}
				case *slackevents.MessageEvent:
					if d.TimeStamp == tc.ts {
						messages++
					}
				}
			}
			if mentions != 1 || messages != 1 {
				t.Errorf("got %d app_mention and %d message events for %s, want 1 and 1", mentions, messages, tc.ts)
			}
		})
	}
	if _, err := s.Mention(testContext(t), UserMessage{ChannelID: "C0NOPE", UserID: "U0ALICE", Text: "x"}); err == nil {
		t.Error("a mention in an unknown channel was accepted")
	}
}

func TestDirectMessage(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithEchoBotMessages(false))
	var seen recorder[slackevents.EventsAPIInnerEvent]
	startClient(t, s, innerEvents(&seen))
	dm, err := s.OpenDM("U0ALICE")
	if err != nil {
		t.Fatal(err)
	}
	if dm[0] != 'D' {
		t.Fatalf("DM id %q does not start with D", dm)
	}
	ts, _, err := s.PostUserMessage(testContext(t), UserMessage{ChannelID: dm, UserID: "U0ALICE", Text: "help"})
	if err != nil {
		t.Fatal(err)
	}
	ev, ok := waitLen(t, &seen, 1)[0].Data.(*slackevents.MessageEvent)
	if !ok || ev.ChannelType != "im" || ev.Channel != dm || ev.TimeStamp != ts || ev.User != "U0ALICE" {
		t.Fatalf("DM event = %+v, want a message event with channel_type im in %s", ev, dm)
	}

	api := botAPI(s)
	opened, _, _, err := api.OpenConversationContext(testContext(t), &slack.OpenConversationParameters{Users: []string{"U0ALICE"}})
	if err != nil || opened.ID != dm {
		t.Fatalf("conversations.open = %v, %v; want %s", opened, err, dm)
	}
	for _, target := range []string{dm, "U0ALICE"} {
		if _, _, err := api.PostMessageContext(testContext(t), target, slack.MsgOptionText("here to help", false), slack.MsgOptionTS(ts)); err != nil {
			t.Fatalf("posting in the DM via %s: %v", target, err)
		}
	}
	if th := s.Thread(dm, ts); len(th) != 3 || th[1].User != s.BotUserID() {
		t.Errorf("DM thread = %+v, want alice's message and two replies by the bot", th)
	}
}

func TestMentionRedelivered(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithRedelivery(50*time.Millisecond), WithEchoBotMessages(false))
	var attempts recorder[int]
	startClient(t, s, func(sm *socketmode.Client, e socketmode.Event) {
		if e.Type != socketmode.EventTypeEventsAPI {
			return
		}
		if _, ok := e.Data.(slackevents.EventsAPIEvent).InnerEvent.Data.(*slackevents.AppMentionEvent); ok {
			attempts.add(e.Request.RetryAttempt)
			if e.Request.RetryAttempt == 0 {
				return // not acknowledged: Slack sends it again
			}
		}
		_ = sm.Ack(*e.Request)
	})
	if _, err := s.Mention(testContext(t), UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if got := waitLen(t, &attempts, 2); got[0] != 0 || got[1] != 1 {
		t.Errorf("app_mention attempts = %v, want [0 1]", got)
	}
}

// TestRichTextMentions: the rich_text block of a typed message carries each
// mention as a user element, as Slack's clients send it.
func TestRichTextMentions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text, want string
	}{
		{"plain &lt;b&gt;", `[{"text":"plain \u0026lt;b\u0026gt;","type":"text"}]`},
		{"<@U0BOT> fix it", `[{"type":"user","user_id":"U0BOT"},{"text":" fix it","type":"text"}]`},
		{"ask <@U0BOB|bob> and <@U0BOT>", `[{"text":"ask ","type":"text"},{"type":"user","user_id":"U0BOB"},{"text":" and ","type":"text"},{"type":"user","user_id":"U0BOT"}]`},
		{"broken <@U0BOT", `[{"text":"broken \u003c@U0BOT","type":"text"}]`},
	}
	for _, tc := range tests {
		var blocks []struct {
			Elements []struct {
				Elements json.RawMessage `json:"elements"`
			} `json:"elements"`
		}
		if err := json.Unmarshal(richTextBlocks(tc.text), &blocks); err != nil {
			t.Fatal(err)
		}
		if got := string(blocks[0].Elements[0].Elements); got != tc.want {
			t.Errorf("%q: elements %s, want %s", tc.text, got, tc.want)
		}
	}
}

// TestMentionFromAnotherOrganisation: a person of another organisation in a
// shared channel is sent with their own team, as Slack Connect sends it, on
// both the app_mention and the message event; a member's carry none.
func TestMentionFromAnotherOrganisation(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithEchoBotMessages(false))
	s.AddExternalUser("U0EXT", "Eve", "T0OTHER")
	var seen recorder[slackevents.EventsAPIInnerEvent]
	startClient(t, s, innerEvents(&seen))
	ext, err := s.Mention(testContext(t), UserMessage{ChannelID: "C0GENERAL", UserID: "U0EXT", Text: "fix the docs"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mention(testContext(t), UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "fix them too"}); err != nil {
		t.Fatal(err)
	}
	for _, ev := range waitLen(t, &seen, 4) {
		var ts, userTeam, sourceTeam string
		switch d := ev.Data.(type) {
		case *slackevents.AppMentionEvent:
			ts, userTeam, sourceTeam = d.TimeStamp, d.UserTeam, d.SourceTeam
		case *slackevents.MessageEvent:
			ts, userTeam, sourceTeam = d.TimeStamp, d.UserTeam, d.SourceTeam
		}
		want := ""
		if ts == ext.TS {
			want = "T0OTHER"
		}
		if userTeam != want || sourceTeam != want {
			t.Errorf("%s event %s: user_team %q, source_team %q; want %q", ev.Type, ts, userTeam, sourceTeam, want)
		}
	}
}
