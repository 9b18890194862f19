package sandbox

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
)

// TestSandboxHelpChannel: the sandbox's #help answers a question without a
// mention, in its thread, with its sources and Ask an expert (the docs
// team); chatter there gets nothing.
func TestSandboxHelpChannel(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	p.send(helpChannel, "good morning everyone, the coffee is ready", "")
	q := p.send(helpChannel, "How do I rotate an API key?", "")
	p.waitFor("the answer in the question's thread", func(st slackweb.State) bool {
		for _, m := range channel(st, helpChannel).Messages {
			if m.TS != q.TS {
				continue
			}
			for _, r := range m.Replies {
				if r.BotID != "" && !r.Streaming && strings.Contains(string(r.Blocks), "Sources:") &&
					strings.Contains(string(r.Blocks), "Ask an expert") {
					return true
				}
			}
		}
		return false
	})
	for _, m := range channel(p.state(), helpChannel).Messages {
		if m.TS != q.TS && m.ReplyCount > 0 {
			t.Errorf("chatter in #help got replies: %+v", m)
		}
	}
}
