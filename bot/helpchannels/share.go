package helpchannels

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// shareKeep is how long an answer shared is remembered: pressed again
// within it, Share in channel posts nothing more.
const shareKeep = 24 * time.Hour

// doShare posts a private answer in its thread for everyone, saying who
// shared it. Its value names the answer (bot.ShareRef): its asker, whose
// own conversation in the thread it is in (store.ConversationKey), and its
// turn there. Only its asker sees it, and only they may share it: it posts
// the answer as the conversation keeps it to share
// (store.Conversation.Last), once, while it is their latest there. A value
// of earlier versions names the thread alone (shareEarlier).
func (f *Feature) doShare(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) error {
	user := ic.User.ID
	channel := cmp.Or(ic.Channel.ID, ic.Container.ChannelID)
	log := f.log.With("user", user, "channel", channel, "work", w.Key)
	tell := func(text string) {
		p := bot.Private{User: user, Channel: channel, ThreadTS: ic.Container.ThreadTs, ResponseURL: ic.ResponseURL, Text: text}
		if err := f.tellPrivately(ctx, p); err != nil {
			log.Warn("telling the person privately failed", "err", err)
		}
	}
	if len(ic.ActionCallback.BlockActions) == 0 {
		return nil
	}
	ref, ok := bot.ParseShareRef(ic.ActionCallback.BlockActions[0].Value)
	if !ok {
		return nil
	}
	if refusal := f.refusal(user, ref.Channel); refusal != "" {
		tell(refusal)
		return nil
	}
	thread := store.Thread{Team: ic.Team.ID, Channel: ref.Channel, TS: ref.TS}
	sh := sharing{w: w, thread: thread, user: user, tell: tell, told: ic.ResponseURL != "", log: log, ic: ic}
	if ref.Turn == 0 {
		return f.shareEarlier(ctx, sh)
	}
	if ref.Asker != user {
		log.Info("Share in channel pressed on another's answer; not shared")
		tell("Only the person who asked can share this answer.")
		return nil
	}
	conv, err := f.store.Conversations.Conversation(ctx, store.ConversationKey{Thread: thread, Asker: user})
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && conv.Last == "":
		tell(noLonger)
		return nil
	case err != nil:
		log.Warn("reading the answer to share failed", "err", err)
		tell(storageDown)
		return nil
	case conv.Answers != ref.Turn:
		tell("This is not your latest answer in this thread, and docsbot keeps only the latest to share. Share that one from its own message.")
		return nil
	}
	sh.again = f.privateAgain(ic.Team.ID, ref, len(conv.Sources) > 0)
	return f.postShared(ctx, sh, shareOnce(ref), conv.Last, conv)
}

// sharing is a press of Share in channel: the answer's thread, who
// pressed, how to tell them privately, whether to tell them it was shared
// (pressed where a response URL tells them), the press, and how to build
// the private answer again with the line saying it was shared (nil for
// a value of earlier versions).
type sharing struct {
	w      *bot.Work
	thread store.Thread
	user   string
	tell   func(string)
	told   bool
	log    *slog.Logger
	ic     slack.InteractionCallback
	again  rebuilt
}

// What Share in channel tells the person when it shares nothing.
const (
	noLonger    = "docsbot no longer has this answer, so it cannot share it. Ask again in the channel."
	storageDown = "docsbot cannot reach its storage right now, so the answer was not shared. Try again in a minute."
	notYours    = "docsbot cannot tell that this answer is yours, so it did not share it. Ask again in the channel and share the new answer."
)

// shareEarlier shares an answer whose Share in channel an earlier version
// showed: its value names the thread alone, whose one conversation all
// askers went on with then. It shares only what is provably the presser's
// own answer: that conversation, as an earlier version kept it, with one
// answer, to a question of theirs; otherwise they are told privately.
func (f *Feature) shareEarlier(ctx context.Context, sh sharing) error {
	conv, err := f.store.Conversations.Conversation(ctx, store.ConversationKey{Thread: sh.thread})
	switch {
	case errors.Is(err, store.ErrNotFound):
		sh.tell(noLonger)
		return nil
	case err != nil:
		sh.log.Warn("reading the answer to share failed", "err", err)
		sh.tell(storageDown)
		return nil
	}
	answer, answers := "", 0
	for _, t := range conv.Turns {
		if t.Role == "assistant" {
			answer, answers = t.Text, answers+1
		}
	}
	if conv.Asker != sh.user || conv.Answers != 0 || answers != 1 {
		sh.log.Info("Share in channel of an earlier version on a conversation not provably the presser's; not shared")
		sh.tell(notYours)
		return nil
	}
	text := mrkdwn.Cut(mrkdwn.FromMarkdown(answer, f.sitesOf(conv.Project)), bot.SharedTextMax)
	return f.postShared(ctx, sh, earlierShareOnce(sh.thread.Channel, sh.thread.TS), text, conv)
}

