package mrkdwn

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var site, _ = url.Parse("https://docs.example.com/")

// docs allows the docs site and the hosts under example.org.
var docs = NewSites(site, []string{"example.org"})

func TestFromMarkdown(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, md, want string }{
		{"plain", "Open Settings.", "Open Settings."},
		{"escaped", "Use <!channel> & <@U0BOB>", "Use &lt;!channel&gt; &amp; &lt;@U0BOB&gt;"},
		{"bold", "Set **API keys** or __tokens__", "Set *API keys* or *tokens*"},
		{"heading", "## Rotate a key", "*Rotate a key*"},
		{"bullets", "- one\n  * two", "• one\n  • two"},
		{"relative link", "See [Keys](/guides/keys).", "See <https://docs.example.com/guides/keys|Keys>."},
		{"allowed link", "[Status](https://status.example.org?a=1&b=2)", "<https://status.example.org?a=1&amp;b=2|Status>"},
		{"other site shown", "[Login](https://evil.example/login)", "Login `https:\u200b//evil.example/login`"},
		{"lookalike host shown", "[Docs](https://docs.example.com.evil.example/)", "Docs `https:\u200b//docs.example.com.evil.example/`"},
		{"user info shown", "[Docs](https://docs.example.com@evil.example/)", "Docs `https:\u200b//docs.example.com@evil.example/`"},
		{"image shown", "![logo](https://evil.example/a.png)", "logo `https:\u200b//evil.example/a.png`"},
		{"autolink shown", "see <https://evil.example/x>", "see `https:\u200b//evil.example/x`"},
		{"autolink allowed", "see <https://docs.example.com/x>", "see <https://docs.example.com/x|https://docs.example.com/x>"},
		{"bare address shown", "Go to https://evil.example/login.", "Go to `https:\u200b//evil.example/login`."},
		{"bare www shown", "Go to www.evil.example now", "Go to `www\u200b.evil.example` now"},
		{"bare allowed", "See https://docs.example.com/keys.", "See <https://docs.example.com/keys|https://docs.example.com/keys>."},
		{"address in code disarmed", "`curl https://evil.example/x`", "`curl https:\u200b//evil.example/x`"},
		{"not a link", "[run](javascript:alert(1))", "[run](javascript:alert(1))"},
		{"script target shown", "[run](javascript:alert)", "run `javascript:alert`"},
		{"bare here", "Tell @here and @Channel, not @everyone", "Tell @\u200bhere and @\u200bChannel, not @\u200beveryone"},
		{"inline code", "Call `rotate<key>` now", "Call `rotate&lt;key&gt;` now"},
		{"fence", "```bash\ncurl -H 'a<b'\n```", "```\ncurl -H 'a&lt;b'\n```"},
		{"cut fence closed", "```\nstill code", "```\nstill code\n```"},
		{"link label escaped", "[<!here>](/x)", "<https://docs.example.com/x|&lt;!here&gt;>"},
	}
	for _, tt := range tests {
		if got := FromMarkdown(tt.md, docs); got != tt.want {
			t.Errorf("%s: FromMarkdown(%q) =\n%q\nwant\n%q", tt.name, tt.md, got, tt.want)
		}
	}
	if got := FromMarkdown("[Keys](/guides/keys)", Sites{}); strings.Contains(got, "<") {
		t.Errorf("a relative link without a site = %q, want inert", got)
	}
}

// slackLink is the one markup FromMarkdown may write: a link to an http(s)
// URL with an escaped label.
var slackLink = regexp.MustCompile(`(?i)<(https?://[^<>|\s]+)\|[^<>]*>`)

// mdLink is a markdown link or image the stream may show: to an http(s)
// address.
var mdLink = regexp.MustCompile(`(?i)!?\[[^\[\]\n]*\]\((https?://[^()<>\s]+)\)`)

// pings finds a bare special mention that has not been defused.
var pings = regexp.MustCompile(`(?i)@(here|channel|everyone)`)

// wantNoForeignAddress fails when out holds an address a linker would find
// that docs does not allow.
func wantNoForeignAddress(t *testing.T, what, in, out string) {
	t.Helper()
	for _, r := range urlsIn(out) {
		if u := out[r[0]:r[1]]; !docs.Allows(u) {
			t.Fatalf("%s of %q = %q leaves the address %q linkable", what, in, out, u)
		}
	}
}

