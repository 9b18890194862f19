package visitors

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/digests"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// DigestEvent is the Slack message metadata event type of a digest post; its
// payload names the period ({"period": "2026-W48"}), so that a replica taking
// over a posting finds an earlier post of it.
const DigestEvent = "docsbot_visitors_digest"

// digestKind is the visitors digest as people and Slack know it.
var digestKind = digests.Kind{Name: "docs visitors digest", Command: Command, Event: DigestEvent}

const (
	// digestLease is how long a claim of a posting lasts while its numbers
	// are fetched; it is renewed (digests.PostLease) right before the post.
	digestLease = visitorsWork + time.Minute
	// digestTop is how many pages each list of a digest shows.
	digestTop = 5
)

// digestCommand answers `digest weekly|daily|off|status`.
// A subscription's change is audited once for the work w.
func (v *visitors) digestCommand(ctx context.Context, w *bot.Work, t target, cmd slack.SlashCommand, req visitorsRequest) error {
	log := v.log.With("user", cmd.UserID, "channel", cmd.ChannelID, "digest", req.Digest, "project", t.proj.Name)
	of, arg := project.Of(t.label()), project.Arg(t.label())
	legacy := v.legacyIs(t, cmd.ChannelID)
	storeFailed := func(err error) error {
		if store.Temporary(err) {
			return bot.Later(30*time.Second, err)
		}
		log.Warn("digest subscription failed", "err", err)
		v.core.ReplyPrivately(ctx, cmd, "docsbot could not change the digest: its storage failed. Try again in a minute.")
		return nil
	}
	sched := digests.New(v.core).ScheduleIn(ctx, v.cfg.Digest)
	now := v.cfg.Now()
	if req.Digest != digestStatus {
		if s := v.core.Sight(ctx, cmd.UserID, cmd.ChannelID); !s.Member {
			v.refuseDigest(ctx, w, t, cmd, req, s)
			return nil
		}
	}
	switch req.Digest {
	case digestWeekly, digestDaily:
		f := digest.Frequency(req.Digest)
		sub := store.DigestSub{Team: cmd.TeamID, Channel: cmd.ChannelID, Project: t.key, Frequency: string(f), CreatedBy: cmd.UserID, CreatedAt: now,
			Enterprise: bot.WorkspaceOf(ctx).Enterprise}
		if err := v.store.SubscribeDigest(ctx, sub); err != nil {
			return storeFailed(err)
		}
		if legacy {
			// The subscription made before projects existed is this
			// project's: the new one replaces it.
			if _, err := v.store.UnsubscribeDigest(ctx, cmd.TeamID, cmd.ChannelID, ""); err != nil {
				return storeFailed(err)
			}
		}
		text := fmt.Sprintf(":calendar: %s subscribed this channel to the %s docs visitors digest%s: %s. The first one comes %s. "+
			"docsbot posts it itself, so it must be in the channel (`/invite @docsbot`). `%s digest off%s` stops it.",
			mrkdwn.Mention(cmd.UserID), f, of, sched.Text(f), sched.NextText(f, now), Command, arg)
		// Audited before it is confirmed: a change made after the
		// confirmation was seen is audited after this one.
		v.auditDigest(ctx, w, t, cmd, "digest "+string(f))
		if err := v.core.Respond(ctx, cmd, bot.Reply(&slack.WebhookMessage{ResponseType: slack.ResponseTypeInChannel, Text: text})); err != nil {
			log.Warn("confirming the digest subscription failed", "err", err)
		}
		log.Info("digest subscribed", "frequency", string(f))
	case digestOff:
		had, err := v.store.UnsubscribeDigest(ctx, cmd.TeamID, cmd.ChannelID, t.key)
		if err != nil {
			return storeFailed(err)
		}
		if legacy {
			hadLegacy, err := v.store.UnsubscribeDigest(ctx, cmd.TeamID, cmd.ChannelID, "")
			if err != nil {
				return storeFailed(err)
			}
			had = had || hadLegacy
		}
		if !had {
			v.core.ReplyPrivately(ctx, cmd, "This channel has no docs visitors digest"+of+", so there was nothing to turn off.")
			return nil
		}
		v.auditDigest(ctx, w, t, cmd, "digest off") // before the confirmation, as above
		if err := v.core.Respond(ctx, cmd, bot.Reply(&slack.WebhookMessage{ResponseType: slack.ResponseTypeInChannel,
			Text: ":calendar: " + mrkdwn.Mention(cmd.UserID) + " turned off the docs visitors digest" + of + " in this channel."})); err != nil {
			log.Warn("confirming the end of the digest failed", "err", err)
		}
		log.Info("digest turned off")
	case digestStatus:
		if err := v.digestStatus(ctx, t, cmd, legacy); err != nil {
			return storeFailed(err)
		}
	}
	return nil
}

