package bot

import (
	"encoding/json"
	"testing"

	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// BenchmarkEchoParse compares, for the echoes the bot receives for each job
// it starts (its root post, and the message_changed of its edit), what
// slack-go's Socket Mode client spends parsing the envelope as Slack sent
// it (full) with the pre-filter's look plus slack-go's parse of the shrunk
// envelope (shrunk).
func BenchmarkEchoParse(b *testing.B) {
	parse := func(b *testing.B, raw []byte) {
		var req socketmode.Request
		if err := json.Unmarshal(raw, &req); err != nil {
			b.Fatal(err)
		}
		if _, err := slackevents.ParseEvent(req.Payload, slackevents.OptionNoVerifyToken()); err != nil {
			b.Fatal(err)
		}
	}
	for _, i := range []int{0, 4} { // own message, message_changed of own post
		raw := []byte(echoEnvelopes[i].raw)
		b.Run(echoEnvelopes[i].name+"/full", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				parse(b, raw)
			}
		})
		b.Run(echoEnvelopes[i].name+"/shrunk", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				small := shrinkOwnEcho(raw, echoSelf)
				if small == nil {
					b.Fatal("not shrunk")
				}
				parse(b, small)
			}
		})
	}
}