// FuzzFromMarkdown: whatever the assistant answers, the mrkdwn pings nobody
// and links only to the allowed sites: with its links to them taken out, no
// '<' or '>' is left, no address a linker would find, and no bare @here.
func FuzzFromMarkdown(f *testing.F) {
	for _, s := range []string{"", "**a**", "[x](/y)", "<!channel>", "```\n<@U1>\n```", "[<#C1>](https://e.com)", "`<!here>`",
		"[a](https://e.com/<!here>)", "# <@U1>", "- [x](mailto:a@b)", "__<!subteam^S1>__", "https://evil.example/x", "www.evil.example",
		"[a](https://docs.example.com/x) https://evil.example", "[https://evil.example](/x)", "`a\nhttps://e.com/x` b", "@here @channel"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		out := FromMarkdown(md, docs)
		for _, m := range slackLink.FindAllStringSubmatch(out, -1) {
			if !docs.Allows(strings.ReplaceAll(m[1], "&amp;", "&")) {
				t.Fatalf("FromMarkdown(%q) = %q links to %q", md, out, m[1])
			}
		}
		rest := slackLink.ReplaceAllString(out, "")
		if strings.ContainsAny(rest, "<>") {
			t.Fatalf("FromMarkdown(%q) = %q holds markup besides links to the docs", md, out)
		}
		if pings.MatchString(rest) {
			t.Fatalf("FromMarkdown(%q) = %q pings", md, out)
		}
		wantNoForeignAddress(t, "FromMarkdown", md, rest)
	})
}

// streamed is md shown as a streamed answer shows it: revealed in the
// steps of reveal (each a number of bytes), each step's pieces cut by
// NextCut at most max characters long while md may go on, then the rest
// with final; the pieces rendered by Markdown and joined.
func streamed(md string, reveal []byte, max int) string {
	var b strings.Builder
	sent, shown := 0, 0
	for _, step := range reveal {
		shown = min(len(md), shown+int(step))
		for !utf8.ValidString(md[:shown]) && shown < len(md) {
			shown++
		}
		for {
			end := NextCut(md[:shown], sent, max, false)
			if end <= sent {
				break
			}
			b.WriteString(Markdown(md[:shown], sent, end, docs))
			sent = end
		}
	}
	for sent < len(md) {
		end := NextCut(md, sent, max, true)
		b.WriteString(Markdown(md, sent, end, docs))
		sent = end
	}
	return b.String()
}

// FuzzMarkdownStream: however the answer arrives and is cut into pieces,
// what the stream shows pings nobody, opens no Slack markup and leaves no
// address a linker would find that the sites do not allow, and every link
// a CommonMark reader finds in it goes to an allowed site; every piece
// keeps within Slack's limit, and the whole text is shown.
func FuzzMarkdownStream(f *testing.F) {
	for _, s := range []string{"", "Ping <!here> now", "a <@U0BOB> b <!subteam^S1|team>", "tell @here and @channel", "[Login](https://evil.example/login)",
		"See [Keys](/keys) and https://evil.example/x.", "```\ncurl https://evil.example\n```\nhttps://docs.example.com/ok", "`a https://e.com b` c",
		"![img](https://evil.example/i.png)", "<https://evil.example>", "xx-https://evil.example/" + strings.Repeat("a", 50), "www.evil.example"} {
		f.Add(s, []byte{1, 3, 7, 200}, uint8(8))
	}
	for _, s := range phishing {
		f.Add(s, []byte{200}, uint8(63))
		f.Add(s, []byte{5, 9, 200}, uint8(12))
	}
	f.Fuzz(func(t *testing.T, md string, reveal []byte, max uint8) {
		if !utf8.ValidString(md) || len(md) > 1024 {
			return // an answer's pieces are thousands of characters: short inputs cut into short pieces stand for them
		}
		md = StripSentinel(md) // as the writer takes the assistant's text
		out := streamed(md, reveal, int(max%64)+1)
		for j := 0; j+1 < len(out); j++ {
			if out[j] == '<' && opensMarkup(out[j+1]) {
				t.Fatalf("the stream of %q shows %q: markup at %d", md, out, j)
			}
		}
		if pings.MatchString(out) {
			t.Fatalf("the stream of %q shows %q: it pings", md, out)
		}
		for _, m := range mdLink.FindAllStringSubmatch(out, -1) {
			if !docs.Allows(m[1]) {
				t.Fatalf("the stream of %q shows %q: a link to %q", md, out, m[1])
			}
		}
		wantNoForeignAddress(t, "the stream", md, mdLink.ReplaceAllString(out, ""))
		wantLinksAllowed(t, "the stream", md, out)
	})
}

