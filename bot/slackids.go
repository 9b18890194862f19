package bot

import "github.com/docsbot/docsbot/bot/slackid"

// IsSlackID reports whether id looks like a Slack id whose first letter is
// one of kinds (user ids start with U or W, channel ids with C, G or D),
// followed by at least two capital letters and digits (slackid.Valid, the
// one check, with the core's shortest id of three characters).
func IsSlackID(id, kinds string) bool {
	return len(id) >= 3 && slackid.Valid(id, kinds)
}
