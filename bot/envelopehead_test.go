package bot

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/slack-go/slack/slackevents"
	"github.com/tidwall/gjson"
)

// frames are Socket Mode frames as Slack sends them, and some it does not.
var frames = []string{
	`{"type":"hello","num_connections":2,"debug_info":{"host":"applink-1"},"connection_info":{"app_id":"A0"}}`,
	`{"type":"disconnect","reason":"refresh_requested","debug_info":{"host":"applink-1"}}`,
	`{"envelope_id":"e1","payload":` + ownPost + `,"type":"events_api","accepts_response_payload":false,"retry_attempt":0,"retry_reason":""}`,
	`{"envelope_id":"e2","payload":{"token":"x","team_id":"T0","channel_id":"C0","user_id":"U1","command":"/docs-agent","text":"fix \"it\"","response_url":"https://hooks.slack.com/r"},"type":"slash_commands","accepts_response_payload":true}`,
	`{"envelope_id":"e3","type":"events_api","retry_attempt":2,"retry_reason":"timeout","payload":{"type":"event_callback","event":{"type":"app_mention","user":"U1","text":"hi","ts":"1.1","channel":"C0"}}}`,
	" \n\t" + `{"type":"interactive","envelope_id":"e4","payload":{"type":"block_actions","user":{"id":"U1"}}}`,
	`{"type":"events_api","envelope_id":null,"payload":null}`,
	`{"type":"events_api","envelope_id":"e5","payload":[1,2]}`,
	`{"TYPE":"hello"}`,
	`{"envelope_id":"e6"}`,
	`{"type":""}`,
	`{"type":7}`,
	`{"type":"events_api","retry_attempt":"2"}`,
	`{"type":"events_api","retry_attempt":1.5}`,
	`[{"type":"hello"}]`,
	`"hello"`,
	`{"type":"hello"`,
	`not JSON`,
	``,
}

// TestReadEnvelopeAsUnmarshal: a frame is read as json.Unmarshal reads it
// into an envelope, payload bytes included, for every frame Slack sends; a
// frame it refuses, or one with no type, is refused.
func TestReadEnvelopeAsUnmarshal(t *testing.T) {
	t.Parallel()
	for _, frame := range frames {
		got, ok := readEnvelope([]byte(frame))
		var want envelope
		err := json.Unmarshal([]byte(frame), &want)
		if want.Type == "" && err == nil && ok {
			t.Errorf("readEnvelope(%s) = %+v; a frame with no type is no envelope", frame, got)
			continue
		}
		if (err == nil && want.Type != "") != ok && frame != `{"TYPE":"hello"}` {
			t.Errorf("readEnvelope(%s): ok %v; json.Unmarshal: %v, type %q", frame, ok, err, want.Type)
			continue
		}
		if !ok {
			continue
		}
		if got.ignored {
			want.Payload = nil // not kept
		}
		if len(got.Payload) == 0 && len(want.Payload) == 0 {
			got.Payload, want.Payload = nil, nil
		}
		want.ignored = got.ignored
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("readEnvelope(%s) = %+v (payload %s), want %+v (payload %s)", frame, *got, got.Payload, want, want.Payload)
		}
	}
}

// TestReadEnvelopeIgnoresWhatOnMessageIgnores: of the message events Slack
// sends, those onMessage only acks are ignored at the frame, and a
// person's post never is; no other event is.
func TestReadEnvelopeIgnoresWhatOnMessageIgnores(t *testing.T) {
	t.Parallel()
	ignored := map[string]bool{"own post": true, "own edit": true, "another bot": true, "a bot's plain message": true,
		"a join": true, "no user": true, "a deletion": true}
	for _, tc := range messageEvents {
		env, ok := readEnvelope([]byte(`{"type":"events_api","envelope_id":"e","payload":` + tc.body + `}`))
		if !ok {
			t.Fatalf("%s: not read", tc.name)
		}
		if env.ignored != ignored[tc.name] {
			t.Errorf("%s: ignored %v, want %v", tc.name, env.ignored, ignored[tc.name])
		}
		if onMessageIgnores(t, []byte(tc.body)) != ignored[tc.name] {
			t.Errorf("%s: the table above is not what onMessage does", tc.name)
		}
	}
	for _, body := range append(eventBodies,
		// Where json.Unmarshal could read it otherwise, it is read whole.
		`{"type":"event_callback","event":{"type":"message","bot_id":"B0","BOT_ID":"","user":"U1","ts":"1.1"}}`,
		`{"type":"event_callback","event":{"type":"message","bot_id":7,"user":"U1","ts":"1.1"}}`,
		`{"Type":"event_callback","event":{"type":"message","bot_id":"B0"}}`,
	) {
		if env, ok := readEnvelope([]byte(`{"type":"events_api","envelope_id":"e","payload":` + body + `}`)); ok && env.ignored {
			t.Errorf("%s: ignored at the frame", body)
		}
	}
}

// onMessageIgnores reports whether onMessage only acks the message event
// body decodes to.
func onMessageIgnores(t *testing.T, body []byte) bool {
	t.Helper()
	ev, err := decodeEventsPayload(body)
	if err != nil {
		return true // acked and ignored (serveEnvelope)
	}
	m, ok := ev.InnerEvent.Data.(*slackevents.MessageEvent)
	return ok && notAPersonsPost(m.SubType, m.BotID, m.User)
}

// FuzzIgnoredMessage: whatever the payload, one ignored at the frame is
// one onMessage would only ack, or one that does not decode.
func FuzzIgnoredMessage(f *testing.F) {
	for _, tc := range messageEvents {
		f.Add([]byte(tc.body))
	}
	for _, s := range eventBodies {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if !gjson.ValidBytes(body) || !ignoredMessage(gjson.ParseBytes(body)) {
			return
		}
		if !onMessageIgnores(t, body) {
			t.Fatalf("%q is ignored at the frame; onMessage would read it", body)
		}
	})
}

// BenchmarkReadFrame: the frame of the bot's own post, read as the
// connection reads it, and as it did with json.Unmarshal (its payload then
// decoded lightly).
func BenchmarkReadFrame(b *testing.B) {
	frame := []byte(frames[2])
	b.Run("gjson", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if env, ok := readEnvelope(frame); !ok || !env.ignored {
				b.Fatal("not read")
			}
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var env envelope
			if err := json.Unmarshal(frame, &env); err != nil {
				b.Fatal(err)
			}
			if _, err := decodeEventsPayload(env.Payload); err != nil {
				b.Fatal(err)
			}
		}
	})
}
