package bot

import "slices"

// access applies the allow-lists of users and channels. An empty list allows
// everyone (or everywhere).
type access struct {
	users, channels []string
}

func newAccess(users, channels []string) access {
	return access{users: slices.Clone(users), channels: slices.Clone(channels)}
}

// check returns "" when the user may use the bot in the channel, and otherwise
// the refusal to show them.
func (a access) check(user, channel string) string {
	if refusal := a.checkUser(user); refusal != "" {
		return refusal
	}
	if len(a.channels) > 0 && !slices.Contains(a.channels, channel) {
		return "docsbot is not enabled in this channel. Ask whoever runs docsbot to allow it, or use it in a channel where it is enabled."
	}
	return ""
}

// checkUser returns "" when the user may use the bot, and otherwise the
// refusal to show them.
func (a access) checkUser(user string) string {
	if len(a.users) > 0 && !slices.Contains(a.users, user) {
		return "Sorry, you are not on the list of people who may use docsbot. Ask whoever runs docsbot to add you."
	}
	return ""
}
