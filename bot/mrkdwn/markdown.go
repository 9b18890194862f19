package mrkdwn

import (
	"cmp"
	"regexp"
	"strings"
	"unicode/utf8"
)

// FromMarkdown turns markdown from the docs assistant into Slack mrkdwn,
// escaped like any text from the API: fenced code blocks and inline code
// stay code, links to the sites of sites become Slack links (a path
// relative to the docs site is resolved against it), **bold** and __bold__
// become *bold*, headings bold lines, "- " and "* " list items bullets.
// Every other address (a link's target, an image's, an autolink, a bare
// address) is shown, never linked: its label, then the address as code,
// disarmed (Inert). Everything else is escaped, and @here, @channel and
// @everyone are disarmed (Defuse), so the answer pings nobody and forges
// no link.
//
// It reads line by line, as Slack shows them; markup it does not know is
// shown as typed (escaped), never dropped.
func FromMarkdown(md string, s Sites) string {
	var out []string
	inFence := false
	for _, line := range strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n") {
		if isFence(line) {
			// Slack's code blocks take no language tag.
			inFence = !inFence
			out = append(out, "```")
			continue
		}
		if inFence {
			out = append(out, Escape(disarmURLs(line, s)))
			continue
		}
		out = append(out, markdownLine(line, s))
	}
	if inFence {
		out = append(out, "```") // an answer cut inside a code block
	}
	return defuseMentions(strings.Join(out, "\n"))
}

// heading matches a markdown heading: its level marks and its text.
var heading = regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$`)

// bullet matches a list item's marker and indentation.
var bullet = regexp.MustCompile(`^(\s*)[-*+]\s+`)

// markdownLine converts one line outside code blocks.
func markdownLine(line string, s Sites) string {
	if m := heading.FindStringSubmatch(line); m != nil {
		return "*" + strings.Trim(inline(m[1], s), "*") + "*"
	}
	if m := bullet.FindStringSubmatchIndex(line); m != nil {
		indent := line[m[2]:m[3]]
		return indent + "• " + inline(line[m[1]:], s)
	}
	return inline(line, s)
}

// inline converts the inline markup of a line to mrkdwn, escaping the rest.
func inline(line string, s Sites) string {
	var b strings.Builder
	for _, t := range tokenize(line) {
		switch t.kind {
		case tokText:
			b.WriteString(textMrkdwn(t.text, s))
		case tokCode:
			b.WriteString("`" + Escape(disarmURLs(strings.Trim(t.text, "`"), s)) + "`")
		case tokLink:
			target, ok := s.Resolve(t.target)
			switch {
			case ok:
				b.WriteString(Link(target, disarmURLs(cmp.Or(strings.TrimSpace(t.text), target), s)))
			case strings.TrimSpace(t.text) == "" || strings.TrimSpace(t.text) == t.target:
				b.WriteString(InertMrkdwn(target))
			default:
				b.WriteString(textMrkdwn(t.text, s) + " " + InertMrkdwn(target))
			}
		case tokAutolink:
			if s.Allows(t.text) {
				b.WriteString(Link(t.text, t.text))
			} else {
				b.WriteString(InertMrkdwn(t.text))
			}
		}
	}
	return b.String()
}

// SafeText is plain text from the API (a page's title, a suggestion's
// label) for mrkdwn: escaped, addresses the sites allow linked, every other
// one disarmed and in code (InertMrkdwn), no bare @here.
func SafeText(text string, s Sites) string { return defuseMentions(textMrkdwn(text, s)) }

// bold finds **bold** and __bold__.
var bold = regexp.MustCompile(`\*\*([^*]+)\*\*|__([^_]+)__`)

// textMrkdwn converts plain markdown text: addresses the sites allow become
// links, others Inert; **bold** and __bold__ become *bold*; the rest is
// escaped.
func textMrkdwn(text string, s Sites) string {
	var b strings.Builder
	last := 0
	for _, r := range urlsIn(text) {
		b.WriteString(boldMrkdwn(Disarm(text[last:r[0]])))
		if u := text[r[0]:r[1]]; s.Allows(u) {
			b.WriteString(Link(u, u))
		} else {
			b.WriteString(InertMrkdwn(u))
		}
		last = r[1]
	}
	b.WriteString(boldMrkdwn(Disarm(text[last:])))
	return b.String()
}

