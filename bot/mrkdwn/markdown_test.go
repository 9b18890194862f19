package mrkdwn

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var site, _ = url.Parse("https://docs.example.com/")

func TestFromMarkdown(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, md, want string }{
		{"plain", "Open Settings.", "Open Settings."},
		{"escaped", "Use <!channel> & <@U0BOB>", "Use &lt;!channel&gt; &amp; &lt;@U0BOB&gt;"},
		{"bold", "Set **API keys** or __tokens__", "Set *API keys* or *tokens*"},
		{"heading", "## Rotate a key", "*Rotate a key*"},
		{"bullets", "- one\n  * two", "• one\n  • two"},
		{"relative link", "See [Keys](/guides/keys).", "See <https://docs.example.com/guides/keys|Keys>."},
		{"absolute link", "[Status](https://status.example.com?a=1&b=2)", "<https://status.example.com?a=1&amp;b=2|Status>"},
		{"inert link", "[run](javascript:alert(1))", "`javascript:alert(1`)"},
		{"inline code", "Call `rotate<key>` now", "Call `rotate&lt;key&gt;` now"},
		{"fence", "```bash\ncurl -H 'a<b'\n```", "```\ncurl -H 'a&lt;b'\n```"},
		{"cut fence closed", "```\nstill code", "```\nstill code\n```"},
		{"link label escaped", "[<!here>](/x)", "<https://docs.example.com/x|&lt;!here&gt;>"},
	}
	for _, tt := range tests {
		if got := FromMarkdown(tt.md, site); got != tt.want {
			t.Errorf("%s: FromMarkdown(%q) =\n%q\nwant\n%q", tt.name, tt.md, got, tt.want)
		}
	}
	if got := FromMarkdown("[Keys](/guides/keys)", nil); strings.Contains(got, "<") {
		t.Errorf("a relative link without a site = %q, want inert", got)
	}
}

// slackLink is the one markup FromMarkdown may write: a link to an http(s)
// URL with an escaped label.
var slackLink = regexp.MustCompile(`<https?://[^<>|\s]+\|[^<>]*>`)

// FuzzFromMarkdown: whatever the assistant answers, the result pings nobody
// and links only to web pages: with its links taken out, no '<' or '>' is
// left.
func FuzzFromMarkdown(f *testing.F) {
	for _, s := range []string{"", "**a**", "[x](/y)", "<!channel>", "```\n<@U1>\n```", "[<#C1>](https://e.com)", "`<!here>`",
		"[a](https://e.com/<!here>)", "# <@U1>", "- [x](mailto:a@b)", "__<!subteam^S1>__"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		out := FromMarkdown(md, site)
		if rest := slackLink.ReplaceAllString(out, ""); strings.ContainsAny(rest, "<>") {
			t.Fatalf("FromMarkdown(%q) = %q holds markup besides web links", md, out)
		}
	})
}

// FuzzDefuse: defused, no '<' is followed by what opens Slack markup, and
// the text reads the same once the zero-width spaces are taken out, whether
// it was defused whole or in two pieces cut anywhere but after a '<'.
func FuzzDefuse(f *testing.F) {
	for _, s := range []string{"", "a < b", "<!channel>", "x<@U1>", "<#C1|c>", "<https://e.com|docs>", "<<!here>", "1<2 && 3>2", "<"} {
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, s string, cut uint8) {
		i := int(cut) % (len(s) + 1)
		for i > 0 && s[i-1] == '<' {
			i--
		}
		for _, out := range []string{Defuse(s), Defuse(s[:i]) + Defuse(s[i:])} {
			for j := 0; j+1 < len(out); j++ {
				if out[j] == '<' && opensMarkup(out[j+1]) {
					t.Fatalf("Defuse of %q (cut at %d) = %q leaves markup at %d", s, i, out, j)
				}
			}
			if strings.ReplaceAll(out, zwsp, "") != strings.ReplaceAll(s, zwsp, "") {
				t.Fatalf("Defuse of %q (cut at %d) = %q reads differently", s, i, out)
			}
		}
	})
}
