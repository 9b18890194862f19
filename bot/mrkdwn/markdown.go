package mrkdwn

import (
	"net/url"
	"regexp"
	"strings"
)

// FromMarkdown turns markdown from the docs assistant into Slack mrkdwn,
// escaped like any text from the API: fenced code blocks and inline code
// stay code, links become Slack links (a path relative to site, the public
// docs site, is resolved against it; a link that is not http(s) stays
// inert text), **bold** and __bold__ become *bold*, headings bold lines,
// "- " and "* " list items bullets. Everything else is escaped, so the
// answer pings nobody and forges no link. site may be nil: relative links
// then stay inert.
//
// It reads line by line, as Slack shows them; markup it does not know is
// shown as typed (escaped), never dropped.
func FromMarkdown(md string, site *url.URL) string {
	var out []string
	inFence := false
	for _, line := range strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			// Slack's code blocks take no language tag.
			inFence = !inFence
			out = append(out, "```")
			continue
		}
		if inFence {
			out = append(out, Escape(line))
			continue
		}
		out = append(out, markdownLine(line, site))
	}
	if inFence {
		out = append(out, "```") // an answer cut inside a code block
	}
	return strings.Join(out, "\n")
}

// heading matches a markdown heading: its level marks and its text.
var heading = regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$`)

// bullet matches a list item's marker and indentation.
var bullet = regexp.MustCompile(`^(\s*)[-*+]\s+`)

// markdownLine converts one line outside code blocks.
func markdownLine(line string, site *url.URL) string {
	if m := heading.FindStringSubmatch(line); m != nil {
		return "*" + strings.Trim(inline(m[1], site), "*") + "*"
	}
	if m := bullet.FindStringSubmatchIndex(line); m != nil {
		indent := line[m[2]:m[3]]
		return indent + "• " + inline(line[m[1]:], site)
	}
	return inline(line, site)
}

// inlineToken finds, left to right: inline code, an image or link, bold.
var inlineToken = regexp.MustCompile("`[^`]+`" + `|!?\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|\*\*([^*]+)\*\*|__([^_]+)__`)

// inline converts the inline markup of text, escaping the rest.
func inline(text string, site *url.URL) string {
	var b strings.Builder
	last := 0
	for _, m := range inlineToken.FindAllStringSubmatchIndex(text, -1) {
		b.WriteString(Escape(text[last:m[0]]))
		tok := text[m[0]:m[1]]
		switch {
		case strings.HasPrefix(tok, "`"):
			b.WriteString("`" + Escape(strings.Trim(tok, "`")) + "`")
		case m[2] >= 0: // a link or an image
			label, target := text[m[2]:m[3]], text[m[4]:m[5]]
			b.WriteString(linkTo(target, label, site))
		case m[6] >= 0:
			b.WriteString("*" + Escape(text[m[6]:m[7]]) + "*")
		case m[8] >= 0:
			b.WriteString("*" + Escape(text[m[8]:m[9]]) + "*")
		}
		last = m[1]
	}
	b.WriteString(Escape(text[last:]))
	return b.String()
}

// linkTo is a Slack link to target labelled label: a relative target is
// resolved against site; one that is not http(s) stays inert text.
func linkTo(target, label string, site *url.URL) string {
	if u, err := url.Parse(target); err == nil && !u.IsAbs() && site != nil && u.Host == "" {
		target = site.ResolveReference(u).String()
	}
	if strings.TrimSpace(label) == "" {
		label = target
	}
	return Link(target, label)
}

// zwsp is the zero-width space Defuse puts after a '<' that could open
// Slack markup.
const zwsp = "\u200b"

// Defuse makes markdown from the API safe in a streamed message's
// markdown_text, which Slack renders as markdown (code included, so
// entities would show as typed): every '<' that could open Slack's markup
// (<!here>, <@U…>, <#C…>, <https://…|forged>) gets a zero-width space after
// it, so that it pings nobody and forges no link, while the text reads the
// same. Apply it to the whole text, or to pieces of it none of which ends
// with a '<' (the character after it decides).
func Defuse(md string) string {
	if !strings.Contains(md, "<") {
		return md
	}
	var b strings.Builder
	b.Grow(len(md) + 8)
	for i := 0; i < len(md); i++ {
		b.WriteByte(md[i])
		if md[i] == '<' && i+1 < len(md) && opensMarkup(md[i+1]) {
			b.WriteString(zwsp)
		}
	}
	return b.String()
}

// opensMarkup reports whether c after a '<' may begin Slack markup: a
// special mention, a user, channel or group mention, or a URL.
func opensMarkup(c byte) bool {
	switch c {
	case '!', '@', '#':
		return true
	}
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