// boldMrkdwn escapes text, with its **bold** and __bold__ as *bold*.
func boldMrkdwn(text string) string {
	var b strings.Builder
	last := 0
	for _, m := range bold.FindAllStringSubmatchIndex(text, -1) {
		b.WriteString(Escape(text[last:m[0]]))
		var inner string
		if m[2] >= 0 { // **bold**; else __bold__
			inner = text[m[2]:m[3]]
		} else {
			inner = text[m[4]:m[5]]
		}
		b.WriteString("*" + Escape(inner) + "*")
		last = m[1]
	}
	b.WriteString(Escape(text[last:]))
	return b.String()
}

// Markdown is the piece md[from:to] of markdown from the docs assistant,
// made safe for a streamed message's markdown_text (which Slack renders as
// markdown): links to the sites of s stay links (a relative docs path made
// absolute on the docs site, since Slack cannot follow a relative link),
// their addresses encoded (MarkdownURL); every other address is shown,
// never linked: a link's or image's label, then the address as code
// (Inert), a bare address as code, and an address in code disarmed in
// place; no other link is left to make (markdownlinks.go); then Defuse.
// The piece must be cut by NextCut, so that no link, inline code or
// address straddles its ends; what comes before it (md[:from]) says
// whether it starts in a code block. The pieces joined are what Markdown
// of the whole text would be.
func Markdown(md string, from, to int, s Sites) string {
	var b strings.Builder
	inFence := fenceOpenAt(md, from)
	open := addressGoesOn(md, to)
	for ls := lineStart(md, from); ls < to; {
		le := strings.IndexByte(md[ls:], '\n')
		if le < 0 {
			le = len(md)
		} else {
			le += ls
		}
		part, after := md[max(ls, from):min(le, to)], ""
		if le > to {
			after = md[to:le] // the line goes on in the next piece
		}
		if le > to && le == len(md) {
			after += sentinel // and may go on past md: what follows is not known
		}
		if open && le >= to {
			// An address goes on past the piece (a word longer than a
			// piece): what the piece holds of it is not the address
			// whole, so it may not be a link. The sentinel, which no
			// address may end with, makes it foreign, and goes.
			part += sentinel
		}
		switch {
		case isFence(md[ls:le]):
			inFence = !inFence
			b.WriteString(unlink(codeMarkdown(part, after, s)))
		case inFence:
			b.WriteString(unlink(codeMarkdown(part, after, s)))
		default:
			b.WriteString(markdownInline(part, after, s))
		}
		if le < to {
			b.WriteByte('\n')
		}
		ls = le + 1
	}
	out := strings.ReplaceAll(b.String(), sentinel, "")
	if to < len(md) && strings.HasSuffix(out, "]") {
		// The next piece may go on with what would close a link (a '(',
		// or a label shown that begins with one); docsbot's own links
		// end with ')'.
		out += zwsp
	}
	return Defuse(out)
}

// sentinel marks the end of a piece that cuts an address (Markdown): a
// character that Allows refuses in an address. The assistant's text holds
// none (StripSentinel).
const sentinel = "\x00"

// StripSentinel is text without the character Markdown uses as a marker:
// apply it to the assistant's text before it is cut into pieces.
func StripSentinel(text string) string { return strings.ReplaceAll(text, sentinel, "") }

// addressGoesOn reports whether an address a linker would find in md goes
// on across byte to.
func addressGoesOn(md string, to int) bool {
	if to <= 0 || to >= len(md) {
		return false
	}
	ws := strings.LastIndexAny(md[:to], " \t\n") + 1
	we := len(md)
	if i := strings.IndexAny(md[to:], " \t\n"); i >= 0 {
		we = to + i
	}
	for _, m := range bareURL.FindAllStringIndex(md[ws:we], -1) {
		if ws+m[0] < to && to < ws+m[1] {
			return true
		}
	}
	return false
}

// markdownInline is one line (or the part of one a piece holds) outside
// code blocks, its addresses made safe for markdown_text; after is what
// follows it on the line, in the next piece.
func markdownInline(line, after string, s Sites) string {
	var parts []part
	for _, t := range tokenize(line) {
		rest := line[t.end:] + after
		switch t.kind {
		case tokText:
			parts = append(parts, textMarkdown(t.text, rest, false, s)...)
		case tokCode:
			parts = append(parts, part{text: codeMarkdown(t.text, rest, s)})
		case tokLink:
			parts = append(parts, linkMarkdown(t, s))
		case tokAutolink:
			if s.Allows(t.text) {
				parts = append(parts, part{text: ownLink(t.text), own: true})
			} else {
				parts = append(parts, part{text: Inert(t.text)})
			}
		}
	}
	return unlinked(parts)
}