// digestStatus tells the person privately the channel's digest of t's
// project (the one made before projects existed when legacy); a store
// error is returned for the caller to word.
func (v *visitors) digestStatus(ctx context.Context, t target, cmd slack.SlashCommand, legacy bool) error {
	of, arg := project.Of(t.label()), project.Arg(t.label())
	sched, now := digests.New(v.core).ScheduleIn(ctx, v.cfg.Digest), v.cfg.Now()
	sub, err := v.store.DigestSub(ctx, cmd.TeamID, cmd.ChannelID, t.key)
	if errors.Is(err, store.ErrNotFound) && legacy {
		sub, err = v.store.DigestSub(ctx, cmd.TeamID, cmd.ChannelID, "")
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		v.core.ReplyPrivately(ctx, cmd, fmt.Sprintf("This channel has no docs visitors digest%s. `%s digest weekly%s` (or `daily`) starts one; digests are due %s.",
			of, Command, arg, sched.Text(digest.Weekly)))
	case err != nil:
		return err
	default:
		f := digest.Frequency(sub.Frequency)
		v.core.ReplyPrivately(ctx, cmd, fmt.Sprintf("This channel gets the %s docs visitors digest%s, %s; the next one comes %s. %s subscribed it on %s. `%s digest off%s` stops it.",
			mrkdwn.Escape(sub.Frequency), of, sched.Text(f), sched.NextText(f, now),
			mrkdwn.Mention(sub.CreatedBy), sub.CreatedAt.Format("Jan 2, 2006"), Command, arg))
	}
	return nil
}

// digestFeed is the visitors digest as the core's digest loop posts it
// (bot.Digests.Register): weekly and daily subscriptions, each of its
// project (digestTarget).
func (v *visitors) digestFeed() digests.Feed {
	return digests.Feed{Kind: digestKind, Noun: "digest", Subs: v.store.Digests, Frequencies: []digest.Frequency{digest.Weekly, digest.Daily},
		Schedule: v.cfg.Digest, Now: v.cfg.Now, Tick: v.cfg.DigestTick, Lease: digestLease, Log: v.log, Target: v.digestOf}
}

// digestOf is what sub's digest is of at this posting: its project
// (digestTarget), served when docsbot has an API client for it.
func (v *visitors) digestOf(sub store.DigestSub) digests.Target {
	t, found, err := v.digestTarget(sub)
	return digests.Target{Key: t.key, Name: t.label(), Served: found && err == nil, Err: err,
		Make: func(ctx context.Context, p digests.Posting) { v.postDigest(ctx, p, t) }}
}

// digestTarget is the project of a subscription: the one it names, or, for
// one made without a project, unnamedSubProject's.
func (v *visitors) digestTarget(sub store.DigestSub) (target, bool, error) {
	if sub.Project != "" {
		return v.targetByKey(sub.Project)
	}
	p, ok := v.unnamedSubProject(sub.Channel)
	if !ok {
		return target{}, false, nil
	}
	t, err := v.target(p)
	return t, true, err
}

// unnamedSubProject is the project of a subscription made without one in
// channel (the key "" of a subscription made before projects existed): the
// implicit project, else the channel's default.
func (v *visitors) unnamedSubProject(channel string) (project.Project, bool) {
	if p, ok := v.core.Project(""); ok {
		return p.Project, true
	}
	return v.core.Projects().ForChannel(channel)
}

// legacyIs reports whether a subscription made without a project in
// channel would be t's, while t records its own key: the digest command
// then changes both.
func (v *visitors) legacyIs(t target, channel string) bool {
	if t.key == "" {
		return false
	}
	p, ok := v.unnamedSubProject(channel)
	return ok && p.Name == t.proj.Name
}

