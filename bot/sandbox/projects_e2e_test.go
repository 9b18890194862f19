package sandbox

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
)

// TestSandboxServesTwoProjects: a job in #api-docs goes to the api
// project's test server, one in #general to the docs project's, and
// project=NAME chooses.
func TestSandboxServesTwoProjects(t *testing.T) {
	t.Parallel()
	sb := startTestSandbox(t, "")
	p := page{t: t, url: sb.url}
	tests := []struct{ channel, text, prompt string }{
		{apiChannel, "/docs-agent Document the endpoints", "Document the endpoints"},
		{"C0GENERAL", "/docs-agent Document the quickstart", "Document the quickstart"},
		{"C0GENERAL", "/docs-agent project=api Document the webhooks", "Document the webhooks"},
	}
	for _, tc := range tests {
		p.send(tc.channel, tc.text, "")
		// The root names the job once the API created it ("job `…`").
		p.waitFor("the job of "+tc.text, func(st slackweb.State) bool {
			m, ok := jobRoot(st, tc.channel, tc.prompt)
			return ok && strings.Contains(string(m.Blocks), "job `")
		})
	}
	prompts := func(jobs []string, srv interface{ Prompts(string) []string }) []string {
		var out []string
		for _, id := range jobs {
			out = append(out, srv.Prompts(id)...)
		}
		return out
	}
	var docsIDs, apiIDs []string
	for _, j := range sb.api.Jobs() {
		docsIDs = append(docsIDs, j.ID)
	}
	for _, j := range sb.apiDocs.Jobs() {
		apiIDs = append(apiIDs, j.ID)
	}
	if got := prompts(docsIDs, sb.api); len(got) != 1 || got[0] != "Document the quickstart" {
		t.Errorf("the docs project's server got %q, want the quickstart alone", got)
	}
	if got := prompts(apiIDs, sb.apiDocs); len(got) != 2 || got[0] != "Document the endpoints" || got[1] != "Document the webhooks" {
		t.Errorf("the api project's server got %q, want the endpoints and the webhooks", got)
	}
}
