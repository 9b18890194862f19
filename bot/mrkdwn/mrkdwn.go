// Package mrkdwn writes Slack's markup (mrkdwn) and reads it back: text
// from people or the docs API escaped so it pings nobody and forges no link,
// cut to Slack's limits, quoted, linked, mentions; and a message as the
// person typed it (Plain). Markdown from the docs assistant becomes mrkdwn
// (FromMarkdown) or the markdown of a streamed message, in pieces cut by
// one rule (NextCut, Markdown), linking only to an allow-list of sites
// (Sites): every other address shows as code (Inert). It knows nothing of
// the bot.
package mrkdwn

import (
	"cmp"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docsbot/docsbot/bot/slackid"
)

// Escape makes text from users or the API safe inside Slack mrkdwn: &, < and >
// become entities, so "<!channel>" or "<@U123>" in an instruction pings nobody
// and cannot forge a link.
func Escape(s string) string {
	if !strings.ContainsAny(s, "&<>") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Cut shortens s to at most n runes, ending with an ellipsis when it cut.
// It never splits a rune.
func Cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for j := range s {
		if count == n-1 {
			i = j
			break
		}
		count++
	}
	return strings.TrimRightFunc(s[:i], func(r rune) bool { return r == ' ' || r == '\n' }) + "…"
}

// Quote renders escaped text as a Slack block quote, line by line.
func Quote(s string) string {
	lines := strings.Split(Escape(s), "\n")
	for i, l := range lines {
		lines[i] = "&gt; " + l
	}
	return strings.Join(lines, "\n")
}

// inertLinkMax bounds a URL shown as inert text (Link): it is there to be
// recognised, not followed, and must not push a message over Slack's limits.
const inertLinkMax = 200

// Link renders a URL from the API as a Slack link with an escaped label when
// it is an absolute http(s) URL, and as inert escaped text, cut to
// inertLinkMax characters, otherwise.
func Link(raw, label string) string {
	if !WebURL(raw) {
		return "`" + strings.ReplaceAll(Escape(Cut(raw, inertLinkMax)), "`", "'") + "`"
	}
	if label == "" {
		label = raw
	}
	return "<" + strings.ReplaceAll(raw, "&", "&amp;") + "|" + Escape(label) + ">"
}

// WebURL reports whether raw, a URL from the API, is an absolute http(s)
// URL that is safe in a Slack link or a URL button: no markup characters,
// no spaces or control characters (which url.Parse lets by in a fragment),
// at most 3,000 characters (Block Kit's limit for a button's URL).
func WebURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" &&
		!strings.ContainsAny(raw, "<>| ") && !strings.ContainsFunc(raw, unicode.IsControl) && len(raw) <= 3000
}

// Mention renders a Slack user id as a mention, or as escaped text if it does
// not look like an id (so a crafted id cannot inject markup).
func Mention(userID string) string {
	if len(userID) >= 3 && slackid.Valid(userID, "UW") {
		return "<@" + userID + ">"
	}
	return Escape(userID)
}

// Plain turns text as Slack delivers it (a slash command's text, a message
// event's text) into what the person typed, for the docs API: Slack's
// entities are decoded and its markup becomes words. "&lt;b&gt;" is "<b>",
// "<https://x.dev|the docs>" is "the docs (https://x.dev)", "<@U123>" is
// "@U123", "<#C1|general>" is "#general" and "<!channel>" is "@channel".
func Plain(s string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '<')
		if open < 0 {
			break
		}
		end := strings.IndexByte(s[open:], '>')
		if end < 0 {
			break
		}
		b.WriteString(Unescape(s[:open]))
		b.WriteString(markupWords(s[open+1 : open+end]))
		s = s[open+end+1:]
	}
	b.WriteString(Unescape(s))
	return b.String()
}

// markupWords renders the inside of one <...> of Slack markup as words.
func markupWords(m string) string {
	target, label, hasLabel := strings.Cut(m, "|")
	target, label = Unescape(target), Unescape(label)
	switch {
	case strings.HasPrefix(target, "@"):
		return "@" + cmp.Or(label, target[1:])
	case strings.HasPrefix(target, "#"):
		return "#" + cmp.Or(label, target[1:])
	case strings.HasPrefix(target, "!subteam^"):
		return cmp.Or(label, "@"+strings.TrimPrefix(target, "!subteam^"))
	case strings.HasPrefix(target, "!date^"):
		return cmp.Or(label, target)
	case strings.HasPrefix(target, "!"):
		return "@" + strings.TrimPrefix(target, "!")
	case !hasLabel || label == target || "mailto:"+label == target:
		return cmp.Or(strings.TrimPrefix(target, "mailto:"), label)
	}
	return label + " (" + target + ")"
}

// Unescape decodes the three entities Slack escapes in text.
func Unescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}
