package helpchannels

import (
	"context"
	"errors"
	"strconv"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// What a button did, said in its place: Ask an expert, Mark resolved and
// Share in channel, once their work is done (or found done), become a line
// saying so (bot.DoneLine), every other block of their message kept.
//
//	the message                   how
//	in the channel (an answer,    Slack sends it with the press: its blocks, the
//	a call, a reminder)           button swapped for the line (swapDone), are
//	                              written over it (chat.update)
//	the person's own (the note    Slack does not send it: it is built again from
//	that the docs do not cover    what it was made of (bot.UncoveredNote,
//	it, a private answer)         bot.PrivateAnswer), each button or its line by
//	                              what the store holds (the call, the share), and
//	                              replaces it through the press's response_url;
//	                              a private answer no longer kept is left as it is

// The lines in a button's place.
func expertAskedBy(user string) string { return "Expert asked by " + mrkdwn.Mention(user) }
func resolvedBy(user string) string    { return "Resolved by " + mrkdwn.Mention(user) }

const sharedLine = "Shared in the channel"

// rebuilt is a person's own message built again: its text and blocks; ok
// false when it cannot be.
type rebuilt func(ctx context.Context) (text string, blocks []slack.Block, ok bool)

// doneInPlace puts line in place of the pressed button of ic's message (the
// table above); again builds the person's own message, nil when there is
// none to build. It reports whether the message was changed.
func (f *Feature) doneInPlace(ctx context.Context, ic slack.InteractionCallback, line string, again rebuilt) bool {
	if len(ic.ActionCallback.BlockActions) == 0 {
		return false
	}
	log := f.log.With("user", ic.User.ID, "action", ic.ActionCallback.BlockActions[0].ActionID)
	if ic.Container.IsEphemeral {
		if again == nil || ic.ResponseURL == "" {
			return false
		}
		text, blocks, ok := again(ctx)
		if !ok {
			return false
		}
		asker := slack.SlashCommand{UserID: ic.User.ID, ChannelID: ic.Container.ChannelID, ResponseURL: ic.ResponseURL}
		err := f.core.Respond(ctx, asker, bot.Reply(&slack.WebhookMessage{ReplaceOriginal: true, Text: text, Blocks: &slack.Blocks{BlockSet: blocks}}))
		if err != nil {
			log.Warn("saying in place what the button did failed", "err", err)
		}
		return err == nil
	}
	blocks, ok := swapDone(ic.Message.Blocks.BlockSet, ic.ActionCallback.BlockActions[0].ActionID, line)
	channel, ts := ic.Container.ChannelID, ic.Container.MessageTs
	if !ok || channel == "" || ts == "" {
		return false
	}
	if err := f.core.EditNow(ctx, channel, ts, bot.Plain{slack.MsgOptionBlocks(blocks...)}); err != nil {
		log.Warn("saying in place what the button did failed", "err", err)
		return false
	}
	return true
}

// swapDone is blocks with the button actionID swapped for line: left out
// of its actions block (dropped when it held nothing else), the line right
// after it; ok false when blocks hold no such button.
func swapDone(blocks []slack.Block, actionID, line string) ([]slack.Block, bool) {
	out := make([]slack.Block, 0, len(blocks)+1)
	found := false
	for _, b := range blocks {
		a, isActions := b.(*slack.ActionBlock)
		if !isActions || a.Elements == nil || found {
			out = append(out, b)
			continue
		}
		var kept []slack.BlockElement
		for _, e := range a.Elements.ElementSet {
			if btn, ok := e.(*slack.ButtonBlockElement); ok && btn.ActionID == actionID {
				found = true
				continue
			}
			kept = append(kept, e)
		}
		if len(kept) > 0 {
			out = append(out, slack.NewActionBlock(a.BlockID, kept...))
		}
		if found {
			out = append(out, bot.DoneLine(line))
		}
	}
	return out, found
}

// uncoveredAgain builds again the note that the docs do not cover the
// question q of c (bot.UncoveredNote, as the answerer showed it): Ask an
// expert as the call stands, Make this a docs job for an editor.
func (f *Feature) uncoveredAgain(c clicked, q slack.Message) rebuilt {
	return func(ctx context.Context) (string, []slack.Block, bool) {
		buttons := []bot.Pressed{f.expertPressed(ctx, c.expert)}
		if refusal, _ := f.editorCheck(ctx, c.user, c.ref.Channel, c.ref.Project); refusal == "" {
			j := jobdraft.Draft{Channel: c.ref.Channel, Thread: c.ref.TS, Project: c.ref.Project, Question: q.Text}
			buttons = append(buttons, bot.Pressed{Button: slack.NewButtonBlockElement(jobdraft.ActionJobFromAnswer, j.Value(),
				slack.NewTextBlockObject(slack.PlainTextType, "Make this a docs job", false, false))})
		}
		return bot.NotCovered, bot.UncoveredNote(buttons...), true
	}
}

// privateAgain builds again the private answer ref of team (its asker's
// turn), as the answerer showed it (bot.PrivateAnswer), from the asker's
// conversation: the answer as kept to share, its sources, Share in channel
// and Ask an expert as the store has them; not when the conversation no
// longer holds that answer.
func (f *Feature) privateAgain(team string, ref bot.ShareRef, sourced bool) rebuilt {
	return func(ctx context.Context) (string, []slack.Block, bool) {
		thread := store.Thread{Team: team, Channel: ref.Channel, TS: ref.TS}
		conv, err := f.store.Conversations.Conversation(ctx, store.ConversationKey{Thread: thread, Asker: ref.Asker})
		if err != nil || ref.Turn == 0 || conv.Answers != ref.Turn || conv.Last == "" {
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				f.log.Warn("reading a private answer to show it again failed", "err", err)
			}
			return "", nil, false
		}
		share := bot.Pressed{Button: bot.ShareButton(ref)}
		if shared, err := f.store.Limits.Happened(ctx, shareOnce(ref)); err == nil && shared {
			share = bot.Pressed{Done: sharedLine}
		}
		buttons := []bot.Pressed{share}
		if f.HasExperts(ctx, conv.Project) {
			buttons = append(buttons, f.expertPressed(ctx, bot.ExpertRef{ShareRef: ref, Sourced: sourced, Answer: true}))
		}
		return conv.Last, bot.PrivateAnswer(conv.Last, sourceLinks(f.sitesOf(conv.Project), conv.Sources), buttons...), true
	}
}

// expertPressed is Ask an expert of ref, or, when the experts were called
// to its thread, the line saying who called them.
func (f *Feature) expertPressed(ctx context.Context, ref bot.ExpertRef) bot.Pressed {
	call, err := f.store.Calls.ExpertCall(ctx, ref.Thread())
	if err == nil && call.CalledBy != "" {
		return bot.Pressed{Done: expertAskedBy(call.CalledBy)}
	}
	return bot.Pressed{Button: bot.ExpertButton(ref)}
}

// shareOnce names the share of the private answer ref (store.Limits.Once).
func shareOnce(ref bot.ShareRef) string {
	return "share:" + ref.Thread() + ":" + ref.Asker + ":" + strconv.Itoa(ref.Turn)
}
