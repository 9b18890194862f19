// Package digests is the one loop every digest is posted by (loop.go) and
// the posting of a claimed digest (digests.go): a feature registers its
// kind (Digests.Register) and makes each digest, which it posts with
// Digests.Post or hands back with Digests.HandBack.
package digests

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/store"
)

// Every kind of digest is posted by the same loop: each replica looks every
// Feed.Tick, reads the kind's subscriptions only when a posting of
// one of its frequencies is owed (digest.Schedule.Owed), claims each owed
// posting once across replicas (Digests.Claim, keyed by the kind's store
// part and the period, so the marks and keys are the part's) and hands it
// to the feature to make (Target.Make), which posts it with
// Digests.Post or hands it back (Digests.HandBack). A feature registers
// what differs: its subscriptions, its frequencies and how it makes one
// (Digests.Register).

// Subscriptions is the store part of a kind's subscriptions and
// postings (store.Digests).
type Subscriptions interface {
	Runs
	DigestSubs(ctx context.Context) ([]store.DigestSub, error)
}

// Feed is one kind of digest as its feature registers it.
type Feed struct {
	Kind Kind
	// Noun names the kind in the log: "digest" logs "digests looked at",
	// "health digest" logs "health digests looked at".
	Noun string
	Subs Subscriptions
	// Frequencies are those the kind's subscriptions may have; a
	// subscription of another is left out.
	Frequencies []digest.Frequency
	// Schedule is when postings are due; Now the feature's clock (time.Now
	// when nil); Tick how often each replica looks (a minute when zero).
	Schedule digest.Schedule
	Now      func() time.Time
	Tick     time.Duration
	// Lease is how long a claim lasts while the digest is made; Make
	// renews it (PostLease) right before the post.
	Lease time.Duration
	Log   *slog.Logger
	// Target says what a subscription's digest is of and how it is made,
	// at each posting.
	Target func(sub store.DigestSub) Target
}

// Target is the project a subscription's digest is of, at one
// posting, and how the feature makes it.
type Target struct {
	// Key is the project's key (bot.ProjectKey): the subscription's, or for
	// one made without a project, the project it goes to. Such a
	// subscription gives way to one naming that project in the same
	// channel.
	Key string
	// Name is the project's name as people type it in project=NAME ("" for
	// an unnamed project): Posting.ProjectName.
	Name string
	// Served is false when docsbot serves no such project (Err says why, if
	// it knows): the period is skipped and the subscriber told once
	// (Digests.Unserved).
	Served bool
	Err    error
	// Make makes p's digest and posts it (Digests.Post) or hands it back
	// (Digests.HandBack).
	Make func(ctx context.Context, p Posting)
}

// Register runs f's loop on every replica (Bot.Background): call it before
// Bot.Run.
func (d Digests) Register(f Feed) {
	if f.Now == nil {
		f.Now = time.Now
	}
	if f.Tick <= 0 {
		f.Tick = time.Minute
	}
	if f.Log == nil {
		f.Log = d.b.Logger()
	}
	d.b.Background(bot.Every(f.Tick, func(ctx context.Context) { d.tick(ctx, f) }))
}

// owed reports whether a posting of one of f's frequencies is owed at now.
func (f Feed) owed(now time.Time) bool {
	for _, fr := range f.Frequencies {
		if _, ok := f.Schedule.Owed(fr, now); ok {
			return true
		}
	}
	return false
}

// tick posts every digest of f owed now that no replica has claimed.
// Outside every posting's window it reads nothing.
func (d Digests) tick(ctx context.Context, f Feed) {
	if now := f.Now(); !f.owed(now) {
		f.Log.Debug(f.Noun+"s looked at", "owed", false, "now", now)
		return
	}
	subs, err := f.Subs.DigestSubs(ctx)
	if err != nil {
		if ctx.Err() == nil {
			f.Log.Warn("reading the "+f.Noun+" subscriptions failed", "err", err)
		}
		return
	}
	now := f.Now()
	f.Log.Debug(f.Noun+"s looked at", "owed", true, "subscriptions", len(subs), "now", now)
	// A subscription made without a project gives way to one of its
	// project in the same channel.
	named := map[string]bool{}
	for _, sub := range subs {
		if sub.Project != "" {
			named[sub.Team+":"+sub.Channel+":"+sub.Project] = true
		}
	}
	for _, sub := range subs {
		fr := digest.Frequency(sub.Frequency)
		if !slices.Contains(f.Frequencies, fr) {
			continue
		}
		slot, owed := f.Schedule.Owed(fr, now)
		// A channel subscribed after a posting was due starts with the next;
		// one the allow-lists no longer let the bot work in gets nothing.
		if !owed || sub.CreatedAt.After(slot.Due) || d.b.Refusal(sub.CreatedBy, sub.Channel) != "" {
			continue
		}
		t := f.Target(sub)
		if sub.Project == "" && t.Key != "" && named[sub.Team+":"+sub.Channel+":"+t.Key] {
			continue
		}
		d.post(ctx, f, sub, slot, t)
	}
}

// post claims sub's posting of slot and has t make it, or, when t's
// project is not served, skips the period (once: the claim is marked) and
// tells the subscriber.
func (d Digests) post(ctx context.Context, f Feed, sub store.DigestSub, slot digest.Slot, t Target) {
	ctx = bot.WithWorkspace(ctx, sub.Workspace()) // its Slack calls are its workspace's
	fr := digest.Frequency(sub.Frequency)
	run := store.DigestRun{Team: sub.Team, Channel: sub.Channel, Project: sub.Project, Period: slot.Period}
	log := f.Log.With("channel", sub.Channel, "team", sub.Team, "period", slot.Period, "project", sub.Project)
	claim, ok := d.Claim(ctx, f.Subs, run, f.Lease, fr.Keep(), log)
	if !ok {
		return
	}
	p := Posting{Kind: f.Kind, Runs: f.Subs, Claim: claim, Sub: sub, ProjectName: t.Name, Log: log.With("attempt", claim.Attempt),
		Slot: slot, Schedule: f.Schedule, Now: f.Now, Tick: f.Tick}
	if !t.Served {
		// Once per period: the projects file no longer has the project,
		// or docsbot has no API client for it.
		log.Warn("the "+f.Noun+"'s project is not served; skipping this period", "err", t.Err)
		if err := f.Subs.MarkDigestPosted(ctx, claim); err != nil {
			log.Warn("marking the "+f.Noun+" skipped failed", "err", err)
		}
		d.Unserved(ctx, p)
		return
	}
	t.Make(ctx, p)
}
