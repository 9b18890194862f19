package bot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"

	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

const echoSelf = "U0BOT"

// envelope is an Events API envelope as Slack sends it over Socket Mode,
// around event (a JSON object).
func envelope(id, event string) string {
	return fmt.Sprintf(`{"envelope_id":%q,"type":"events_api","accepts_response_payload":false,"retry_attempt":1,"retry_reason":"timeout",`+
		`"payload":{"token":"vtok","team_id":"T0TEST","context_team_id":"T0TEST","api_app_id":"A0DOCSBOT","event":%s,`+
		`"type":"event_callback","event_id":"Ev%s","event_time":1700000000,"authorizations":[{"team_id":"T0TEST","user_id":"U0BOT","is_bot":true}],`+
		`"is_ext_shared_channel":false,"event_context":"4-abc"}}`, id, event, id)
}

const echoBlocks = `"blocks":[{"type":"section","block_id":"b1","text":{"type":"mrkdwn","text":"*Docs job* job ` + "`j1`" + ` started"}},` +
	`{"type":"context","elements":[{"type":"mrkdwn","text":"status"}]}]`

// echoEnvelopes are representative envelopes the bot receives, as raw JSON.
var echoEnvelopes = []struct {
	name string
	raw  string
	// drop is the full decision: a message event IsOwnOrBot holds for.
	drop bool
}{
	{"own message", envelope("1", `{"type":"message","user":"U0BOT","bot_id":"B0BOT","app_id":"A0DOCSBOT","text":"Docs job","ts":"1.000100","channel":"C0GENERAL","channel_type":"channel","event_ts":"1.000100","team":"T0TEST",`+echoBlocks+`,"bot_profile":{"id":"B0BOT","name":"docsbot","app_id":"A0DOCSBOT"}}`), true},
	{"own thread reply", envelope("2", `{"type":"message","user":"U0BOT","bot_id":"B0BOT","text":"done","ts":"1.000300","thread_ts":"1.000100","channel":"C0GENERAL","channel_type":"channel","event_ts":"1.000300",`+echoBlocks+`}`), true},
	{"other bot's message", envelope("3", `{"type":"message","subtype":"bot_message","bot_id":"B0OTHER","username":"ci","text":"build green","ts":"1.000400","channel":"C0GENERAL","channel_type":"channel","event_ts":"1.000400"}`), true},
	{"other bot's message with a user", envelope("4", `{"type":"message","user":"U0OTHERBOT","bot_id":"B0OTHER","text":"hello","ts":"1.000500","channel":"C0GENERAL","channel_type":"channel","event_ts":"1.000500"}`), true},
	{"message_changed of own post", envelope("5", `{"type":"message","subtype":"message_changed","hidden":true,"channel":"C0GENERAL","ts":"1.000600","event_ts":"1.000600","channel_type":"channel",`+
		`"message":{"type":"message","user":"U0BOT","bot_id":"B0BOT","text":"Docs job","ts":"1.000100",`+echoBlocks+`},`+
		`"previous_message":{"type":"message","user":"U0BOT","bot_id":"B0BOT","text":"Docs job","ts":"1.000100",`+echoBlocks+`}}`), true},
	{"message_deleted", envelope("6", `{"type":"message","subtype":"message_deleted","hidden":true,"channel":"C0GENERAL","ts":"1.000700","deleted_ts":"1.000100","event_ts":"1.000700","channel_type":"channel","previous_message":{"type":"message","user":"U0ALICE","text":"x","ts":"1.000100"}}`), true},
	{"user's message", envelope("7", `{"type":"message","user":"U0ALICE","text":"please document the webhook","ts":"1.000800","channel":"C0GENERAL","channel_type":"channel","event_ts":"1.000800","team":"T0TEST"}`), false},
	{"user's thread reply", envelope("8", `{"type":"message","user":"U0ALICE","text":"and the quickstart","ts":"1.000900","thread_ts":"1.000100","channel":"C0GENERAL","channel_type":"channel","event_ts":"1.000900","parent_user_id":"U0BOT"}`), false},
	{"user's message with a bot_profile attachment", envelope("9", `{"type":"message","user":"U0ALICE","text":"look","ts":"1.001000","channel":"C0GENERAL","channel_type":"channel","event_ts":"1.001000",`+
		`"attachments":[{"fallback":"x","bot_id":"B0BOT","bot_profile":{"id":"B0BOT","name":"docsbot"},"text":"quoted","from_url":"https://x"}],`+
		`"message":{"bot_id":"B0BOT","user":"U0BOT"}}`), false},
	{"user's message mentioning bot_message in its text", envelope("10", `{"type":"message","user":"U0ALICE","text":"\"subtype\":\"bot_message\" \"bot_id\":\"B1\"","ts":"1.001100","channel":"D0ALICE","channel_type":"im","event_ts":"1.001100"}`), false},
	{"user's file share", envelope("11", `{"type":"message","subtype":"file_share","user":"U0BOB","text":"the spec","files":[{"id":"F1","name":"spec.pdf"}],"ts":"1.001200","channel":"C0GENERAL","channel_type":"channel","event_ts":"1.001200"}`), false},
	{"user's thread_broadcast", envelope("12", `{"type":"message","subtype":"thread_broadcast","user":"U0BOB","text":"also here","ts":"1.001300","thread_ts":"1.000100","channel":"C0GENERAL","channel_type":"channel","event_ts":"1.001300"}`), false},
	{"app_mention by a user", envelope("13", `{"type":"app_mention","user":"U0ALICE","text":"<@U0BOT> hi","ts":"1.001400","channel":"C0GENERAL","event_ts":"1.001400"}`), false},
	{"app_mention by a bot", envelope("14", `{"type":"app_mention","user":"U0OTHERBOT","bot_id":"B0OTHER","text":"<@U0BOT> hi","ts":"1.001500","channel":"C0GENERAL","event_ts":"1.001500"}`), false},
	{"app_home_opened", envelope("15", `{"type":"app_home_opened","user":"U0ALICE","channel":"D0ALICE","tab":"home","event_ts":"1.001600"}`), false},
	{"slash command", `{"envelope_id":"16","type":"slash_commands","accepts_response_payload":true,"payload":{"command":"/docs-agent","text":"message \"events_api\"","user_id":"U0ALICE","channel_id":"C0GENERAL","trigger_id":"t1"}}`, false},
	{"interaction", `{"envelope_id":"17","type":"interactive","accepts_response_payload":false,"payload":{"type":"block_actions","user":{"id":"U0ALICE"},"trigger_id":"t2","actions":[{"action_id":"message","value":"events_api"}]}}`, false},
	{"hello", `{"type":"hello","num_connections":1,"debug_info":{"host":"x"},"connection_info":{"app_id":"A0DOCSBOT"}}`, false},
	{"not JSON", `{"type":"events_api","message"`, false},
}

