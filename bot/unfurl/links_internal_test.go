package unfurl

import (
	"testing"

	"github.com/docsbot/docsbot/bot/project"
)

// TestDocsPage: a link is a docs page of the project whose site it is on
// (host, and the site's path), with the page's path as escaped in the
// link; any other site, or scheme, is not.
func TestDocsPage(t *testing.T) {
	set, err := project.New(
		project.Project{Name: "docs", ID: "p1", APIKey: project.NewSecret("mint_a"), KeyFrom: "test", APIURL: "https://api.example.com",
			Assistant: project.Assistant{SiteURL: "https://docs.example.com/"}},
		project.Project{Name: "api", ID: "p2", APIKey: project.NewSecret("mint_b"), KeyFrom: "test", APIURL: "https://api.example.com",
			Assistant: project.Assistant{SiteURL: "https://example.com/api-docs"}},
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		url, project, path string
	}{
		{"https://docs.example.com/guides/webhooks", "docs", "/guides/webhooks"},
		{"https://DOCS.example.com/guides/webhooks/?x=1#y", "docs", "/guides/webhooks"},
		{"https://docs.example.com", "docs", "/"},
		{"https://docs.example.com/a%20b", "docs", "/a%20b"},
		{"https://example.com/api-docs/auth", "api", "/auth"},
		{"https://example.com/api-docsx/auth", "", ""},
		{"https://example.com/blog", "", ""},
		{"https://status.example.com/incidents", "", ""},
		{"ftp://docs.example.com/x", "", ""},
		{"not a url", "", ""},
	} {
		p, path, ok := docsPage(set, c.url)
		if ok != (c.project != "") || p.Name != c.project || path != c.path {
			t.Errorf("docsPage(%q) = %q, %q, %v; want %q, %q", c.url, p.Name, path, ok, c.project, c.path)
		}
	}
}