// TestMarkdown: the streamed answer's markdown keeps links to the docs
// sites and shows the others as code, host first.
func TestMarkdown(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, md, want string }{
		{"plain", "Open **Settings**.", "Open **Settings**."},
		{"relative link", "See [Keys](/guides/keys).", "See [Keys](https://docs.example.com/guides/keys)."},
		{"relative image", "![diagram](/img/a.png)", "![diagram](https://docs.example.com/img/a.png)"},
		{"allowed subdomain", "[Status](https://status.example.org)", "[Status](https://status.example.org)"},
		{"other site shown", "[Login](https://evil.example/login)", "Login `https:\u200b//evil.example/login`"},
		{"image shown", "![x](https://evil.example/a.png)", "x `https:\u200b//evil.example/a.png`"},
		{"bare shown", "at https://evil.example/login.", "at `https:\u200b//evil.example/login`."},
		{"bare allowed", "at https://docs.example.com/x.", "at https://docs.example.com/x."},
		{"autolink shown", "<https://evil.example/x>", "`https:\u200b//evil.example/x`"},
		{"autolink allowed", "<https://docs.example.com/x>", "[https://docs.example.com/x](https://docs.example.com/x)"},
		{"code disarmed", "`curl https://evil.example/x`", "`curl https:\u200b//evil.example/x`"},
		{"fence disarmed", "```\ncurl https://evil.example/x\n```", "```\ncurl https:\u200b//evil.example/x\n```"},
		{"link in code unlinked", "`[a](/b)`", "`[a]\u200b(/b)`"},
		{"allowed address encoded", "<https://docs.example.com/sso](https://evil.example/login)>",
			"[https://docs.example.com/sso%5D%28https://evil.example/login%29](https://docs.example.com/sso%5D%28https://evil.example/login%29)"},
		{"address read on made a link", "https://docs.example.com>@evil.example", "[https://docs.example.com](https://docs.example.com)>@evil.example"},
		{"markup defused", "<!here> <@U1>", "<\u200b!here> <\u200b@U1>"},
		{"bare mention defused", "@here", "@\u200bhere"},
		{"label with an address", "[https://evil.example](/x)", "[`https:\u200b//evil.example`](https://docs.example.com/x)"},
	}
	for _, tt := range tests {
		if got := Markdown(tt.md, 0, len(tt.md), docs); got != tt.want {
			t.Errorf("%s: Markdown(%q) =\n%q\nwant\n%q", tt.name, tt.md, got, tt.want)
		}
	}
	if got := Markdown("[Keys](/k)", 0, 10, Sites{}); got != "Keys `/k`" {
		t.Errorf("a relative link without a site = %q", got)
	}
}

// TestNextCut: the one cutting rule of a streamed answer.
func TestNextCut(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		md    string
		from  int
		max   int
		final bool
		want  string // md[from:cut]
	}{
		{"whole text, final", "Ping <!here> now", 0, 100, true, "Ping <!here> now"},
		{"last word waits", "Ping <", 0, 100, false, "Ping "},
		{"a '<' not split from what follows", "Ping <!here> now and more", 0, 7, true, "Ping "},
		{"an @word not split", "Tell @here now", 0, 8, true, "Tell "},
		{"unclosed link waits", "See [the keys](/k", 0, 100, false, "See "},
		{"closed link shows", "See [the keys](/k) now", 0, 100, false, "See [the keys](/k) "},
		{"not inside a link", "See [the keys page](/k) now", 0, 16, true, "See "},
		{"unclosed code waits", "Run `make all", 0, 100, false, "Run "},
		{"not inside code", "Run `make all now` then", 0, 14, true, "Run "},
		{"literal bracket", "a [x] b c", 0, 100, false, "a [x] b "},
		{"fence line whole", "```bash\ncurl x\n", 0, 10, true, "```bash\n"},
		{"from the middle", "one two three", 4, 100, false, "two "},
		{"after a newline", "one\ntwo", 0, 100, false, "one\n"},
		{"long word cut", strings.Repeat("a", 20), 0, 8, true, strings.Repeat("a", 8)},
		{"long word waits while it may end", strings.Repeat("a", 6), 0, 8, false, ""},
		{"address not split from its scheme", "xx-https://evil.example/" + strings.Repeat("a", 20), 0, 10, true, "xx-"},
		{"'<' of a long word", strings.Repeat("a", 7) + "<!here>" + strings.Repeat("a", 20), 0, 8, true, strings.Repeat("a", 7)},
		{"@word of a long word", strings.Repeat("a", 7) + "-@here" + strings.Repeat("a", 20), 0, 10, true, strings.Repeat("a", 7) + "-"},
	}
	for _, tt := range tests {
		if got := NextCut(tt.md, tt.from, tt.max, tt.final); tt.md[tt.from:got] != tt.want {
			t.Errorf("%s: NextCut(%q, %d, %d, %v) cuts %q, want %q", tt.name, tt.md, tt.from, tt.max, tt.final, tt.md[tt.from:got], tt.want)
		}
	}
}

