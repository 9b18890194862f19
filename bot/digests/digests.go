package digests

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// A digest is a message a feature posts in a subscribed channel on a
// schedule (bot/digest), once per period across replicas. The digest loop
// (loop.go) claims each owed posting in the store
// (store.Digests.ClaimDigest), the feature builds the message and
// Digests.Post posts it:
//
//	claim's attempt   earlier post found   claim still held   Slack answers      then
//	1                 (not looked for)     yes                ok                 marked posted
//	> 1               yes                  -                  -                  marked posted, not posted again
//	any               no                   no                 -                  left to the claim that took over
//	any               no                   yes                passing error      released, due again (after the
//	                                                                             landing window when shutting down)
//	any               no                   yes                refused for good   marked posted (skipped), the
//	                                                                             subscriber told (digestRefused)
//	any               (not posted: the feature could not make the message: the analytics could not be read,
//	                  the budget could not be drawn on or had no room; HandBack)
//	                  and the next try comes within the window   released, due again after the feature's wait
//	                  and the next try would come only after     marked posted (skipped), the subscriber told
//	                  the window closed (LastTry)          (missed)
//
// A post carries the kind's message metadata (Kind.Event, with the
// period and the project), which is how a later attempt finds it.

// Digests runs the digest loop of each kind a feature registers
// (Register) and posts the digests it claims: Claim, Post, HandBack and
// Unserved (Bot.Digests).
type Digests struct{ b *bot.Bot }

// New is what posts the digests of b's features.
func New(b *bot.Bot) Digests { return Digests{b} }

// Leases of a digest claim.
const (
	// PostLease is how long the claim is renewed for right before
	// the post.
	PostLease = time.Minute
	// digestHistoryPages bounds the search for an earlier post of a period.
	digestHistoryPages = 5
)

// Kind is a kind of digest as people and Slack know it.
type Kind struct {
	// Name is what people read: "docs visitors digest".
	Name string
	// Command is the slash command whose `digest` subcommand subscribes
	// and stops it.
	Command string
	// Event is the message metadata event type of its posts.
	Event string
}

// Runs is the store of a kind's subscriptions and postings
// (store.Digests).
type Runs interface {
	ClaimDigest(ctx context.Context, run store.DigestRun, lease, keep time.Duration) (store.DigestClaim, error)
	ExtendDigest(ctx context.Context, c store.DigestClaim, lease time.Duration) error
	MarkDigestPosted(ctx context.Context, c store.DigestClaim) error
	ReleaseDigest(ctx context.Context, c store.DigestClaim, after time.Duration) error
	StopDigest(ctx context.Context, d store.DigestSub) (bool, error)
	NoteDigestFailure(ctx context.Context, d store.DigestSub, kind string) (bool, error)
}

// Posting is one posting a replica claimed.
type Posting struct {
	Kind  Kind
	Runs  Runs
	Claim store.DigestClaim
	Sub   store.DigestSub
	// ProjectName is the project's name as people type it in project=NAME,
	// "" for an unnamed project.
	ProjectName string
	Log         *slog.Logger
	// Slot is the posting (when it was due, its period) and Schedule the
	// schedule of its kind, which says when the next one comes.
	Slot     digest.Slot
	Schedule digest.Schedule
	// Now is the feature's clock (time.Now when nil) and Tick how often its
	// loop looks for owed postings: with them Digests.HandBack tells whether
	// a posting handed back would be tried again within its window.
	Now  func() time.Time
	Tick time.Duration
}

// WindowEnd is when p's posting stops being owed: its due time and its
// frequency's window (digest.Frequency.Window).
func (p Posting) WindowEnd() time.Time {
	return p.Slot.Due.Add(digest.Frequency(p.Sub.Frequency).Window())
}

// LastTry reports whether a posting handed back at now, due again
// after wait, would be tried again only once its window is over (at end).
// The digest loop looks every tick, so the next try comes at the first
// tick after the wait (a wait of 0: the next tick): by now+wait+tick.
func LastTry(end, now time.Time, wait, tick time.Duration) bool {
	return !now.Add(max(wait, 0) + max(tick, 0)).Before(end)
}

