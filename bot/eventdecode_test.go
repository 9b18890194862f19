package bot

import (
	"reflect"
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// ownPost is the event Slack sends the bot for a post of its own, blocks
// and all.
const ownPost = `{"type":"event_callback","team_id":"T0","api_app_id":"A0","enterprise_id":"E0","event_id":"Ev9","event_time":1,` +
	`"event":{"type":"message","channel":"C0","channel_type":"channel","user":"U0BOT","bot_id":"B0","text":"Docs agent job","ts":"1.5",` +
	`"blocks":[{"type":"section","text":{"type":"mrkdwn","text":"*asked*"}},{"type":"rich_text","elements":[{"type":"rich_text_section","elements":[{"type":"text","text":"x"}]}]}]}}`

// richText is the rich-text block Slack adds to a person's message.
const richText = `[{"type":"rich_text","block_id":"b1","elements":[{"type":"rich_text_section","elements":[{"type":"text","text":"How do I "},` +
	`{"type":"link","url":"https://docs.example.com","text":"link"},{"type":"user","user_id":"U0BOT"},{"type":"emoji","name":"wave"}]}]}]`

// messageEvents are message events as Slack sends them: the bot's own posts
// and edits, other bots', and people's, with what each kind carries.
var messageEvents = []struct{ name, body string }{
	{"own post", ownPost},
	{"own edit", `{"type":"event_callback","team_id":"T0","event_id":"Ev10","event":{"type":"message","subtype":"message_changed","hidden":true,"channel":"C0","ts":"1.6","event_ts":"1.6",` +
		`"message":{"type":"message","user":"U0BOT","bot_id":"B0","text":"Docs agent job: done","ts":"1.5","edited":{"user":"U0BOT","ts":"1.6"},"blocks":[{"type":"divider"}]},` +
		`"previous_message":{"type":"message","user":"U0BOT","bot_id":"B0","text":"Docs agent job","ts":"1.5","blocks":[{"type":"divider"}]}}}`},
	{"another bot", `{"type":"event_callback","team_id":"T0","event":{"type":"message","subtype":"bot_message","bot_id":"B9","username":"deploys","channel":"C0","ts":"1.7","text":"deploy done",` +
		`"attachments":[{"color":"good","title":"build 42","fields":[{"title":"env","value":"prod","short":true}]}],"icons":{"emoji":":rocket:"}}}`},
	{"a bot's plain message", `{"type":"event_callback","team_id":"T0","event":{"type":"message","bot_id":"B9","user":"U9","channel":"C0","ts":"1.7","bot_profile":{"id":"B9","name":"ci"}}}`},
	{"a join", `{"type":"event_callback","team_id":"T0","event":{"type":"message","subtype":"channel_join","user":"U1","channel":"C0","ts":"1.8","text":"<@U1> has joined the channel"}}`},
	{"no user", `{"type":"event_callback","team_id":"T0","event":{"type":"message","channel":"C0","ts":"1.8","text":"x"}}`},
	{"a person's post", `{"type":"event_callback","team_id":"T0","api_app_id":"A0","event_id":"Ev11","event_time":2,"authorizations":[{"team_id":"T0","user_id":"U0BOT","is_bot":true}],` +
		`"event":{"type":"message","client_msg_id":"c-1","user":"U1","team":"T0","channel":"C0","channel_type":"channel","ts":"1.9","event_ts":"1.9",` +
		`"text":"How do I <https://docs.example.com|link> <@U0BOT> :wave:","blocks":` + richText + `}}`},
	{"a reply in a thread", `{"type":"event_callback","team_id":"T0","event":{"type":"message","client_msg_id":"c-2","user":"U1","channel":"C0","channel_type":"channel",` +
		`"ts":"2.1","thread_ts":"2.0","parent_user_id":"U0BOT","text":"And the rate limits?","blocks":` + richText + `}}`},
	{"a reply sent to the channel", `{"type":"event_callback","team_id":"T0","event":{"type":"message","subtype":"thread_broadcast","user":"U1","channel":"C0","ts":"2.1","thread_ts":"2.0",` +
		`"text":"also here","root":{"type":"message","user":"U2","text":"the question","ts":"2.0","blocks":` + richText + `}}}`},
	{"a DM", `{"type":"event_callback","team_id":"T0","event":{"type":"message","user":"U1","channel":"D0","channel_type":"im","ts":"2.2","text":"list",` +
		`"assistant_thread":{"action_token":"tok"},"blocks":` + richText + `}}`},
	{"a person's files", `{"type":"event_callback","team_id":"T0","event":{"type":"message","subtype":"file_share","user":"U1","channel":"C0","ts":"2.3","text":"this page <@U0BOT>",` +
		`"files":[{"id":"F1","name":"shot.png","mimetype":"image/png","filetype":"png","size":2048,"url_private":"https://files.slack.com/F1/shot.png",` +
		`"url_private_download":"https://files.slack.com/F1/download/shot.png","permalink":"https://acme.slack.com/files/U1/F1/shot.png","thumb_64":"https://files.slack.com/F1/64.png",` +
		`"original_w":800,"original_h":600},{"id":"F2","name":"notes.md","mimetype":"text/markdown","size":12,"url_private_download":"https://files.slack.com/F2/download/notes.md"}],` +
		`"blocks":` + richText + `,"upload":false}}`},
	{"files without the subtype", `{"type":"event_callback","team_id":"T0","event":{"type":"message","user":"U1","channel":"C0","ts":"2.4","text":"see",` +
		`"files":[{"id":"F3","name":"a.txt","mimetype":"text/plain","size":3}]}}`},
	{"a deletion", `{"type":"event_callback","team_id":"T0","event":{"type":"message","subtype":"message_deleted","hidden":true,"channel":"C0","ts":"2.6","deleted_ts":"2.5",` +
		`"previous_message":{"type":"message","user":"U1","text":"oops","ts":"2.5","blocks":` + richText + `}}}`},
	{"Slack Connect", `{"type":"event_callback","team_id":"T0","is_ext_shared_channel":true,"event":{"type":"message","user":"U7","user_team":"T7","source_team":"T7",` +
		`"channel":"C0","ts":"2.7","text":"hello from another org"}}`},
	{"Enterprise Grid", `{"type":"event_callback","team_id":"T0","enterprise_id":"E0","context_team_id":"T0","context_enterprise_id":"E0","event":{"type":"message",` +
		`"user":"W1","channel":"C0","ts":"2.8","text":"hi"}}`},
}

// TestLightMessageEventsReadWhatSlackGoReads: every message event is read
// lightly, and says what slack-go's whole reading says of every field the
// bot reads (sameMessage); every other event is slack-go's whole.
func TestLightMessageEventsReadWhatSlackGoReads(t *testing.T) {
	t.Parallel()
	for _, tc := range messageEvents {
		t.Run(tc.name, func(t *testing.T) {
			light, ok := lightMessageEvent([]byte(tc.body))
			if !ok {
				t.Fatal("not read lightly")
			}
			full, err := slackevents.ParseEvent([]byte(tc.body), slackevents.OptionNoVerifyToken())
			if err != nil {
				t.Fatalf("slack-go cannot read it: %v", err)
			}
			sameMessage(t, light, full)
			got, err := decodeEventsPayload([]byte(tc.body))
			if err != nil || !reflect.DeepEqual(got, light) {
				t.Fatalf("decodeEventsPayload = %+v, %v; want the light event", got, err)
			}
		})
	}
	for _, tc := range []struct{ name, body string }{
		{"a mention", `{"type":"event_callback","team_id":"T0","event":{"type":"app_mention","user":"U1","channel":"C0","ts":"2.3","text":"<@U0BOT> hi","blocks":` + richText + `}}`},
		{"a link shared", `{"type":"event_callback","team_id":"T0","event":{"type":"link_shared","user":"U1","channel":"C0","message_ts":"2.3","links":[{"domain":"docs.example.com","url":"https://docs.example.com/a"}]}}`},
		{"a reaction", `{"type":"event_callback","team_id":"T0","event":{"type":"reaction_added","user":"U1","reaction":"white_check_mark","item":{"type":"message","channel":"C0","ts":"2.3"}}}`},
		{"the user is not a string", `{"type":"event_callback","team_id":"T0","event":{"type":"message","bot_id":"B0","user":5,"channel":"C0","ts":"1.5"}}`},
		{"url verification", `{"type":"url_verification","challenge":"abc"}`},
		{"rate limited", `{"type":"app_rate_limited","team_id":"T0","minute_rate_limited":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := lightMessageEvent([]byte(tc.body)); ok {
				t.Fatal("read lightly")
			}
			got, gotErr := decodeEventsPayload([]byte(tc.body))
			full, fullErr := slackevents.ParseEvent([]byte(tc.body), slackevents.OptionNoVerifyToken())
			if (gotErr == nil) != (fullErr == nil) || !reflect.DeepEqual(got, full) {
				t.Fatalf("decodeEventsPayload = %+v, %v; slack-go's %+v, %v", got, gotErr, full, fullErr)
			}
		})
	}
}

// sameMessage fails t unless light, a message event read lightly, says
// what full, slack-go's whole reading of it, says of the outer event and of
// every field of the message the bot reads: onMessage's, OwnOrBot's,
// notAPersonsPost's, the files (eventFiles), and an edit's message as it is
// and as it was (an edit's, a deletion's).
func sameMessage(t *testing.T, light, full slackevents.EventsAPIEvent) {
	t.Helper()
	m, ok := light.InnerEvent.Data.(*slackevents.MessageEvent)
	if !ok || light.InnerEvent.Type != string(slackevents.Message) {
		t.Fatalf("light event %+v is no message", light)
	}
	fm, ok := full.InnerEvent.Data.(*slackevents.MessageEvent)
	if !ok || full.InnerEvent.Type != light.InnerEvent.Type {
		t.Fatalf("slack-go reads %+v as %T", full, full.InnerEvent.Data)
	}
	if light.TeamID != full.TeamID || light.EnterpriseID != full.EnterpriseID || light.APIAppID != full.APIAppID || light.Type != full.Type ||
		light.Token != full.Token || light.IsExtSharedChannel != full.IsExtSharedChannel {
		t.Fatalf("outer event %+v; slack-go's %+v", light, full)
	}
	lcb, fcb := *light.Data.(*slackevents.EventsAPICallbackEvent), *full.Data.(*slackevents.EventsAPICallbackEvent)
	lcb.InnerEvent, fcb.InnerEvent = nil, nil
	if !reflect.DeepEqual(lcb, fcb) {
		t.Fatalf("callback %+v; slack-go's %+v", lcb, fcb)
	}
	if got, want := eventFiles(light), eventFiles(full); !reflect.DeepEqual(got, want) {
		t.Fatalf("files %+v; slack-go's %+v", got, want)
	}
	if head(m) != head(fm) {
		t.Fatalf("message %+v; slack-go's %+v", head(m), head(fm))
	}
	// slack-go copies a message that is not an edit into Message; the
	// light event leaves it nil.
	if fm.SubType == "message_changed" && msgOf(m.Message) != msgOf(fm.Message) {
		t.Fatalf("edited message %+v; slack-go's %+v", msgOf(m.Message), msgOf(fm.Message))
	}
	if msgOf(m.PreviousMessage) != msgOf(fm.PreviousMessage) {
		t.Fatalf("previous message %+v; slack-go's %+v", msgOf(m.PreviousMessage), msgOf(fm.PreviousMessage))
	}
}

// head is what the bot may read of a message event, as one comparable
// value.
func head(m *slackevents.MessageEvent) [15]string {
	return [...]string{m.ClientMsgID, m.Type, m.User, m.Text, m.ThreadTimeStamp, m.TimeStamp, m.Channel, m.ChannelType, m.EventTimeStamp,
		m.UserTeam, m.SourceTeam, m.DeletedTimeStamp, m.SubType, m.BotID, m.Username}
}

// msgOf is what the bot may read of an edit's message.
func msgOf(m *slack.Msg) [11]string {
	if m == nil {
		return [11]string{"none"}
	}
	var edited [2]string
	if m.Edited != nil {
		edited = [2]string{m.Edited.User, m.Edited.Timestamp}
	}
	return [...]string{m.Type, m.ClientMsgID, m.User, m.Text, m.SubType, m.BotID, m.Username, m.Timestamp, m.ThreadTimestamp, edited[0], edited[1]}
}

// FuzzLightMessageEvent: whatever the payload, decodeEventsPayload reads
// what slack-go reads: a message event the same on every field the bot
// reads, any other event the same whole; what slack-go refuses it refuses
// too, but for a message event it reads lightly (a field the bot does not
// read that slack-go cannot); never a panic.
func FuzzLightMessageEvent(f *testing.F) {
	for _, s := range eventBodies {
		f.Add([]byte(s))
	}
	for _, e := range messageEvents {
		f.Add([]byte(e.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, gotErr := decodeEventsPayload(body)
		full, err := slackevents.ParseEvent(body, slackevents.OptionNoVerifyToken())
		_, fullMessage := full.InnerEvent.Data.(*slackevents.MessageEvent)
		switch {
		case err == nil && gotErr != nil:
			t.Fatalf("slack-go reads %q; decodeEventsPayload: %v", body, gotErr)
		case err == nil && fullMessage:
			sameMessage(t, got, full)
		case err == nil && !reflect.DeepEqual(got, full):
			t.Fatalf("decodeEventsPayload(%q) = %+v; slack-go's %+v", body, got, full)
		case err != nil && gotErr == nil && got.InnerEvent.Type != string(slackevents.Message):
			t.Fatalf("slack-go refuses %q (%v); decodeEventsPayload reads a %q event", body, err, got.InnerEvent.Type)
		}
	})
}

// BenchmarkDecodeMessageEvent: a person's message with its rich text, read
// lightly and by slack-go.
func BenchmarkDecodeMessageEvent(b *testing.B) {
	body := []byte(messageEvents[6].body)
	b.Run("light", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeEventsPayload(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("slack-go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := slackevents.ParseEvent(body, slackevents.OptionNoVerifyToken()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
