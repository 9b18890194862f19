package sandbox

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
)

// TestSandboxAnswersMatchQuestions: a question asked in the sandbox's #help
// is answered from the made-up docs' page its words name: one about
// authentication, SSO or logging in from the authentication page, not the
// rate limits page that shares its "API" and "requests".
func TestSandboxAnswersMatchQuestions(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	tests := []struct{ question, want string }{
		{"How do I authenticate API requests?", "According to Authentication"},
		{"Which token do I send with each API request?", "According to Authentication"},
		{"How do I log in with SSO?", "According to Authentication"},
		{"How many requests can I send per hour?", "According to Rate limits"},
		{"How do I set up a custom domain with DNS?", "According to Custom domains"},
	}
	for _, tt := range tests {
		q := p.send(helpChannel, tt.question, "")
		p.waitFor("the answer to "+tt.question, func(st slackweb.State) bool {
			for _, m := range channel(st, helpChannel).Messages {
				if m.TS != q.TS {
					continue
				}
				for _, r := range m.Replies {
					if r.BotID != "" && !r.Streaming && strings.Contains(r.Text+string(r.Blocks), "According to") {
						if !strings.Contains(r.Text+string(r.Blocks), tt.want) {
							t.Fatalf("%q was answered with %q, want %q", tt.question, r.Text, tt.want)
						}
						return true
					}
				}
			}
			return false
		})
	}
}