// linkMarkdown is a link or image of the assistant's markdown, t, for
// markdown_text: docsbot's own link when s allows its target, else its
// label and the target shown (Inert).
func linkMarkdown(t token, s Sites) part {
	target, ok := s.Resolve(t.target)
	label := unlinked(textMarkdown(t.text, "", true, s))
	switch {
	case ok && t.image:
		return part{text: "![" + label + "](" + MarkdownURL(target) + ")", own: true}
	case ok:
		return part{text: "[" + label + "](" + MarkdownURL(target) + ")", own: true}
	case strings.TrimSpace(t.text) == "" || strings.TrimSpace(t.text) == t.target:
		return part{text: Inert(target)}
	}
	return part{text: label + " " + Inert(target)}
}

// textMarkdown is plain markdown text, followed by rest on its line, with
// the addresses the sites allow encoded (MarkdownURL), or made links of
// their own where a linker would read on into another address (readsOn),
// and the others put in code (Inert). In a link's label (label; no linker
// reads on out of one, and rest is "") such an address is put in code
// too: a label holds no link.
func textMarkdown(text, rest string, label bool, s Sites) []part {
	var parts []part
	last := 0
	for _, r := range urlsIn(text) {
		parts = append(parts, part{text: Disarm(text[last:r[0]])})
		u := text[r[0]:r[1]]
		allowed := s.Allows(u)
		reads := allowed && readsOn(u, text[r[1]:]+rest, s)
		switch {
		case allowed && !reads:
			parts = append(parts, part{text: MarkdownURL(u)})
		case reads && !label:
			parts = append(parts, part{text: ownLink(u), own: true})
		default:
			parts = append(parts, part{text: Inert(u)})
		}
		last = r[1]
	}
	return append(parts, part{text: Disarm(text[last:])})
}

// lineStart is the byte offset of the start of the line holding md[i].
func lineStart(md string, i int) int { return strings.LastIndexByte(md[:i], '\n') + 1 }

// fenceOpenAt reports whether md[i] is inside a fenced code block, by the
// fence lines that end before the line holding it.
func fenceOpenAt(md string, i int) bool {
	open := false
	for _, line := range strings.Split(md[:lineStart(md, i)], "\n") {
		if isFence(line) {
			open = !open
		}
	}
	return open
}

// FenceOpen reports whether md ends inside a fenced code block (an answer
// cut there): what is added after it must close the block first.
func FenceOpen(md string) bool { return fenceOpenAt(md+"\n", len(md)+1) }

// zwsp is the zero-width space Defuse puts after a '<' that could open
// Slack markup, and after the '@' of @here, @channel and @everyone.
const zwsp = "\u200b"

// Defuse makes markdown from the API safe in a streamed message's
// markdown_text, which Slack renders as markdown (code included, so
// entities would show as typed): every '<' that could open Slack's markup
// (<!here>, <@U…>, <#C…>, <!subteam^S…>, <https://…|forged>) gets a
// zero-width space after it, so that it pings nobody and forges no link,
// while the text reads the same; and so does the '@' of a bare @here,
// @channel or @everyone (defuseMentions). Apply it to the whole text, or
// to pieces of it cut by NextCut (none ends with a '<' or inside an
// @word: the characters after them decide).
func Defuse(md string) string {
	if strings.Contains(md, "<") {
		var b strings.Builder
		b.Grow(len(md) + 8)
		for i := 0; i < len(md); i++ {
			b.WriteByte(md[i])
			if md[i] == '<' && i+1 < len(md) && opensMarkup(md[i+1]) {
				b.WriteString(zwsp)
			}
		}
		md = b.String()
	}
	return defuseMentions(md)
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

// specialMentions are the words that, after an '@', would notify a whole
// channel if Slack read them as mentions.
var specialMentions = []string{"here", "channel", "everyone"}

// atWordMax is the longest of specialMentions: a cut within that many
// letters after an '@' could split one.
const atWordMax = len("everyone")

// defuseMentions puts a zero-width space after the '@' of a bare @here,
// @channel or @everyone (in any case). Slack documents the special
// mentions as markup (<!here>), and a message posted without link_names
// (chat.postMessage, chat.update) does not link the bare words; whether
// the markdown of a streamed message (chat.startStream's markdown_text,
// which takes no link_names) does is not documented, so docsbot assumes it
// might, here and in mrkdwn alike.
func defuseMentions(s string) string {
	if !strings.Contains(s, "@") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if s[i] == '@' && specialAt(s[i+1:]) {
			b.WriteString(zwsp)
		}
	}
	return b.String()
}

