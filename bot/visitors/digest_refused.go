package visitors

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/visitors/digest"
	"github.com/docsbot/docsbot/store"
)

// A digest Slack refuses for good is never retried (its period is marked
// done), and the person who subscribed the channel is told in a direct
// message, which reaches them where the bot is not a member (an ephemeral
// in the channel would fail there too). When the refusal is about the
// channel itself (channelRefusal: the bot is not in it, it is archived or
// gone), every later digest would fail the same way: the subscription is
// stopped and the person told how to subscribe again. Any other refusal
// skips the period only, and the person is told once per kind of refusal
// of that subscription (store.Digests.NoteDigestFailure).

// channelRefusal says why Slack refuses every post in the channel, for Slack's
// error code of a refused digest, or "" when the refusal is not about the
// channel.
func channelRefusal(code string) string {
	switch code {
	case "not_in_channel":
		return "docsbot is not a member of that channel"
	case "channel_not_found":
		return "Slack does not find that channel (it was deleted, or it is private and docsbot is not in it)"
	case "is_archived":
		return "that channel is archived"
	}
	return ""
}

// digestRefused acts on a digest that Slack refused for good (err): it
// stops the subscription when the channel cannot take posts at all, and
// tells the subscriber.
func (v *visitors) digestRefused(ctx context.Context, sub store.DigestSub, projectName string, f digest.Frequency, err error, log *slog.Logger) {
	of, arg := ofProject(projectName), projectArg(projectName)
	code := bot.SlackCode(err)
	where := "<#" + sub.Channel + ">"
	var text string
	if why := channelRefusal(code); why != "" {
		stopped, serr := v.store.StopDigest(ctx, sub)
		if serr != nil {
			log.Warn("stopping the digest after Slack refused it failed; the next period tries again", "code", code, "err", serr)
			return
		}
		if !stopped {
			return // turned off or subscribed again meanwhile
		}
		log.Warn("Slack refuses digests in this channel; subscription stopped", "code", code)
		text = fmt.Sprintf("docsbot could not post the %s docs visitors digest%s in %s: %s. It turned that digest off, since every later one would fail the same way. "+
			"To get it again, invite docsbot to the channel (`/invite @docsbot`; an archived channel must be unarchived first) and run `%s digest %s%s` there.",
			f, of, where, why, Command, f, arg)
	} else {
		kind := code
		if kind == "" {
			kind = "refused"
		}
		first, nerr := v.store.NoteDigestFailure(ctx, sub, kind)
		if nerr != nil || !first {
			if nerr != nil {
				log.Warn("recording the digest's refusal failed; not telling the subscriber", "err", nerr)
			}
			return
		}
		text = fmt.Sprintf("docsbot could not post the %s docs visitors digest%s in %s: Slack refused it (`%s`). This one is skipped; the next is posted as usual, and you will not be told again about this kind of failure. "+
			"`%s digest off%s` in the channel stops the digest.", f, of, where, mrkdwn.Escape(kind), Command, arg)
	}
	if sub.CreatedBy == "" {
		log.Warn("the digest has no subscriber on record to tell")
		return
	}
	if err := v.core.DirectMessage(ctx, sub.CreatedBy, text); err != nil {
		log.Warn("telling the digest's subscriber failed", "user", sub.CreatedBy, "err", err)
		return
	}
	log.Info("digest's subscriber told of the refusal", "user", sub.CreatedBy, "code", code)
}

// digestUnserved tells the subscriber, once per subscription, that its digest
// is skipped because docsbot serves no project it can go to: the project it
// names left the projects file, or it was subscribed before projects existed
// in a channel that has no default project.
func (v *visitors) digestUnserved(ctx context.Context, sub store.DigestSub, f digest.Frequency, log *slog.Logger) {
	first, err := v.store.NoteDigestFailure(ctx, sub, "unserved")
	if err != nil || !first {
		if err != nil {
			log.Warn("recording the skipped digest failed; not telling the subscriber", "err", err)
		}
		return
	}
	why := "it was set up before docsbot served several docs projects, and that channel has no default project"
	if sub.Project != "" {
		why = "docsbot no longer serves the docs project `" + mrkdwn.Escape(sub.Project) + "`"
	}
	text := fmt.Sprintf("docsbot skips the %s docs visitors digest in <#%s>: %s. Run `%s digest %s project=NAME` there to get the digest of a project it serves "+
		"(`%s help` lists them). You will not be told again.",
		f, sub.Channel, why, Command, f, Command)
	if sub.CreatedBy == "" {
		log.Warn("the skipped digest has no subscriber on record to tell")
		return
	}
	if err := v.core.DirectMessage(ctx, sub.CreatedBy, text); err != nil {
		log.Warn("telling the digest's subscriber failed", "user", sub.CreatedBy, "err", err)
		return
	}
	log.Info("digest's subscriber told that its project is not served", "user", sub.CreatedBy)
}