// postShared posts text, an answer of conv as shared, in its thread,
// saying who shared it, once (the Once named once); it tells them when it
// was shared before or could not be, and, when sh.told, that it was.
func (f *Feature) postShared(ctx context.Context, sh sharing, once, text string, conv store.Conversation) error {
	log, tell := sh.log, sh.tell
	// The share is taken (markShareOnce), then posted (markShared): an
	// attempt after the first step posts what that step took.
	_, err := sh.w.Step(ctx, markShareOnce, func(ctx context.Context) (string, error) {
		first, err := f.store.Limits.OnceBy(ctx, once, sh.w.Key, shareKeep)
		switch {
		case err != nil:
			log.Warn("recording the share failed", "err", err)
			tell(storageDown)
			return "", bot.ErrNoMark
		case !first:
			f.doneInPlace(ctx, sh.ic, sharedLine, sh.again)
			tell("You shared this answer in the thread already.")
			return "", bot.ErrNoMark
		}
		return "", nil
	})
	switch {
	case errors.Is(err, bot.ErrNoMark):
		return nil
	case err != nil:
		log.Warn("the share's mark was not written", "err", err) // ErrUnmarked: the share is taken
	}
	sites := f.sitesOf(conv.Project)
	text = mrkdwn.Mention(sh.user) + " shared docsbot's answer:\n\n" + text
	blocks := []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil)}
	if links := sourceLinks(sites, conv.Sources); links != "" {
		blocks = append(blocks, slack.NewContextBlock("sources", slack.NewTextBlockObject(slack.MarkdownType, "*Sources:* "+links, false, false)))
	}
	posted, err := sh.w.Step(ctx, markShared, func(ctx context.Context) (string, error) {
		if _, err := f.post(ctx, sh.thread.Channel, slack.MsgOptionTS(sh.thread.TS), slack.MsgOptionText(text, false), slack.MsgOptionBlocks(blocks...),
			slack.MsgOptionDisableLinkUnfurl()); err != nil {
			if passing(err) {
				return "", bot.Later(bot.RetryDelay(sh.w.Attempt), fmt.Errorf("sharing the answer: %w", err))
			}
			log.Warn("sharing the answer failed", "err", err)
			if ferr := f.store.Limits.ForgetOnce(context.WithoutCancel(ctx), once); ferr != nil {
				log.Warn("forgetting the share that did not go out failed", "err", ferr)
			}
			tell("docsbot could not share the answer: " + bot.Describe(err) + ".")
			return "", bot.ErrNoMark
		}
		return "", nil
	})
	if err := bot.Settle(err, log, "the answer is shared, its mark was not written"); err != nil || posted == "" {
		return err
	}
	log.Info("a private answer was shared in its thread")
	if !f.doneInPlace(ctx, sh.ic, sharedLine, sh.again) && sh.told {
		tell("You shared the answer in the thread.")
	}
	return nil
}

// sourceLinks are an answer's sources (paths or addresses), linked where
// the sites allow, else shown as code.
func sourceLinks(sites mrkdwn.Sites, sources []string) string {
	var out []string
	for _, s := range sources {
		if target, ok := sites.Resolve(s); ok {
			out = append(out, mrkdwn.Link(target, mrkdwn.Escape(s)))
		} else {
			out = append(out, mrkdwn.InertMrkdwn(s))
		}
	}
	return strings.Join(out, " · ")
}

// earlierShareOnce names the one share of the answer in a thread whose
// Share in channel an earlier version showed (shareEarlier).
func earlierShareOnce(channel, ts string) string { return "share:" + channel + ":" + ts }
