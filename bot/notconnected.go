package bot

import (
	"context"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/project"
)

// A workspace whose docs are not connected (no project of the projects
// file serves it, none was connected from Slack; see ProjectsIn) is told so wherever a
// person asks docsbot for something, privately, and nothing else is done:
//
//	| way in                                  | answer                                  |
//	|-----------------------------------------|-----------------------------------------|
//	| slash command                           | the ack, to the person alone            |
//	| mention, DM (a post addressed to it)    | an ephemeral message where it was posted|
//	| other posts (help channels, threads)    | nothing: nobody asked docsbot           |
//	| shortcut, message shortcut              | a modal saying so                       |
//	| buttons, modals, Home, removal events   | handled as usual                        |
//
// The words are project.NotConnected.

// docsConnected reports whether the workspace ctx names has a docs project
// to serve. When the projects connected from Slack cannot be read, it says
// yes: the features then meet the same trouble and say so themselves,
// rather than a person being told, wrongly, that nothing is connected.
func (b *Bot) docsConnected(ctx context.Context) bool {
	ps, err := b.projectsIn(ctx)
	return ps.Len() > 0 || err != nil
}

// tellNotConnected answers a shortcut of a workspace whose docs are not
// connected (the table above) once it is acked: a modal opened with its
// trigger. A modal that cannot be opened is logged: the trigger lasts
// three seconds and cannot be kept.
func (b *Bot) tellNotConnected(ctx context.Context, ic slack.InteractionCallback) {
	b.noticeModal(ctx, ic, project.NotConnected)
}

// noticeModal opens a modal saying text with ic's trigger.
func (b *Bot) noticeModal(ctx context.Context, ic slack.InteractionCallback, text string) {
	modal := slack.ModalViewRequest{
		Type:  slack.VTModal,
		Title: slack.NewTextBlockObject(slack.PlainTextType, "docsbot", false, false),
		Close: slack.NewTextBlockObject(slack.PlainTextType, "Close", false, false),
		Blocks: slack.Blocks{BlockSet: []slack.Block{
			slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil),
		}},
	}
	if _, err := b.SlackIn(ctx).OpenViewContext(ctx, ic.TriggerID, modal); err != nil {
		b.log.Warn("telling a person why nothing was done failed", "user", ic.User.ID, "err", err)
	}
}

// isShortcut reports whether ic is a global or message shortcut.
func isShortcut(ic slack.InteractionCallback) bool {
	return ic.Type == slack.InteractionTypeShortcut || ic.Type == slack.InteractionTypeMessageAction
}