// postDigest makes and posts the digest of p: the period's summary with
// the comparison in one message (bot.Digests.Post posts it once), the chart in
// its thread.
func (v *visitors) postDigest(ctx context.Context, p digests.Posting, t target) {
	f, slot := digest.Frequency(p.Sub.Frequency), p.Slot
	log := p.Log
	wctx, cancel := context.WithTimeout(ctx, visitorsWork)
	defer cancel()
	r := dateRange{First: slot.First, Last: slot.Last}
	req := visitorsRequest{Range: r, RangeText: r.String(), Top: digestTop, Sort: sortTotal, Mode: modeCompare, Project: t.key, ProjectName: t.label()}
	ex, err := v.export(wctx, t, bot.Spender{}, r, nil, log) // scheduled: the reserve is the digests'
	if err != nil {
		digests.New(v.core).HandBack(ctx, p, digests.Failure{Why: "fetching the digest's numbers failed", Err: err,
			Missed: digestMissed(err, digests.MissedAnalytics), After: digestWait(err)})
		return
	}
	cmp, err := v.compare(wctx, t, bot.Spender{}, req, nil, log)
	if err != nil {
		digests.New(v.core).HandBack(ctx, p, digests.Failure{Why: "comparing the digest's numbers failed", Err: err,
			Missed: digestMissed(err, "the numbers to compare it with could not be read"), After: digestWait(err)})
		return
	}
	summary := visitorsReport{Req: req, Snap: ex.Snap, Age: ex.Age, Stale: ex.Stale, Closed: ex.Closed, CacheTTL: v.cfg.CacheTTL, Fetched: ex.Fetched,
		Digest: fmt.Sprintf("The %s docs visitors digest%s · `%s digest off%s` stops it", f, project.Of(t.label()), Command, project.Arg(t.label()))}
	msg := summary.message()
	blocks := append(msg.Blocks.BlockSet, slack.NewDividerBlock())
	blocks = append(blocks, cmp.blocks()...)
	if len(blocks) > maxBlocks {
		blocks = blocks[:maxBlocks]
	}
	ts := digests.New(v.core).Post(wctx, p, slack.MsgOptionText(msg.Text, false), slack.MsgOptionBlocks(blocks...))
	if ts == "" {
		return
	}
	tr, err := v.drawTrend(wctx, t, r, chartPay{}, nil, log)
	if err != nil {
		log.Warn("drawing the digest's chart failed", "err", err)
		return
	}
	comment := "Daily unique visitors" + project.Of(t.label()) + ", " + r.String() + "."
	if gaps := tr.gapsText(); gaps != "" {
		comment += " " + gaps
	}
	png, err := tr.png()
	if err != nil {
		log.Warn("drawing the digest's chart failed", "err", err)
		return
	}
	if _, err := v.uploadChart(wctx, t, p.Claim.Channel, ts, r, png, comment); err != nil {
		log.Warn("uploading the digest's chart failed", "err", err)
	}
}

// digestMissed says to the subscriber why the digest's numbers could not be
// had (err), when that skips a period: the budget or the API's rate limit,
// else otherwise.
func digestMissed(err error, otherwise string) string {
	switch {
	case errors.Is(err, docsapi.ErrRateLimited):
		return digests.MissedRateLimited
	case mustWait(err):
		return digests.MissedBudget
	}
	return otherwise
}

// digestWait is how long a digest handed back after err waits before it is
// tried again: until the analytics budget has room, or the docs API's
// Retry-After, when err says; else 0 (the next tick).
func digestWait(err error) time.Duration {
	if be, ok := errors.AsType[*budgetError](err); ok {
		return max(be.Grant.RetryAfter, 0)
	}
	if ae, ok := errors.AsType[*docsapi.APIError](err); ok {
		return max(ae.RetryAfter, 0)
	}
	return 0
}

// auditDigest records a change of the channel's digest subscription in the
// audit trail, once for the work w. It is called before the change is
// confirmed to the channel, so that the trail holds a channel's changes in
// the order people saw them confirmed (and made the next one).
func (v *visitors) auditDigest(ctx context.Context, w *bot.Work, t target, cmd slack.SlashCommand, change string) {
	v.core.Audit().Work(ctx, w, "audited", store.AuditRecord{Team: cmd.TeamID, Channel: cmd.ChannelID, User: cmd.UserID, Project: t.key,
		Action: store.AuditSettings, Outcome: "ok", Detail: change})
}

// refuseDigest tells a person who is not a member of the organisation, or
// whom Slack could not say about, that they may not change the channel's
// digest; a guest's or an outsider's attempt is audited.
func (v *visitors) refuseDigest(ctx context.Context, w *bot.Work, t target, cmd slack.SlashCommand, req visitorsRequest, s bot.Sight) {
	if !s.Outsider {
		v.core.ReplyPrivately(ctx, cmd, "docsbot could not check your account with Slack just now, so it did not change this channel's docs visitors digest. Try again in a minute.")
		return
	}
	v.core.ReplyPrivately(ctx, cmd, "Only members of the organisation may subscribe a channel to the docs visitors digest or turn it off. "+
		"Ask a member of the organisation in this channel; `"+Command+" digest status` shows what is set.")
	v.core.Audit().Work(ctx, w, "audited", bot.RefusalRecord(cmd.TeamID, cmd.ChannelID, cmd.UserID, Command+" digest "+req.Digest, ""))
}
