package mrkdwn

import (
	"regexp"
	"strings"
)

// What Slack is assumed to make a link of, in mrkdwn and in a streamed
// message's markdown_text alike: markup (<https://…|label>, which Escape
// and Defuse disarm), markdown links and images ([label](url)), and bare
// addresses that begin with a scheme (https://, http://, ftp://) or
// "www.". Slack's linking of bare host names ("evil.example/login") in bot
// messages is not documented; docsbot assumes it does not link them, as
// it does not in the messages seen so far.
//
// An address that may not be a link (Sites.Allows) is disarmed: a
// zero-width space after its scheme's ':' and after a "www", so that no
// linker finds a scheme or a "www." in it, while it reads the same, host
// first. Outside code it is also put in code (Inert), so that it shows as
// an address to look at, not to follow. Inside code it is only disarmed:
// whether Slack links addresses in code is not documented either.

// bareURL finds the addresses a linker would find in text.
var bareURL = regexp.MustCompile("(?i)(?:\\b(?:https?|ftp)://|\\bwww\\.)[^\\s<>\"`]+")

// urlsIn returns the byte ranges of the addresses in text, without the
// punctuation that ends a sentence around them.
func urlsIn(text string) [][2]int {
	var out [][2]int
	for _, m := range bareURL.FindAllStringIndex(text, -1) {
		end := m[1]
		for end > m[0] {
			c := text[end-1]
			if strings.IndexByte(".,;:!?'*_~", c) >= 0 ||
				(c == ')' && strings.Count(text[m[0]:end], "(") < strings.Count(text[m[0]:end], ")")) {
				end--
				continue
			}
			break
		}
		if end > m[0] {
			out = append(out, [2]int{m[0], end})
		}
	}
	return out
}

// Disarm is raw, an address, with a zero-width space after the ':' of
// every "://" ("https:\u200b//") and after every "www" a linker could start at,
// so that nothing links it and it reads the same.
func Disarm(raw string) string {
	raw = strings.ReplaceAll(raw, "://", ":"+zwsp+"//")
	if !strings.Contains(strings.ToLower(raw), "www.") {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		// a "www." a linker could start at: at the start, or after a
		// character that is not a letter or digit (inWord)
		if i+4 <= len(raw) && strings.EqualFold(raw[i:i+4], "www.") && (i == 0 || !inWord(raw[i-1])) {
			b.WriteString(raw[i:i+3] + zwsp)
			i += 2
			continue
		}
		b.WriteByte(raw[i])
	}
	return b.String()
}

// disarmURLs disarms every address in text that s does not allow, and
// every "://" and "www." outside the addresses it allows (what is left of
// an address cut short, or one that only escaping would complete).
func disarmURLs(text string, s Sites) string {
	var b strings.Builder
	last := 0
	for _, r := range urlsIn(text) {
		u := text[r[0]:r[1]]
		b.WriteString(Disarm(text[last:r[0]]))
		if s.Allows(u) {
			b.WriteString(u)
		} else {
			b.WriteString(Disarm(u))
		}
		last = r[1]
	}
	b.WriteString(Disarm(text[last:]))
	return b.String()
}

// Inert is raw, an address that may not be a link, as markdown code text:
// disarmed, cut to inertLinkMax characters (the host stays, at the start),
// without backticks of its own, no ']' that could close a link (unlink).
// It carries no escaping: mrkdwn escapes it (InertMrkdwn).
func Inert(raw string) string {
	return "`" + unlink(strings.ReplaceAll(Cut(Disarm(strings.TrimSpace(raw)), inertLinkMax), "`", "'")) + "`"
}

// InertMrkdwn is Inert for mrkdwn: the code text escaped.
func InertMrkdwn(raw string) string {
	return "`" + strings.ReplaceAll(Escape(Cut(Disarm(strings.TrimSpace(raw)), inertLinkMax)), "`", "'") + "`"
}

// A token of a line of markdown outside code blocks: plain text, inline
// code, a link or image, an autolink (<https://…>).
type tokenKind int

const (
	tokText tokenKind = iota
	tokCode
	tokLink
	tokAutolink
)

type token struct {
	kind tokenKind
	// text is the text (tokText), the whole span with its backticks
	// (tokCode), the label (tokLink) or the address (tokAutolink).
	text   string
	target string // tokLink
	image  bool   // tokLink: ![alt](src)
	start  int    // byte offsets in the line
	end    int
}

// linkAt matches a markdown link or image at the start of its input: its
// '!', label, target (in <> or bare, no parentheses or spaces) and an
// optional title.
var linkAt = regexp.MustCompile(`^(!?)\[([^\[\]\n]*)\]\(\s*<?([^()<>\s]+)>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)`)

// autolinkAt matches an autolink at the start of its input.
var autolinkAt = regexp.MustCompile(`(?i)^<((?:https?|ftp|mailto):[^<>\s]+|www\.[^<>\s]+)>`)

// tokenize cuts one line of markdown (outside code blocks) into tokens, in
// order, covering the line. A run of backticks opens inline code when the
// same run closes it later on the line; otherwise it is text.
func tokenize(line string) []token {
	var out []token
	textStart := 0
	emit := func(t token) {
		if t.start > textStart {
			out = append(out, token{kind: tokText, text: line[textStart:t.start], start: textStart, end: t.start})
		}
		out = append(out, t)
		textStart = t.end
	}
	for i := 0; i < len(line); {
		switch line[i] {
		case '`':
			n := backticks(line, i)
			if j := closingRun(line, i+n, n); j >= 0 {
				emit(token{kind: tokCode, text: line[i : j+n], start: i, end: j + n})
				i = j + n
				continue
			}
			i += n
			continue
		case '[', '!':
			if m := linkAt.FindStringSubmatchIndex(line[i:]); m != nil {
				emit(token{kind: tokLink, image: m[3] > m[2], text: line[i+m[4] : i+m[5]], target: line[i+m[6] : i+m[7]], start: i, end: i + m[1]})
				i += m[1]
				continue
			}
		case '<':
			if m := autolinkAt.FindStringSubmatchIndex(line[i:]); m != nil {
				emit(token{kind: tokAutolink, text: line[i+m[2] : i+m[3]], start: i, end: i + m[1]})
				i += m[1]
				continue
			}
		}
		i++
	}
	if textStart < len(line) {
		out = append(out, token{kind: tokText, text: line[textStart:], start: textStart, end: len(line)})
	}
	return out
}

// backticks is the length of the run of backticks at line[i].
func backticks(line string, i int) int {
	n := 0
	for i+n < len(line) && line[i+n] == '`' {
		n++
	}
	return n
}

// closingRun is where a run of exactly n backticks begins in line from
// byte from, or -1.
func closingRun(line string, from, n int) int {
	for j := from; j < len(line); {
		if line[j] != '`' {
			j++
			continue
		}
		m := backticks(line, j)
		if m == n {
			return j
		}
		j += m
	}
	return -1
}

// isFence reports whether line opens or closes a fenced code block.
func isFence(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}
