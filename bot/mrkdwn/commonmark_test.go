package mrkdwn

import (
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// commonMark reads markdown as a CommonMark reader with GFM's autolinks
// (bare http://, https://, ftp:// and www. addresses, and e-mail
// addresses) does: what the markdown of a streamed message is taken to be.
var commonMark = goldmark.New(goldmark.WithExtensions(extension.Linkify))

// linkTargets are the targets of every link, image and autolink a
// CommonMark reader finds in md (inline or by a reference definition), as
// it follows them: backslash escapes and character references resolved.
// A bare e-mail address is no web site (mailto:) and is left out.
func linkTargets(md string) []string {
	src := []byte(md)
	doc := commonMark.Parser().Parse(text.NewReader(src))
	var out []string
	resolved := func(dest []byte) string {
		return string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(dest))))
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			out = append(out, resolved(n.Destination))
		case *ast.Image:
			out = append(out, resolved(n.Destination))
		case *ast.AutoLink:
			if n.AutoLinkType != ast.AutoLinkEmail {
				out = append(out, string(n.URL(src)))
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

// gfmAddress finds what a GFM linker reads as an address in text: from
// "http://", "https://" or "ftp://" (after any non-word character) or
// "www." (at the start, after a space or one of "*_~(") on to the next
// space or '<'.
var gfmAddress = regexp.MustCompile(`(?i)\b(?:https?|ftp)://[^\s<]+|(?:^|[\s*_~(])(www\.[^\s<]+)`)

// gfmAddresses are the addresses a GFM linker reads in the text of md as
// a CommonMark reader without autolinks parses it: in each run of text
// outside links, images, autolinks, code and HTML, and within or without
// emphasis (GFM's linker reads each text apart); each as gfmAddress finds
// it, less the punctuation that ends a sentence and a ')' that closes
// nothing in it.
func gfmAddresses(md string) []string {
	src := []byte(md)
	var plain strings.Builder
	_ = ast.Walk(goldmark.New().Parser().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.Text:
			if entering {
				plain.Write(n.Segment.Value(src))
				if n.SoftLineBreak() || n.HardLineBreak() {
					plain.WriteByte('\n')
				}
			}
		case *ast.Link, *ast.Image, *ast.AutoLink, *ast.CodeSpan, *ast.RawHTML:
			plain.WriteByte(' ')
			return ast.WalkSkipChildren, nil
		case *ast.Emphasis:
			plain.WriteByte(' ')
		default:
			if n.Type() == ast.TypeBlock {
				plain.WriteByte('\n')
			}
		}
		return ast.WalkContinue, nil
	})
	var out []string
	t := plain.String()
	for _, m := range gfmAddress.FindAllStringSubmatchIndex(t, -1) {
		u := t[m[0]:m[1]]
		if m[2] >= 0 {
			u = t[m[2]:m[3]]
		}
		out = append(out, readOn("", u))
	}
	return out
}

// wantLinksAllowed fails when a CommonMark reader finds in out, what
// Markdown made of in, a link whose target docs does not allow, or a GFM
// linker, reading on past where docsbot ends an address, an address docs
// does not allow.
func wantLinksAllowed(t *testing.T, what, in, out string) {
	t.Helper()
	for _, target := range linkTargets(out) {
		if !docs.Allows(target) {
			t.Fatalf("%s of %q = %q links to %q", what, in, out, target)
		}
	}
	for _, u := range gfmAddresses(out) {
		if !docs.Allows(u) {
			t.Fatalf("%s of %q = %q: a GFM linker links %q", what, in, out, u)
		}
	}
}