// FuzzDefuse: defused, no '<' is followed by what opens Slack markup and no
// bare @here is left, and the text reads the same once the zero-width
// spaces are taken out, whether it was defused whole or in two pieces cut
// anywhere but after a '<' or inside an @word.
func FuzzDefuse(f *testing.F) {
	for _, s := range []string{"", "a < b", "<!channel>", "x<@U1>", "<#C1|c>", "<https://e.com|docs>", "<<!here>", "1<2 && 3>2", "<", "@here", "a@Everyone"} {
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, s string, cut uint8) {
		i := int(cut) % (len(s) + 1)
		for moved := true; moved; {
			moved = false
			for i > 0 && s[i-1] == '<' {
				i, moved = i-1, true
			}
			if at := strings.LastIndexByte(s[:i], '@'); at >= 0 && i-at <= atWordMax {
				i, moved = at, true
			}
		}
		for _, out := range []string{Defuse(s), Defuse(s[:i]) + Defuse(s[i:])} {
			for j := 0; j+1 < len(out); j++ {
				if out[j] == '<' && opensMarkup(out[j+1]) {
					t.Fatalf("Defuse of %q (cut at %d) = %q leaves markup at %d", s, i, out, j)
				}
			}
			if pings.MatchString(out) {
				t.Fatalf("Defuse of %q (cut at %d) = %q pings", s, i, out)
			}
			if strings.ReplaceAll(out, zwsp, "") != strings.ReplaceAll(s, zwsp, "") {
				t.Fatalf("Defuse of %q (cut at %d) = %q reads differently", s, i, out)
			}
		}
	})
}

// TestSafeText: a title from the API shows its addresses as code unless
// allowed, and pings nobody.
func TestSafeText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Keys & tokens", "Keys &amp; tokens"},
		{"Go to https://evil.example/x", "Go to `https:\u200b//evil.example/x`"},
		{"See https://docs.example.com/x", "See <https://docs.example.com/x|https://docs.example.com/x>"},
		{"<!here> @here", "&lt;!here&gt; @\u200bhere"},
	}
	for _, tt := range tests {
		if got := SafeText(tt.in, docs); got != tt.want {
			t.Errorf("SafeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSites: which addresses may be links.
func TestSites(t *testing.T) {
	t.Parallel()
	tests := []struct {
		target, resolved string
		ok               bool
	}{
		{"/guides/keys", "https://docs.example.com/guides/keys", true},
		{"keys", "https://docs.example.com/keys", true},
		{"https://docs.example.com/x", "https://docs.example.com/x", true},
		{"https://DOCS.example.com./x", "https://DOCS.example.com./x", true},
		{"http://docs.example.com:8080/x", "http://docs.example.com:8080/x", true},
		{"https://sub.docs.example.com/x", "https://sub.docs.example.com/x", false}, // the site's host is exact
		{"https://example.org/a", "https://example.org/a", true},
		{"https://status.example.org/a", "https://status.example.org/a", true},
		{"https://badexample.org/a", "https://badexample.org/a", false},
		{"https://example.org.evil.example/a", "https://example.org.evil.example/a", false},
		{"https://docs.example.com@evil.example/", "https://docs.example.com@evil.example/", false},
		{"//evil.example/x", "//evil.example/x", false},
		{"javascript:alert(1)", "javascript:alert(1)", false},
		{"ftp://docs.example.com/x", "ftp://docs.example.com/x", false},
	}
	for _, tt := range tests {
		got, ok := docs.Resolve(tt.target)
		if got != tt.resolved || ok != tt.ok {
			t.Errorf("Resolve(%q) = %q, %v; want %q, %v", tt.target, got, ok, tt.resolved, tt.ok)
		}
	}
	if _, ok := (Sites{}).Resolve("/x"); ok {
		t.Error("the zero Sites allows a relative path")
	}
	for h, want := range map[string]bool{"example.com": true, "docs.example.com": true, "com": false, "https://example.com": false,
		"example.com/x": false, "example.com:443": false, "-x.com": false, "": false, "Example.COM.": true} {
		if ValidHost(h) != want {
			t.Errorf("ValidHost(%q) = %v, want %v", h, !want, want)
		}
	}
}
