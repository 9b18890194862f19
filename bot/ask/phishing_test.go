package ask_test

import (
	"net/url"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// markdownLinks are the targets of the links, images and autolinks (bare
// addresses too, as GFM links them) that a CommonMark reader finds in md,
// as it follows them: backslash escapes and character references
// resolved. A bare e-mail address, no web site, is left out.
func markdownLinks(md string) []string {
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.Linkify)).Parser().Parse(text.NewReader(src))
	var out []string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			out = append(out, string(util.URLEscape(n.Destination, true)))
		case *ast.Image:
			out = append(out, string(util.URLEscape(n.Destination, true)))
		case *ast.AutoLink:
			if n.AutoLinkType != ast.AutoLinkEmail {
				out = append(out, string(n.URL(src)))
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

// TestAnswerLinksGoWhereTheyRead: an answer whose docs addresses hold
// markdown (one that ends the address and opens a link elsewhere, in an
// autolink, a link's target and a bare address) or a host that reads one
// way to Go and another to markdown streams links to the docs site and
// DOCSBOT_LINK_DOMAINS only, whatever its reader: the address stays one
// address on the docs site, encoded, and a host the sites do not allow
// shows as code.
func TestAnswerLinksGoWhereTheyRead(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Deltas: []string{
		"Sign in at <https://docs.example.com/sso](https://evil.example/login)>, ",
		"[the SSO page](https://docs.example.com/sso](https://evil.example/login) or ",
		"https://docs.example.com/sso](https://evil.example/(login)) to start. ",
		"The status is at https://evil.example&sol;.example.org/login.",
	}})
	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Ask: ask.Config{LinkDomains: []string{"example.org"}}}})
	m := h.answered(h.asked(alice, "How do I sign in?"))
	if !m.Streamed {
		t.Fatal("the answer was not streamed")
	}
	site, _ := url.Parse(bottest.SiteURL)
	sites := mrkdwn.NewSites(site, []string{"example.org"})
	links := markdownLinks(m.Text)
	for _, target := range links {
		if !sites.Allows(target) {
			t.Errorf("the streamed answer links to %q: %q", target, m.Text)
		}
	}
	if len(links) < 3 {
		t.Errorf("the streamed answer has %d links, want its 3 to the docs: %q", len(links), m.Text)
	}
	bottest.WantContains(t, "the streamed answer", m.Text,
		"[https://docs.example.com/sso%5D%28https://evil.example/login%29](https://docs.example.com/sso%5D%28https://evil.example/login%29)",
		"[the SSO page]\u200b(https://docs.example.com/sso%5D%28https://evil.example/login%29",
		"`https:\u200b//evil.example&sol;.example.org/login`")
}