// specialAt reports whether s begins with one of specialMentions.
func specialAt(s string) bool {
	for _, w := range specialMentions {
		if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) {
			return true
		}
	}
	return false
}

// NextCut is where the next piece of md that starts at byte from ends: the
// one cutting rule of a streamed answer, for the pieces shown as the text
// grows (final false: md may go on) and for the rest at its end (final
// true). A piece holds at most most characters and ends after a white
// space that is not inside a link or inline code, and not inside a line
// that opens or closes a code block, so that no markup, link, address or
// @word straddles two pieces and Markdown and Defuse see each whole. While
// md may go on, the last line may still close what it opened: a piece
// ends before an unclosed link or inline code there, and before the last
// word. With final, the end of md is a cut too.
//
// Only a word longer than a piece has no such cut: then md is cut at most
// characters, but not inside an address, after a '<' or inside an @word
// (a piece then holds a little more when the word begins with them); while
// md may go on and the word may end within most, NextCut returns from
// (nothing to show yet).
func NextCut(md string, from, most int, final bool) int {
	if from >= len(md) {
		return len(md)
	}
	limit := from // byte offset of most characters after from
	for n := 0; limit < len(md) && n < most; n++ {
		_, size := utf8.DecodeRuneInString(md[limit:])
		limit += size
	}
	if final && limit == len(md) {
		return len(md)
	}
	best := -1
	inFence := fenceOpenAt(md, from)
	for ls := lineStart(md, from); ls <= limit && ls < len(md); {
		le := strings.IndexByte(md[ls:], '\n')
		complete := le >= 0
		if complete {
			le += ls
		} else {
			le = len(md)
		}
		line := md[ls:le]
		for _, p := range cutsIn(line, inFence, complete || final) {
			if p += ls; p > from && p <= limit {
				best = p
			}
		}
		if isFence(line) && complete {
			inFence = !inFence
		}
		if complete && le+1 > from && le+1 <= limit {
			best = le + 1 // after the line's newline
		}
		if !complete {
			break
		}
		ls = le + 1
	}
	if best > from {
		return best
	}
	if !final && limit == len(md) {
		return from // the word may end within max: wait for it
	}
	return max(hardCut(md, from, limit, final), from)
}

// cutsIn are the offsets in line after which a piece may end (after a
// space or tab outside links and inline code); none in a fence line, and,
// when the line may go on (closed false), none after an unclosed link or
// inline code or within its last word.
func cutsIn(line string, inFence, closed bool) []int {
	if isFence(line) {
		return nil
	}
	end := len(line)
	var spans [][2]int
	if !inFence {
		for _, t := range tokenize(line) {
			if t.kind != tokText {
				spans = append(spans, [2]int{t.start, t.end})
			}
		}
		if !closed {
			end = min(end, openAt(line))
		}
	}
	var out []int
	for i, k := 0, 0; i < end; i++ {
		for k < len(spans) && spans[k][1] <= i {
			k++ // spans are in order
		}
		if (line[i] == ' ' || line[i] == '\t') && (k == len(spans) || i < spans[k][0]) {
			out = append(out, i+1)
		}
	}
	return out
}

// openAt is where the first markup in line that a later character may
// still close begins: a run of backticks not closed on the line, or a '['
// whose link is not whole yet; len(line) when there is none.
func openAt(line string) int {
	for _, t := range tokenize(line) {
		if t.kind != tokText {
			continue
		}
		for i := 0; i < len(t.text); i++ {
			switch t.text[i] {
			case '`':
				return t.start + i
			case '[':
				close := strings.IndexByte(t.text[i:], ']')
				if close < 0 || i+close+1 >= len(t.text) || t.text[i+close+1] == '(' {
					return t.start + i
				}
			}
		}
	}
	return len(line)
}

