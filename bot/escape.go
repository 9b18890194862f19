package bot

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// escape makes text from users or the API safe inside Slack mrkdwn: &, < and >
// become entities, so "<!channel>" or "<@U123>" in an instruction pings nobody
// and cannot forge a link.
func escape(s string) string {
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

// cut shortens s to at most n runes, ending with an ellipsis when it cut.
// It never splits a rune.
func cut(s string, n int) string {
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

// quote renders escaped text as a Slack block quote, line by line.
func quote(s string) string {
	lines := strings.Split(escape(s), "\n")
	for i, l := range lines {
		lines[i] = "&gt; " + l
	}
	return strings.Join(lines, "\n")
}

// link renders a URL from the API as a Slack link with an escaped label when
// it is an absolute http(s) URL, and as inert escaped text otherwise.
func link(raw, label string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		strings.ContainsAny(raw, "<>| \t\n") {
		return "`" + strings.ReplaceAll(escape(raw), "`", "'") + "`"
	}
	if label == "" {
		label = raw
	}
	return "<" + strings.ReplaceAll(raw, "&", "&amp;") + "|" + escape(label) + ">"
}

// mention renders a Slack user id as a mention, or as escaped text if it does
// not look like an id (so a crafted id cannot inject markup).
func mention(userID string) string {
	if isUserID(userID) {
		return "<@" + userID + ">"
	}
	return escape(userID)
}

// isUserID reports whether s looks like a Slack user id: U or W, then
// capital letters and digits.
func isUserID(s string) bool {
	if len(s) < 3 || (s[0] != 'U' && s[0] != 'W') {
		return false
	}
	for _, r := range s[1:] {
		if (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}