// Claim claims run for this replica, leased for lease and its record
// kept for keep (store.Digests.ClaimDigest): ok is false, said in log, when
// it was posted already, another replica holds it, or the store failed.
func (d Digests) Claim(ctx context.Context, runs Runs, run store.DigestRun, lease, keep time.Duration, log *slog.Logger) (store.DigestClaim, bool) {
	claim, err := runs.ClaimDigest(ctx, run, lease, keep)
	switch {
	case errors.Is(err, store.ErrDigestPosted):
		log.Debug("digest posted already")
		return claim, false
	case errors.Is(err, store.ErrDigestHeld):
		log.Debug("digest claimed by another replica")
		return claim, false
	case err != nil:
		log.Warn("claiming the digest failed", "err", err)
		return claim, false
	}
	return claim, true
}

// release hands p's period back, due again after the given wait,
// saying why in the log.
func (d Digests) release(ctx context.Context, p Posting, why string, err error, after time.Duration) {
	p.Log.Warn(why+"; another tick tries again", "err", err)
	if err := p.Runs.ReleaseDigest(context.WithoutCancel(ctx), p.Claim, after); err != nil && !errors.Is(err, store.ErrStale) {
		p.Log.Warn("releasing the digest failed", "err", err)
	}
}

// Why a digest was skipped, in the words missed tells the subscriber,
// shared by the digests whose numbers come from the docs analytics.
const (
	MissedAnalytics   = "the docs analytics could not be read"
	MissedRateLimited = "the docs API kept rate limiting docsbot's analytics requests"
	MissedBudget      = "the analytics budget had no room"
)

// Failure is why a feature hands a claimed posting back without
// posting it, and when it may be tried again.
type Failure struct {
	// Why says it in the log ("fetching the digest's numbers failed"); Err
	// is the failure, if any.
	Why string
	Err error
	// Missed says it to the subscriber, should it be the last try: docsbot's
	// own mrkdwn, such as "the docs analytics could not be read".
	Missed string
	// After is how long the posting waits before it is due again; 0 is the
	// next tick.
	After time.Duration
}

// HandBack hands p's period back, due again after hb.After, unless
// its next try would come only once the posting's window is over
// (LastTry, on p.Now and p.Tick): then the period is skipped and the
// subscriber told (missed), rather than left unposted in silence.
func (d Digests) HandBack(ctx context.Context, p Posting, hb Failure) {
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	if LastTry(p.WindowEnd(), now(), hb.After, p.Tick) {
		err := errors.New(hb.Why)
		if hb.Err != nil {
			err = fmt.Errorf("%s: %w", hb.Why, hb.Err)
		}
		d.missed(ctx, p, hb.Missed, err)
		return
	}
	d.release(ctx, p, hb.Why, hb.Err, hb.After)
}

// missed skips p's period, which could not be made before its window
// closes: it is marked done (as a refused one is), said in the log with
// err, and the subscriber is told in a direct message, why (docsbot's own
// mrkdwn, such as "the analytics budget had no room") and when the next
// one comes. Only the claim's holder calls it, so every skipped period is
// told once.
func (d Digests) missed(ctx context.Context, p Posting, why string, err error) {
	ctx = context.WithoutCancel(ctx)
	log, sub := p.Log, p.Sub
	f := digest.Frequency(sub.Frequency)
	log.Warn("the digest could not be made within its window; skipping this period", "why", why, "err", err)
	if err := p.Runs.MarkDigestPosted(ctx, p.Claim); err != nil {
		log.Warn("marking the digest skipped failed", "err", err)
	}
	sched := p.Schedule
	loc := cmp.Or(sched.Location, time.UTC)
	sched.Location = loc
	// The next posting is the first due after this one's window, which
	// may not be over yet.
	next := sched.Next(f, p.WindowEnd().Add(-time.Nanosecond))
	const day = "Mon Jan 2 at 15:04 MST"
	text := fmt.Sprintf("docsbot could not post the %s %s%s due %s in <#%s>: %s from then until the end of its posting window, %d hours later. "+
		"This one is skipped; the next comes as usual, %s. `%s digest off%s` in the channel stops the digest.",
		f, p.Kind.Name, project.Of(p.ProjectName), p.Slot.Due.In(loc).Format(day), sub.Channel, why, int(f.Window().Hours()),
		next.Due.In(loc).Format(day), p.Kind.Command, project.Arg(p.ProjectName))
	d.tellSubscriber(ctx, p, text, "missed", why)
}