// parseLikeSlackGo parses an envelope the way slack-go's Socket Mode client
// does (socketmode's parseEvent for events_api).
func parseLikeSlackGo(t *testing.T, raw []byte) (*socketmode.Request, *slackevents.EventsAPIEvent) {
	t.Helper()
	var req socketmode.Request
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, nil
	}
	if req.Type != socketmode.RequestTypeEventsAPI {
		return &req, nil
	}
	ev, err := slackevents.ParseEvent(req.Payload, slackevents.OptionNoVerifyToken())
	if err != nil {
		t.Fatalf("slack-go cannot parse the envelope: %v\n%s", err, raw)
	}
	return &req, &ev
}

// TestShrinkOwnEchoAgreesWithTheFullDecision proves the pre-filter shrinks
// exactly the message events the full path drops as the bot's or another
// bot's (IsOwnOrBot on slack-go's full parse), and that on what it shrinks
// slack-go's parse and IsOwnOrBot decide the same, with the fields the
// handlers read unchanged.
func TestShrinkOwnEchoAgreesWithTheFullDecision(t *testing.T) {
	t.Parallel()
	b := &Bot{self: Identity{UserID: echoSelf}}
	for _, tc := range echoEnvelopes {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			raw := []byte(tc.raw)
			req, full := parseLikeSlackGo(t, raw)
			fullDrop := false
			var msg *slackevents.MessageEvent
			if full != nil {
				msg, _ = full.InnerEvent.Data.(*slackevents.MessageEvent)
				fullDrop = msg != nil && b.IsOwnOrBot(msg)
			}
			if fullDrop != tc.drop {
				t.Fatalf("the full path drops it: %v; the table says %v", fullDrop, tc.drop)
			}
			small := shrinkOwnEcho(raw, echoSelf)
			if (small != nil) != fullDrop {
				t.Fatalf("pre-filter shrinks it: %v; the full path drops it: %v", small != nil, fullDrop)
			}
			if small == nil {
				return
			}
			sreq, sfull := parseLikeSlackGo(t, small)
			if sreq == nil || sfull == nil {
				t.Fatalf("slack-go does not read the shrunk envelope as an event:\n%s", small)
			}
			smsg, ok := sfull.InnerEvent.Data.(*slackevents.MessageEvent)
			if !ok {
				t.Fatalf("the shrunk envelope is no message event (%T):\n%s", sfull.InnerEvent.Data, small)
			}
			if !b.IsOwnOrBot(smsg) {
				t.Errorf("IsOwnOrBot does not hold for the shrunk event:\n%s", small)
			}
			if sreq.EnvelopeID != req.EnvelopeID || sreq.RetryAttempt != req.RetryAttempt || sreq.RetryReason != req.RetryReason ||
				sreq.AcceptsResponsePayload != req.AcceptsResponsePayload {
				t.Errorf("request %+v, want %+v", sreq, req)
			}
			if eventID(*sfull) != eventID(*full) || sfull.TeamID != full.TeamID || sfull.APIAppID != full.APIAppID || sfull.InnerEvent.Type != full.InnerEvent.Type {
				t.Errorf("event id %q team %q app %q type %q; want %q %q %q %q", eventID(*sfull), sfull.TeamID, sfull.APIAppID, sfull.InnerEvent.Type,
					eventID(*full), full.TeamID, full.APIAppID, full.InnerEvent.Type)
			}
			type fields struct{ Type, SubType, User, BotID, Channel, ChannelType, TS, EventTS string }
			got := fields{smsg.Type, smsg.SubType, smsg.User, smsg.BotID, smsg.Channel, smsg.ChannelType, smsg.TimeStamp, smsg.EventTimeStamp}
			want := fields{msg.Type, msg.SubType, msg.User, msg.BotID, msg.Channel, msg.ChannelType, msg.TimeStamp, msg.EventTimeStamp}
			if got != want {
				t.Errorf("shrunk event %+v, want %+v", got, want)
			}
			if len(small) >= len(raw) {
				t.Errorf("shrunk envelope of %d bytes from %d", len(small), len(raw))
			}
		})
	}
}