// phishing are answers that dress a link to another site as a link to the
// docs: an allowed address whose path holds markdown that ends it and
// opens a link elsewhere, by brackets, parentheses, backticks, angle
// brackets, spaces, escapes and encoded forms, nested links, a reference
// definition, and a host Go reads one way and markdown another.
var phishing = []string{
	"<https://docs.example.com/sso](https://evil.example/login)>",
	"See <https://docs.example.com/sso](https://evil.example/login)> now.",
	"See https://docs.example.com/sso](https://evil.example/login) now.",
	"[Docs https://docs.example.com/a](https://evil.example/(login))",
	"[SSO](https://docs.example.com/sso](https://evil.example/login)",
	"[SSO](https://docs.example.com/a[b]c)",
	"[[Docs](https://docs.example.com/x)](https://evil.example/)",
	"![[a](https://docs.example.com/i.png)](https://evil.example/)",
	"<https://docs.example.com/x`](https://evil.example)`>",
	"[a`](https://docs.example.com/x) `[b](https://evil.example/)`",
	"`<https://docs.example.com/x` [b](https://evil.example/) `>`",
	"<https://docs.example.com/a<b>(https://evil.example)>",
	"[a](<https://docs.example.com/a b>)(https://evil.example)",
	"[a](https://docs.example.com/x \"t\") (https://evil.example)",
	"[a](https://docs.example.com/\\](https://evil.example/\\))",
	"<https://docs.example.com/&rsqb;&lpar;https://evil.example/&rpar;>",
	"[a](https://docs.example.com/%5D%28https://evil.example%29)",
	"[a](https://docs.example.com/&#x5D;&#x28;https://evil.example&#x29;)",
	"https://evil.example&sol;.example.org/login and [x](https://evil.example&sol;.example.org/)",
	"[docs]: https://evil.example/login\n\nSee [docs].",
	"[docs]: /guides/keys\n\nSee [docs] and [docs][].",
	"<https://docs.example.com/x>](https://evil.example/)",
	"[a](https://docs.example.com/x)](https://evil.example/)",
	"https://docs.example.com>@evil.example/login",
	"https://docs.example.com![.evil.example/login](https://x.invalid/)",
	"See https://docs.example.com/x>y and 'https://docs.example.com'.",
	"\\`https://docs.example.com`>@evil.example",
	"\\`[a](https://evil.example/)`",
	"x `y\n`[a](https://evil.example/)`",
	"- ```\n  [a](https://evil.example/)\n  ```\n[b](https://evil.example/)\n```",
	"````\n```\n[a](https://evil.example/)\n````\n[b](https://evil.example/)",
	"[x][(/a)](https://evil.example/)",
	"Go to _www.evil.example_ or _https://evil.example/login_ now",
	"See https://phish.coM.example.org/login and [x](https://phish.coM.example.org/) or `https://phish.coM.example.org`",
}

// TestMarkdownLinksOnlyToTheSites: whatever an answer's markdown holds,
// every link a CommonMark reader finds in what Markdown makes of it goes
// to an allowed site, and the allowed links stay links.
func TestMarkdownLinksOnlyToTheSites(t *testing.T) {
	t.Parallel()
	for _, md := range phishing {
		wantLinksAllowed(t, "Markdown", md, Markdown(md, 0, len(md), docs))
	}
	tests := []struct{ md, want string }{
		{"<https://docs.example.com/sso](https://evil.example/login)>", "https://docs.example.com/sso%5D%28https://evil.example/login%29"},
		{"[SSO](https://docs.example.com/a[b]c)", "https://docs.example.com/a%5Bb%5Dc"},
		{"See https://docs.example.com/a_(b) now", "https://docs.example.com/a_%28b%29"},
		{"[Keys](https://docs.example.com/k?a=1&b=2)", "https://docs.example.com/k?a=1&b=2"},
		{"[Keys](https://docs.example.com/k?a=1&amp;b=2)", "https://docs.example.com/k?a=1%26amp;b=2"},
	}
	for _, tt := range tests {
		out := Markdown(tt.md, 0, len(tt.md), docs)
		if got := linkTargets(out); len(got) != 1 || got[0] != tt.want {
			t.Errorf("Markdown(%q) = %q links to %q, want %q alone", tt.md, out, got, tt.want)
		}
	}
}