// Post posts p's message (opts) once, as the table above says, and
// returns its ts: "" when this call did not post it (an earlier attempt
// did, the claim was lost, or Slack did not take it).
func (d Digests) Post(ctx context.Context, p Posting, opts ...slack.MsgOption) string {
	b := d.b
	log := p.Log
	if p.Claim.Attempt > 1 {
		ts, err := d.findDigest(ctx, p)
		if err != nil {
			d.release(ctx, p, "looking for an earlier digest post failed", err, 0)
			return ""
		}
		if ts != "" {
			log.Info("digest was posted by an earlier attempt", "ts", ts)
			if err := p.Runs.MarkDigestPosted(ctx, p.Claim); err != nil {
				log.Warn("marking the digest posted failed", "err", err)
			}
			return ""
		}
	}
	if err := p.Runs.ExtendDigest(ctx, p.Claim, PostLease); err != nil {
		log.Info("the digest's claim was lost before posting; not posting", "err", err)
		return ""
	}
	meta := map[string]any{"period": p.Claim.Period}
	if p.Claim.Project != "" {
		meta["project"] = p.Claim.Project
	}
	opts = append(opts, slack.MsgOptionMetadata(slack.SlackMetadata{EventType: p.Kind.Event, EventPayload: meta}))
	ts, err := b.Post(ctx, p.Claim.Channel, bot.Plain(opts))
	if err != nil {
		if bot.TransientSlack(err) {
			// A post the shutdown cancelled may still land: the next
			// claim waits out the landing window before it looks for it.
			var after time.Duration
			if ctx.Err() != nil {
				_, after = b.Shutdown()
			}
			d.release(ctx, p, "posting the digest failed", err, after)
			return ""
		}
		// Slack refused for good (not in the channel, archived): trying
		// every tick would only fail again.
		log.Warn("Slack refused the digest; skipping this period", "err", err)
		if err := p.Runs.MarkDigestPosted(context.WithoutCancel(ctx), p.Claim); err != nil {
			log.Warn("marking the digest skipped failed", "err", err)
		}
		d.digestRefused(context.WithoutCancel(ctx), p, err)
		return ""
	}
	if err := p.Runs.MarkDigestPosted(context.WithoutCancel(ctx), p.Claim); err != nil {
		log.Warn("marking the digest posted failed", "err", err)
	}
	log.Info("digest posted", "ts", ts)
	return ts
}

// findDigest looks in the channel's latest messages for the bot's post of
// p's kind, period and project: its ts, or "" if there is none.
func (d Digests) findDigest(ctx context.Context, p Posting) (string, error) {
	b := d.b
	self := b.Self(ctx)
	params := &slack.GetConversationHistoryParameters{ChannelID: p.Claim.Channel, Limit: 100, IncludeAllMetadata: true}
	for range digestHistoryPages {
		res, err := b.SlackIn(ctx).GetConversationHistoryContext(ctx, params)
		if err != nil {
			return "", fmt.Errorf("reading the channel's history: %w", err)
		}
		for _, m := range res.Messages {
			proj, _ := m.Metadata.EventPayload["project"].(string)
			if m.Metadata.EventType == p.Kind.Event && m.Metadata.EventPayload["period"] == p.Claim.Period && proj == p.Claim.Project &&
				(m.User == self.UserID || m.BotID == self.BotID) {
				return m.Timestamp, nil
			}
		}
		if !res.HasMore {
			break
		}
		params.Cursor = res.ResponseMetaData.NextCursor
	}
	return "", nil
}

// A digest Slack refuses for good is never retried (its period is marked
// done), and the person who subscribed the channel is told in a direct
// message, which reaches them where the bot is not a member (an ephemeral
// in the channel would fail there too). When the refusal is about the
// channel itself (channelRefusal: the bot is not in it, it is archived or
// gone), every later digest would fail the same way: the subscription is
// stopped and the person told how to subscribe again. Any other refusal
// skips the period only, and the person is told once per kind of refusal
// of that subscription (store.Digests.NoteDigestFailure).

