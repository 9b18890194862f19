package bot

import (
	"testing"

	"github.com/slack-go/slack/slackevents"
)

// ownPost is the event Slack sends the bot for a post of its own, blocks
// and all.
const ownPost = `{"type":"event_callback","team_id":"T0","api_app_id":"A0","enterprise_id":"E0","event_id":"Ev9","event_time":1,` +
	`"event":{"type":"message","channel":"C0","channel_type":"channel","user":"U0BOT","bot_id":"B0","text":"Docs agent job","ts":"1.5",` +
	`"blocks":[{"type":"section","text":{"type":"mrkdwn","text":"*asked*"}},{"type":"rich_text","elements":[{"type":"rich_text_section","elements":[{"type":"text","text":"x"}]}]}]}}`

// TestDecodeEventsPayloadReadsIgnoredMessagesLightly: the message events
// the bot ignores whoever it is are read without their blocks, with the
// fields that decide so and the outer event as slack-go reads them; every
// other event is slack-go's whole.
func TestDecodeEventsPayloadReadsIgnoredMessagesLightly(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		light      bool
	}{
		{"own post", ownPost, true},
		{"own edit", `{"type":"event_callback","team_id":"T0","event":{"type":"message","subtype":"message_changed","channel":"C0","ts":"1.6",` +
			`"message":{"type":"message","user":"U0BOT","bot_id":"B0","ts":"1.5","blocks":[{"type":"divider"}]},"previous_message":{"type":"message","ts":"1.5"}}}`, true},
		{"another bot", `{"type":"event_callback","team_id":"T0","event":{"type":"message","subtype":"bot_message","bot_id":"B9","channel":"C0","ts":"1.7","text":"deploy done"}}`, true},
		{"a bot's plain message", `{"type":"event_callback","team_id":"T0","event":{"type":"message","bot_id":"B9","user":"U9","channel":"C0","ts":"1.7"}}`, true},
		{"a join", `{"type":"event_callback","team_id":"T0","event":{"type":"message","subtype":"channel_join","user":"U1","channel":"C0","ts":"1.8"}}`, true},
		{"no user", `{"type":"event_callback","team_id":"T0","event":{"type":"message","channel":"C0","ts":"1.8","text":"x"}}`, true},
		{"a person's post", `{"type":"event_callback","team_id":"T0","event":{"type":"message","user":"U1","channel":"C0","ts":"1.9","text":"hi",` +
			`"blocks":[{"type":"rich_text","elements":[]}]}}`, false},
		{"a person's reply sent to the channel", `{"type":"event_callback","team_id":"T0","event":{"type":"message","subtype":"thread_broadcast","user":"U1","channel":"C0","ts":"2.1","thread_ts":"2.0"}}`, false},
		{"a person's files", `{"type":"event_callback","team_id":"T0","event":{"type":"message","subtype":"file_share","user":"U1","channel":"C0","ts":"2.2"}}`, false},
		{"a mention", `{"type":"event_callback","team_id":"T0","event":{"type":"app_mention","user":"U1","channel":"C0","ts":"2.3","text":"<@U0BOT> hi"}}`, false},
		{"the user is not a string", `{"type":"event_callback","team_id":"T0","event":{"type":"message","bot_id":"B0","user":5,"channel":"C0","ts":"1.5"}}`, false},
		{"url verification", `{"type":"url_verification","challenge":"abc"}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			light, ok := ignoredMessageEvent([]byte(tc.body))
			if ok != tc.light {
				t.Fatalf("read lightly: %v, want %v", ok, tc.light)
			}
			got, gotErr := decodeEventsPayload([]byte(tc.body))
			full, fullErr := slackevents.ParseEvent([]byte(tc.body), slackevents.OptionNoVerifyToken())
			if !ok {
				if (gotErr == nil) != (fullErr == nil) || got.InnerEvent.Type != full.InnerEvent.Type {
					t.Fatalf("decodeEventsPayload = %+v, %v; slack-go's %+v, %v", got, gotErr, full, fullErr)
				}
				return
			}
			if gotErr != nil || got.InnerEvent.Type != light.InnerEvent.Type {
				t.Fatalf("decodeEventsPayload = %+v, %v; want the light event", got, gotErr)
			}
			sameIgnoredMessage(t, light, full, fullErr)
		})
	}
}

// sameIgnoredMessage fails t unless light, an ignored message event read
// lightly, says what slack-go's whole reading says of it (if slack-go reads
// it at all): the same outer event, and a message the bot ignores with the
// same fields.
func sameIgnoredMessage(t *testing.T, light, full slackevents.EventsAPIEvent, fullErr error) {
	t.Helper()
	m, ok := light.InnerEvent.Data.(*slackevents.MessageEvent)
	if !ok || light.InnerEvent.Type != string(slackevents.Message) || !notAPersonsPost(m.SubType, m.BotID, m.User) {
		t.Fatalf("light event %+v is no message the bot ignores", light)
	}
	if fullErr != nil {
		return // slack-go cannot read it: ignored either way
	}
	fm, ok := full.InnerEvent.Data.(*slackevents.MessageEvent)
	if !ok {
		t.Fatalf("slack-go reads %+v as %T", full, full.InnerEvent.Data)
	}
	if light.TeamID != full.TeamID || light.EnterpriseID != full.EnterpriseID || light.APIAppID != full.APIAppID || light.Type != full.Type ||
		light.Token != full.Token || light.IsExtSharedChannel != full.IsExtSharedChannel || eventID(light) != eventID(full) ||
		eventWorkspace(light) != eventWorkspace(full) {
		t.Fatalf("outer event %+v; slack-go's %+v", light, full)
	}
	if m.SubType != fm.SubType || m.BotID != fm.BotID || m.User != fm.User || m.Channel != fm.Channel || m.ChannelType != fm.ChannelType ||
		m.TimeStamp != fm.TimeStamp || m.ThreadTimeStamp != fm.ThreadTimeStamp || m.EventTimeStamp != fm.EventTimeStamp {
		t.Fatalf("message %+v; slack-go's %+v", m, fm)
	}
}

// FuzzIgnoredMessageEvent: whatever the payload, an event read lightly is
// a message the bot ignores, and says of it what slack-go's whole reading
// says; never a panic.
func FuzzIgnoredMessageEvent(f *testing.F) {
	for _, s := range append(eventBodies, ownPost) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		light, ok := ignoredMessageEvent(body)
		if !ok {
			return
		}
		full, err := slackevents.ParseEvent(body, slackevents.OptionNoVerifyToken())
		sameIgnoredMessage(t, light, full, err)
	})
}
