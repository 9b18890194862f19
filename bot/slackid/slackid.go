// Package slackid is the one check of what a Slack id looks like, and the
// one list of what Slack's tokens begin with (TokenKinds), for the bot core,
// the editors lists (bot/roles) and the projects file (bot/project), which
// cannot import the core.
//
// A Slack id is a capital letter telling its kind, then capital letters and
// digits ("U024BE7LH", "C1234567890"). The kinds docsbot meets:
//
//	U, W  a user (W: an Enterprise Grid user)
//	S     a user group
//	C     a public channel (older private channels too)
//	G     a private channel or a group DM
//	D     a direct message
//
// Slack's ids are 9 to 11 characters long today; Slack says they may grow.
package slackid

import "strings"

// MaxLen is the longest id the configuration files accept (the editors
// lists, the projects file): well above Slack's ids, yet short enough that a
// pasted token or sentence is refused.
const MaxLen = 32

// Valid reports whether id looks like a Slack id whose first letter is one of
// kinds (for example "UW" for users, "CG" for channels): that letter, then at
// least one capital letter or digit, and nothing else. It sets no upper
// bound on the length; callers that read ids from files also check MaxLen.
func Valid(id, kinds string) bool {
	if len(id) < 2 || !strings.ContainsRune(kinds, rune(id[0])) {
		return false
	}
	for _, r := range id[1:] {
		if (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// TokenKinds are the prefixes of Slack's tokens: bot (xoxb-), user
// (xoxp-), the older app and workspace kinds (xoxa-, xoxr-, xoxs-),
// refreshable ones (xoxe) and app-level tokens (xapp-). A value holding one
// is a Slack token; bot.SecretKinds joins them to the docs API key's for
// masking (docsapi/secret).
func TokenKinds() []string {
	return []string{"xoxb-", "xoxp-", "xoxa-", "xoxe", "xoxr-", "xoxs-", "xapp-"}
}
