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
// Feed.Tick, reads the kind's subscriptions and the digest time each of
// their workspaces set in Slack (over Feed.Schedule, DOCSBOT_DIGEST_TIME,
// for that workspace alone), claims each posting owed by its
// workspace's schedule (digest.Schedule.Owed) once across replicas (Digests.Claim, keyed by the kind's store
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
	// Schedule is when postings are due where a workspace set no digest
	// time in Slack (DOCSBOT_DIGEST_TIME); Now the feature's clock (time.Now
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

// tick posts every digest of f owed now that no replica has claimed. It
// reads the subscriptions and, in the same tick, the digest time each of
// their workspaces set in Slack (schedules): when that cannot be read it
// posts nothing, rather than post a workspace's digests at a time it did
// not choose; a later tick within the posting's window posts them.
func (d Digests) tick(ctx context.Context, f Feed) {
	subs, err := f.Subs.DigestSubs(ctx)
	if err != nil {
		if ctx.Err() == nil {
			f.Log.Warn("reading the "+f.Noun+" subscriptions failed", "err", err)
		}
		return
	}
	scheds, err := d.schedules(ctx, f, subs)
	if err != nil {
		if ctx.Err() == nil {
			f.Log.Warn("reading the workspaces' digest times failed", "err", err)
		}
		return
	}
	now := f.Now()
	// A subscription made without a project gives way to one of its
	// project in the same channel.
	named := map[string]bool{}
	for _, sub := range subs {
		if sub.Project != "" {
			named[sub.Team+":"+sub.Channel+":"+sub.Project] = true
		}
	}
	owed := 0
	for _, sub := range subs {
		fr := digest.Frequency(sub.Frequency)
		if !slices.Contains(f.Frequencies, fr) {
			continue
		}
		sched := scheds.of(sub.Team)
		slot, ok := sched.Owed(fr, now)
		// A channel subscribed after a posting was due starts with the next;
		// one the allow-lists no longer let the bot work in gets nothing.
		if !ok || sub.CreatedAt.After(slot.Due) || d.b.Refusal(sub.CreatedBy, sub.Channel) != "" {
			continue
		}
		t := f.Target(sub)
		if sub.Project == "" && t.Key != "" && named[sub.Team+":"+sub.Channel+":"+t.Key] {
			continue
		}
		owed++
		d.post(ctx, f, sub, slot, sched, t)
	}
	f.Log.Debug(f.Noun+"s looked at", "owed", owed, "subscriptions", len(subs), "now", now)
}

// schedules are when the digests of each workspace are due: the digest
// time it set in Slack (bot.SettingDigestTime), else the feed's
// (DOCSBOT_DIGEST_TIME).
type schedules struct {
	env  digest.Schedule
	some map[string]digest.Schedule
}

// of is the schedule of team.
func (s schedules) of(team string) digest.Schedule {
	if sched, ok := s.some[team]; ok {
		return sched
	}
	return s.env
}

// schedules reads, in one round trip, the digest times the workspaces of
// subs set in Slack.
func (d Digests) schedules(ctx context.Context, f Feed, subs []store.DigestSub) (schedules, error) {
	out := schedules{env: f.Schedule}
	var teams []string
	for _, sub := range subs {
		if !slices.Contains(teams, sub.Team) {
			teams = append(teams, sub.Team)
		}
	}
	set, err := d.b.SettingOf(ctx, bot.SettingDigestTime, teams)
	if err != nil {
		return out, err
	}
	for team, v := range set {
		if sched, ok := parseSet(v.Value); ok {
			if out.some == nil {
				out.some = map[string]digest.Schedule{}
			}
			out.some[team] = sched
		}
	}
	return out, nil
}

// ScheduleIn is when the digests of the workspace ctx names are due: the
// digest time it set in Slack (bot.SettingDigestTime, as the core's
// cache read it), else env (DOCSBOT_DIGEST_TIME). The digest commands
// say it with it.
func (d Digests) ScheduleIn(ctx context.Context, env digest.Schedule) digest.Schedule {
	if v, ok := d.b.SetInSlack(ctx).Get(bot.SettingDigestTime); ok {
		if sched, ok := parseSet(v.Value); ok {
			return sched
		}
	}
	return env
}

// parseSet reads a digest time set in Slack; false for one that is not
// (the settings refuse it: written by another version).
func parseSet(v string) (digest.Schedule, bool) {
	sched, err := digest.Parse(v)
	return sched, err == nil && v != ""
}

// post claims sub's posting of slot and has t make it, or, when t's
// project is not served, skips the period (once: the claim is marked) and
// tells the subscriber.
func (d Digests) post(ctx context.Context, f Feed, sub store.DigestSub, slot digest.Slot, sched digest.Schedule, t Target) {
	ctx = bot.WithWorkspace(ctx, sub.Workspace()) // its Slack calls are its workspace's
	fr := digest.Frequency(sub.Frequency)
	run := store.DigestRun{Team: sub.Team, Channel: sub.Channel, Project: sub.Project, Period: slot.Period}
	log := f.Log.With("channel", sub.Channel, "team", sub.Team, "period", slot.Period, "project", sub.Project)
	claim, ok := d.Claim(ctx, f.Subs, run, f.Lease, fr.Keep(), log)
	if !ok {
		return
	}
	p := Posting{Kind: f.Kind, Runs: f.Subs, Claim: claim, Sub: sub, ProjectName: t.Name, Log: log.With("attempt", claim.Attempt),
		Slot: slot, Schedule: sched, Now: f.Now, Tick: f.Tick}
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