// hardCut cuts a word longer than a piece at limit, or before it: not
// inside an address (which would be split from its scheme), nor between
// an address's scheme (or "www.") and its first character, which may be
// still to come; not after a '<' or inside an @word. When the word begins
// with one of these and it does not fit, the piece holds it whole
// (atomEnd), a little over the limit.
func hardCut(md string, from, limit int, final bool) int {
	p := limit
	ws := max(strings.LastIndexAny(md[:p], " \t\n")+1, from)
	we := len(md)
	if i := strings.IndexAny(md[p:], " \t\n"); i >= 0 {
		we = p + i
	}
	for moved := true; moved && p > from; {
		before := p
		p = backOff(md, from, ws, we, p)
		moved = p != before
	}
	if p > from {
		return p
	}
	return extendTo(md, forward(md, atomEnd(md, from)), final)
}

// backOff moves the cut p of the word md[ws:we] back before what it would
// split: an address, a scheme and its first character, a '<' and what
// follows, an @word; p when it splits none. One step: hardCut repeats it
// until p stays.
func backOff(md string, from, ws, we, p int) int {
	for _, r := range urlsIn(md[ws:we]) {
		if s, e := ws+r[0], ws+r[1]; s < p && p < e && s > from {
			return s
		}
	}
	for q := max(ws, p-len("https://")); q < p; q++ {
		if partialOpener(md[q:p]) {
			return q // an address's scheme (or "www.") and its first character go together
		}
	}
	if md[p-1] == '<' {
		return p - 1
	}
	for k := p - 1; k >= from && k >= p-1-atWordMax; k-- {
		if md[k] == '@' {
			return k
		}
		if c := md[k]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			break
		}
	}
	return p
}

// forward moves the end p of a piece on until it splits nothing (what
// backOff looks for); each step takes in a whole atom (atomEnd). At the
// end of md too, which may go on: a piece that ends "https:/" ends past
// md (extendTo waits).
func forward(md string, p int) int {
	for p <= len(md) {
		next := p
		switch {
		case md[p-1] == '<':
			next = atomEnd(md, p-1)
		default:
			for k := p - 1; k >= 0 && k >= p-atWordMax; k-- {
				if md[k] == '@' {
					next = k + 1 + atWordMax
					break
				}
				if c := md[k]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
					break
				}
			}
			for q := max(0, p-len("https://")); q < p && next == p; q++ {
				if partialOpener(md[q:p]) {
					next = atomEnd(md, q)
				}
			}
		}
		if next <= p {
			return p
		}
		p = next
	}
	return p
}

// atomEnd is the least end of a piece that begins at md[i] and must not
// split what begins there: an address's scheme and first character, a
// '<' and what follows it, an @word; else the first character.
func atomEnd(md string, i int) int {
	if o := openerAt(md, i); o > 0 {
		return i + o + 1
	}
	if i < len(md) {
		switch md[i] {
		case '@':
			return i + 1 + atWordMax
		case '<':
			return max(i+2, atomEnd(md, i+1))
		}
	}
	return i + 1
}

// extendTo is p as the end of a piece that must reach it (moved on to a
// rune's end): len(md) when md is final and shorter, else the piece waits
// (-1, which NextCut's callers read as nothing to show yet) for md to reach
// it.
func extendTo(md string, p int, final bool) int {
	if p > len(md) {
		if final {
			return len(md)
		}
		return -1
	}
	for p < len(md) && !utf8.RuneStart(md[p]) {
		p++
	}
	return p
}

// openers are how the addresses a linker finds begin (bareURL).
var openers = []string{"https://", "http://", "ftp://", "www."}

// partialOpener reports whether s, the end of a piece, could be the start
// of an address cut before its first character: an opener, or the start
// of one.
func partialOpener(s string) bool {
	for _, o := range openers {
		if len(s) <= len(o) && strings.EqualFold(s, o[:len(s)]) {
			return true
		}
	}
	return false
}

// openerAt is the length of the opener an address at md[i] begins with
// (one of openers), 0 for none; md may end within it. Within a word too:
// what comes before it in md may not come before it in what Markdown
// writes ("www.0www.0" cut after its first address, which is shown as
// code: "`www.0`www.0").
func openerAt(md string, i int) int {
	for _, o := range openers {
		if n := min(len(o), len(md)-i); n > 0 && strings.EqualFold(md[i:i+n], o[:n]) {
			return len(o)
		}
	}
	return 0
}

// inWord reports whether c is a letter or digit: a linker starts no
// address after one. It may after anything else, '_' too (GFM's autolinks
// start after a space or one of "*_~(": "_www.evil.example_" is a link in
// italics), though \b, which bareURL begins with, takes '_' for a letter.
func inWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
