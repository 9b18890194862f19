package helpchannels

import (
	"cmp"
	"context"
	"errors"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// shownMax bounds a shared answer's text in its message.
const shownMax = 2900

// shareKeep is how long an answer shared is remembered: pressed again
// within it, Share in channel posts nothing more.
const shareKeep = 24 * time.Hour

// onShare posts a private answer in its thread for everyone, saying who
// shared it: only its asker sees it, so only they can press; what is posted
// is the answer as the conversation keeps it (store.Conversations), its
// links kept to the project's docs (mrkdwn.Sites).
func (f *Feature) onShare(ctx context.Context, r *bot.InteractionRequest) {
	r.Ack(nil)
	ic := r.Interaction
	user := ic.User.ID
	channel := cmp.Or(ic.Channel.ID, ic.Container.ChannelID)
	log := f.log.With("user", user, "channel", channel)
	tell := func(text string) {
		p := bot.Private{User: user, Channel: channel, ThreadTS: ic.Container.ThreadTs, ResponseURL: ic.ResponseURL, Text: text}
		if err := f.tellPrivately(ctx, p); err != nil {
			log.Warn("telling the person privately failed", "err", err)
		}
	}
	if len(ic.ActionCallback.BlockActions) == 0 {
		return
	}
	ref, ok := bot.ParseThreadRef(ic.ActionCallback.BlockActions[0].Value)
	if !ok {
		return
	}
	if refusal := f.refusal(user, ref.Channel); refusal != "" {
		tell(refusal)
		return
	}
	conv, err := f.store.Conversations.Conversation(ctx, store.Thread{Team: ic.Team.ID, Channel: ref.Channel, TS: ref.TS})
	switch {
	case errors.Is(err, store.ErrNotFound):
		tell("docsbot no longer has this answer, so it cannot share it. Ask again in the channel.")
		return
	case err != nil:
		log.Warn("reading the answer to share failed", "err", err)
		tell("docsbot cannot reach its storage right now, so the answer was not shared. Try again in a minute.")
		return
	case conv.Asker != "" && conv.Asker != user:
		return
	}
	once := "share:" + ref.Thread()
	first, err := f.store.Limits.Once(ctx, once, shareKeep)
	switch {
	case err != nil:
		log.Warn("recording the share failed", "err", err)
		tell("docsbot cannot reach its storage right now, so the answer was not shared. Try again in a minute.")
		return
	case !first:
		tell("You shared this answer in the thread already.")
		return
	}
	answer := ""
	for i := len(conv.Turns) - 1; i >= 0 && answer == ""; i-- {
		if conv.Turns[i].Role == "assistant" {
			answer = conv.Turns[i].Text
		}
	}
	sites := f.sites[conv.Project]
	text := mrkdwn.Mention(user) + " shared docsbot's answer:\n\n" + mrkdwn.Cut(mrkdwn.FromMarkdown(answer, sites), shownMax)
	blocks := []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil)}
	if links := sourceLinks(sites, conv.Sources); links != "" {
		blocks = append(blocks, slack.NewContextBlock("sources", slack.NewTextBlockObject(slack.MarkdownType, "*Sources:* "+links, false, false)))
	}
	if _, err := f.post(ctx, ref.Channel, slack.MsgOptionTS(ref.TS), slack.MsgOptionText(text, false), slack.MsgOptionBlocks(blocks...),
		slack.MsgOptionDisableLinkUnfurl()); err != nil {
		log.Warn("sharing the answer failed", "err", err)
		if ferr := f.store.Limits.ForgetOnce(context.WithoutCancel(ctx), once); ferr != nil {
			log.Warn("forgetting the share that did not go out failed", "err", ferr)
		}
		tell("docsbot could not share the answer: " + bot.Describe(err) + ".")
		return
	}
	log.Info("a private answer was shared in its thread")
	if ic.ResponseURL != "" {
		tell("You shared the answer in the thread.")
	}
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
