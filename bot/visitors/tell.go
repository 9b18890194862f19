package visitors

import (
	"context"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// tellMessage answers the person who typed cmd, privately, wherever Slack
// lets it (bot.TellPrivately): through the command's response_url; else in
// the channel, visible to them only, with msg's blocks (its buttons work
// there); else in a direct message, as text (a button there would run the
// command in the direct message), which names the command it answers.
func (v *visitors) tellMessage(ctx context.Context, cmd slack.SlashCommand, msg *slack.WebhookMessage) {
	p := bot.Private{User: cmd.UserID, Channel: cmd.ChannelID, ResponseURL: cmd.ResponseURL, Text: msg.Text,
		DMText: "About your " + inlineCode(commandLine(cmd.Text)) + " in " + channelMention(cmd.ChannelID) + ": " + msg.Text}
	if msg.Blocks != nil {
		p.Blocks = msg.Blocks.BlockSet
	}
	if err := v.core.TellPrivately(ctx, p); err != nil {
		v.log.Error("could not tell the person privately", "user", cmd.UserID, "channel", cmd.ChannelID, "err", err)
	}
}

// tell is tellMessage with text alone.
func (v *visitors) tell(ctx context.Context, cmd slack.SlashCommand, text string) {
	v.tellMessage(ctx, cmd, bot.Ephemeral(text))
}

// commandLine is the command as the person typed it, from its text as
// Slack sends it (escaped): render it with inlineCode, which escapes.
func commandLine(text string) string {
	return strings.TrimSpace(Command + " " + mrkdwn.Unescape(strings.TrimSpace(text)))
}

// channelMention renders a channel id as a link to the channel, or as
// escaped text if it does not look like one.
func channelMention(id string) string {
	if bot.IsSlackID(id, "CGD") {
		return "<#" + id + ">"
	}
	return mrkdwn.Escape(id)
}
