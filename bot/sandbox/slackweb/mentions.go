package slackweb

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// linkMentions turns each "@name" of a workspace member in text (already
// escaped) into Slack's mention markup "<@U…>", as Slack's message box does
// when a person picks a name, and reports whether the bot is mentioned. An
// "@" inside a word (an e-mail address) or before an unknown name stays text.
func (h *Handler) linkMentions(text, channel string) (string, bool) {
	ids := map[string]string{}
	// The app's bot user of the channel's workspace: each workspace has one,
	// all with the app's name.
	bot := h.srv.ChannelBotUser(channel)
	for _, u := range h.srv.Users() {
		if u.Bot && u.ID != bot {
			continue
		}
		ids[strings.ToLower(u.Name)] = u.ID
	}
	var b strings.Builder
	mentioned := false
	prev := ' '
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == '@' && !isNameRune(prev) {
			end := i + 1
			for end < len(text) {
				c, n := utf8.DecodeRuneInString(text[end:])
				if !isNameRune(c) && c != '.' {
					break
				}
				end += n
			}
			name := strings.TrimRight(text[i+1:end], ".")
			if id, ok := ids[strings.ToLower(name)]; ok && name != "" {
				b.WriteString("<@" + id + ">")
				mentioned = mentioned || id == bot
				i += 1 + len(name)
				prev = 'x'
				continue
			}
		}
		b.WriteString(text[i : i+size])
		prev = r
		i += size
	}
	return b.String(), mentioned
}

// isNameRune reports whether r can be part of a Slack handle.
func isNameRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-'
}

// botName is the bot's handle, "the app" when the workspace has no bot.
func (h *Handler) botName() string {
	for _, u := range h.srv.Users() {
		if u.Bot {
			return "@" + u.Name
		}
	}
	return "the app"
}
