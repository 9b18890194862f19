package bot

import (
	"context"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// A channel where an admin turned docsbot off (the Settings of the Home:
// ChannelSetting(channel, ChannelOff), setinslack.go) has nothing done in
// it; whoever asked docsbot for something there is told so, privately:
//
//	| way in                                  | answer                                  |
//	|-----------------------------------------|-----------------------------------------|
//	| slash command                           | the ack, to the person alone            |
//	| mention (a post addressed to it)        | an ephemeral message where it was posted|
//	| other posts (help channels, threads)    | nothing: nobody asked docsbot           |
//	| message shortcut                        | a modal saying so                       |
//	| reactions, links shared                 | nothing (acknowledged and dropped)      |
//	| a change (Editors.Refusal: buttons,     | the refusal, as that way in tells one   |
//	| forms, the jobs' work)                  |                                         |
//	| other buttons, modals, the Home         | handled as usual                        |
//
// When the settings cannot be read, those read last decide (none: docsbot
// works there).

// eventChannel is the channel of an event that is neither a post nor a
// removal (a reaction, a link shared), "" for the others.
func eventChannel(ev slackevents.EventsAPIEvent) string {
	switch e := ev.InnerEvent.Data.(type) {
	case *slackevents.ReactionAddedEvent:
		return e.Item.Channel
	case *slackevents.ReactionRemovedEvent:
		return e.Item.Channel
	case *slackevents.LinkSharedEvent:
		return e.Channel
	}
	return ""
}

// tellChannelOff answers a shortcut in a channel turned off, once it is
// acked: a modal opened with its trigger.
func (b *Bot) tellChannelOff(ctx context.Context, ic slack.InteractionCallback) {
	b.noticeModal(ctx, ic, channelOffText)
}
