package slacktest

import "strings"

// Escape encodes text the way Slack's clients send what a person types: &, <
// and > become &amp;, &lt; and &gt;, so that they are never read as markup.
// SlashCommand.Text and UserMessage.Text take text in that form.
func Escape(text string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(text)
}
