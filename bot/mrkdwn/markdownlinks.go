package mrkdwn

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// What keeps every link of the markdown of a streamed answer docsbot's
// own, to an address the sites allow, whatever markdown reader Slack
// runs:
//
//   - an address written as markdown (a link's target, an autolink made a
//     link, a bare address) holds nothing that could end it early or open
//     markup within it (MarkdownURL): "<https://docs.example.com/sso](https://evil.example/login)>"
//     is one address on the docs site, not a link that reads like the
//     docs and goes elsewhere;
//   - no ']' outside docsbot's own links is followed by what makes a link
//     of it (unlink): the assistant's text, code and the addresses shown
//     make no link however a reader pairs their brackets and backticks;
//   - a bare address that a linker would read on past its end into an
//     address the sites do not allow (readsOn: "https://docs.example.com"
//     then ">@evil.example", or a label ".evil.example" written after it)
//     is written as a link whose end is explicit, or disarmed in code.

// markdownURLBytes are the characters percent-encoded in an address
// written as markdown (MarkdownURL).
const markdownURLBytes = "()[]<>`\\\" "

// entityAt matches a character reference at the start of its input
// ("&amp;", "&#64;"): markdown would read it as the character it names.
var entityAt = regexp.MustCompile(`^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});`)

// MarkdownURL is raw, an address that may be a link (Sites.Allows), as
// markdown writes it, a link's target or label or bare: its scheme and
// host in lower case (lowerHost), its parentheses, brackets, angle
// brackets, backticks, backslashes, quotes and spaces percent-encoded,
// and so is an '&' that begins a character reference, so that no markdown
// reader ends the address early, opens a link, code or markup within it,
// or reads it as another address. Any other '%' is kept: the address
// means what it meant.
func MarkdownURL(raw string) string {
	raw = lowerHost(raw)
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if strings.IndexByte(markdownURLBytes, c) >= 0 || c == '&' && entityAt.MatchString(raw[i:]) {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// lowerHost is u, an absolute address, with its scheme and host (up to
// the path, query or fragment) in lower case, as they mean the same: a
// linker may end a host where a letter of upper case follows a dot
// (goldmark's reads "https://phish.coM.example.org" as "https://phish.co").
func lowerHost(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	end := len(u)
	if j := strings.IndexAny(u[i+3:], "/?#"); j >= 0 {
		end = i + 3 + j
	}
	return strings.ToLower(u[:end]) + u[end:]
}

// ownLink is docsbot's own markdown link to u, an address the sites allow,
// that reads as the address.
func ownLink(u string) string {
	u = MarkdownURL(u)
	return "[" + u + "](" + u + ")"
}

// unlinkAfter reports whether c after a ']' makes a link of what the
// bracket closes: an inline link's '(', a reference definition's ':'.
func unlinkAfter(c byte) bool { return c == '(' || c == ':' }

// unlink is markdown that is not docsbot's own link (text, code, an
// address shown) with a zero-width space after every ']' followed by what
// would make a link of it (unlinkAfter), so that it reads the same and
// links nowhere: "[Docs](evil)" split by code or a stray backtick, or a
// reference definition "[docs]: evil". In code too: a reader may not see
// code where docsbot does (a backtick escaped, a code span over two lines,
// a fence in a list).
func unlink(md string) string {
	if !strings.Contains(md, "]") {
		return md
	}
	var b strings.Builder
	for i := 0; i < len(md); i++ {
		b.WriteByte(md[i])
		if md[i] == ']' && i+1 < len(md) && unlinkAfter(md[i+1]) {
			b.WriteString(zwsp)
		}
	}
	return b.String()
}

// part is a part of a line of markdown as Markdown writes it: docsbot's
// own link (own), or text that must link nowhere.
type part struct {
	text string
	own  bool
}

// unlinked joins parts: the own ones as they are, the others unlinked,
// within a part and across two (a ']' that ends one, a '(' that begins the
// next).
func unlinked(parts []part) string {
	var b strings.Builder
	bracket := false // the last part written was not own and ended with ']'
	for _, p := range parts {
		if p.own {
			b.WriteString(p.text)
			bracket = false
			continue
		}
		if bracket && p.text != "" && unlinkAfter(p.text[0]) {
			b.WriteString(zwsp)
		}
		b.WriteString(unlink(p.text))
		if p.text != "" {
			bracket = strings.HasSuffix(p.text, "]")
		}
	}
	return b.String()
}

// readOn is what a linker that reads an address on past where docsbot
// ends it takes of tail, the text after it: GFM's autolinks go on to the
// next space or '<', less the punctuation that ends a sentence and a ')'
// that closes nothing in the address.
func readOn(u, tail string) string {
	if i := strings.IndexFunc(tail, func(r rune) bool { return unicode.IsSpace(r) || r == '<' }); i >= 0 {
		tail = tail[:i]
	}
	for tail != "" {
		c := tail[len(tail)-1]
		if strings.IndexByte("?!.,:*_~", c) < 0 &&
			(c != ')' || strings.Count(u+tail, ")") <= strings.Count(u+tail, "(")) {
			break
		}
		tail = tail[:len(tail)-1]
	}
	return tail
}

// readsOn reports whether a linker that reads u, an address the sites
// allow, on into tail (readOn) may find an address that s does not allow,
// or on another host: u ends at its host ("https://docs.example.com"
// read on into ".evil.example" or ">@evil.example"), or u with what is
// read on is not an address s allows ("https://docs.example.com/x>y").
func readsOn(u, tail string, s Sites) bool {
	more := readOn(u, tail)
	if more == "" {
		return false
	}
	_, rest, _ := strings.Cut(u, "//")
	return !strings.ContainsAny(rest, "/?#") || !s.Allows(u+more)
}

// codeMarkdown is code (a code span with its backticks, or a line of a
// code block), followed by rest on its line, for markdown: its addresses
// disarmed but those s allows (their hosts in lower case, lowerHost), and
// those too where a linker would read on into another (readsOn), since a
// reader may not see the code.
func codeMarkdown(code, rest string, s Sites) string {
	var b strings.Builder
	last := 0
	for _, r := range urlsIn(code) {
		b.WriteString(Disarm(code[last:r[0]]))
		if u := code[r[0]:r[1]]; s.Allows(u) && !readsOn(u, code[r[1]:]+rest, s) {
			b.WriteString(lowerHost(u))
		} else {
			b.WriteString(Disarm(u))
		}
		last = r[1]
	}
	b.WriteString(Disarm(code[last:]))
	return b.String()
}