// channelRefusal says why Slack refuses every post in the channel, for
// Slack's error code of a refused digest, or "" when the refusal is not
// about the channel.
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
func (d Digests) digestRefused(ctx context.Context, p Posting, err error) {
	log, sub, f := p.Log, p.Sub, p.Sub.Frequency
	code := bot.SlackCode(err)
	where := "<#" + sub.Channel + ">"
	var text string
	if why := channelRefusal(code); why != "" {
		stopped, serr := p.Runs.StopDigest(ctx, sub)
		if serr != nil {
			log.Warn("stopping the digest after Slack refused it failed; the next period tries again", "code", code, "err", serr)
			return
		}
		if !stopped {
			return // turned off or subscribed again meanwhile
		}
		log.Warn("Slack refuses digests in this channel; subscription stopped", "code", code)
		text = fmt.Sprintf("docsbot could not post the %s %s%s in %s: %s. It turned that digest off, since every later one would fail the same way. "+
			"To get it again, invite docsbot to the channel (`/invite @docsbot`; an archived channel must be unarchived first) and run `%s digest %s%s` there.",
			f, p.Kind.Name, project.Of(p.ProjectName), where, why, p.Kind.Command, f, project.Arg(p.ProjectName))
	} else {
		kind := code
		if kind == "" {
			kind = "refused"
		}
		first, nerr := p.Runs.NoteDigestFailure(ctx, sub, kind)
		if nerr != nil || !first {
			if nerr != nil {
				log.Warn("recording the digest's refusal failed; not telling the subscriber", "err", nerr)
			}
			return
		}
		text = fmt.Sprintf("docsbot could not post the %s %s%s in %s: Slack refused it (`%s`). This one is skipped; the next is posted as usual, and you will not be told again about this kind of failure. "+
			"`%s digest off%s` in the channel stops the digest.", f, p.Kind.Name, project.Of(p.ProjectName), where, mrkdwn.Escape(kind), p.Kind.Command, project.Arg(p.ProjectName))
	}
	d.tellSubscriber(ctx, p, text, "code", code)
}

// Unserved tells the subscriber, once per subscription, that p's
// digest is skipped because docsbot serves no project it can go to: the
// project it names left the projects file, or it was subscribed before
// projects existed in a channel that has no default project.
func (d Digests) Unserved(ctx context.Context, p Posting) {
	sub := p.Sub
	first, err := p.Runs.NoteDigestFailure(ctx, sub, "unserved")
	if err != nil || !first {
		if err != nil {
			p.Log.Warn("recording the skipped digest failed; not telling the subscriber", "err", err)
		}
		return
	}
	why := "it was set up before docsbot served several docs projects, and that channel has no default project"
	if sub.Project != "" {
		why = "docsbot no longer serves the docs project `" + mrkdwn.Escape(sub.Project) + "`"
	}
	text := fmt.Sprintf("docsbot skips the %s %s in <#%s>: %s. Run `%s digest %s project=NAME` there to get the digest of a project it serves "+
		"(`%s help` lists them). You will not be told again.",
		sub.Frequency, p.Kind.Name, sub.Channel, why, p.Kind.Command, sub.Frequency, p.Kind.Command)
	d.tellSubscriber(ctx, p, text, "unserved", true)
}

// tellSubscriber sends the person who subscribed p's channel text in a
// direct message.
func (d Digests) tellSubscriber(ctx context.Context, p Posting, text string, logArgs ...any) {
	if p.Sub.CreatedBy == "" {
		p.Log.Warn("the digest has no subscriber on record to tell")
		return
	}
	if err := d.directMessage(ctx, p.Sub.CreatedBy, text); err != nil {
		p.Log.Warn("telling the digest's subscriber failed", "user", p.Sub.CreatedBy, "err", err)
		return
	}
	p.Log.Info("digest's subscriber told", append([]any{"user", p.Sub.CreatedBy}, logArgs...)...)
}

// directMessage sends text to a person in their direct message with the bot
// (conversations.open, which needs the im:write scope, then a post paced
// like any other). It reaches them where an ephemeral cannot: news nobody
// asked for just now, about a channel the bot is not a member of.
func (d Digests) directMessage(ctx context.Context, user, text string) error {
	ch, _, _, err := d.b.SlackIn(ctx).OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{user}})
	if err != nil {
		return fmt.Errorf("opening the direct message with %s: %w", user, err)
	}
	if _, err := d.b.Post(ctx, ch.ID, bot.Plain{slack.MsgOptionText(text, false)}); err != nil {
		return fmt.Errorf("posting in the direct message with %s: %w", user, err)
	}
	return nil
}