// chunked is a connection whose reads return at most n bytes of data, then
// io.EOF.
type chunked struct {
	net.Conn
	data []byte
	n    int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), c.n, len(c.data))
	copy(p, c.data[:k])
	c.data = c.data[k:]
	return k, nil
}

// serverFrame is a server's frame: the first byte (FIN, RSV, opcode) given,
// unmasked.
func serverFrame(b0 byte, payload []byte) []byte {
	f := textFrame(payload)
	f[0] = b0
	return f
}

// TestEchoConnShrinksOnlyWholeTextFrames reads an upgrade response and
// frames through echoConn in small pieces: the bot's echo comes out shrunk,
// every other frame (a user's message, a fragmented message, a ping, a
// binary frame, frames of each length encoding) as it went in.
func TestEchoConnShrinksOnlyWholeTextFrames(t *testing.T) {
	t.Parallel()
	own := []byte(echoEnvelopes[0].raw)
	user := []byte(echoEnvelopes[6].raw)
	long := bytes.Repeat([]byte("x"), 70000) // a 64-bit length
	upgrade := []byte("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: abc\r\n\r\n")
	var in, want bytes.Buffer
	in.Write(upgrade)
	want.Write(upgrade)
	for _, f := range [][]byte{
		serverFrame(0x81, user),         // a user's message: as it is
		serverFrame(0x01, own[:100]),    // an echo in fragments: as it is
		serverFrame(0x80, own[100:]),    // its continuation
		serverFrame(0x89, []byte("hi")), // a ping
		serverFrame(0x82, own),          // binary
		serverFrame(0x81, long),         // a long text frame, not JSON
	} {
		in.Write(f)
		want.Write(f)
	}
	in.Write(serverFrame(0x81, own)) // the bot's echo: shrunk
	want.Write(textFrame(shrinkOwnEcho(own, echoSelf)))
	for _, n := range []int{1, 7, 1 << 20} {
		c := &echoConn{Conn: &chunked{data: bytes.Clone(in.Bytes()), n: n}, self: func() string { return echoSelf }}
		got, err := io.ReadAll(c)
		if err != nil && !errors.Is(err, io.EOF) {
			t.Fatalf("reads of %d: %v", n, err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("reads of %d bytes: %d bytes out, want %d", n, len(got), want.Len())
		}
	}
}
