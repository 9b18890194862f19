package visitors

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/digests"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// `digest status` without project=NAME, when the bot serves several
// projects, is about the channel rather than one project: the ack does not
// resolve (or ask for) a project, and the work lists every digest the
// channel gets, one line per project. With project=NAME, or with one
// project, it answers for that project alone (digestCommand).

// severalProjects reports whether the bot serves more than one project.
func (v *visitors) severalProjects() bool {
	set := v.core.Projects()
	return !set.Implicit() && set.Len() > 1
}

// statusOfAll reports whether a command is `digest status` for every
// project: the bot serves several and the person named none.
func (v *visitors) statusOfAll(req visitorsRequest, named bool) bool {
	return req.Mode == modeDigest && req.Digest == digestStatus && !named && v.severalProjects()
}

// statusOfAllWork reports whether a command's work is `digest status` for
// every project: the ack said so, or, for work queued before projects
// existed (no project, no button), its text says so.
func (v *visitors) statusOfAllWork(cw commandWork) bool {
	if !v.severalProjects() {
		return false
	}
	if cw.AllProjects {
		return true
	}
	if cw.Project != "" || cw.Chosen {
		return false
	}
	_, text, named, err := project.CutToken(cw.Text)
	if err != nil {
		return false
	}
	req, bad := parseVisitors(text, v.cfg.Now())
	return bad == nil && v.statusOfAll(req, named)
}

// channelDigest is one line of the channel's digests: the project (its
// name, "" when a subscription made without one has no project to go to)
// and whether it is posted.
type channelDigest struct {
	sub  store.DigestSub
	name string
	// missing: the projects file no longer has the project, or no project
	// is the channel's for a subscription made without one; the digest is
	// not posted.
	missing bool
}

// channelDigests lists the subscriptions of the channel as the digest loop
// posts them (bot.Digests.Register, digestOf): a subscription made without a project is its
// channel's default project's, and gives way to one of that project.
func (v *visitors) channelDigests(ctx context.Context, team, channel string) ([]channelDigest, error) {
	subs, err := v.store.ChannelDigestSubs(ctx, team, channel)
	if err != nil {
		return nil, err
	}
	named := map[string]bool{}
	for _, sub := range subs {
		if sub.Project != "" {
			named[sub.Project] = true
		}
	}
	out := make([]channelDigest, 0, len(subs))
	for _, sub := range subs {
		if sub.Project != "" {
			p, ok := v.core.Project(sub.Project)
			out = append(out, channelDigest{sub: sub, name: cmp.Or(p.Name, sub.Project), missing: !ok})
			continue
		}
		p, ok := v.unnamedSubProject(channel)
		if ok && named[bot.ProjectKey(p)] {
			continue
		}
		out = append(out, channelDigest{sub: sub, name: p.Name, missing: !ok})
	}
	slices.SortStableFunc(out, func(a, b channelDigest) int { return strings.Compare(a.name, b.name) })
	return out, nil
}

// digestStatusAll answers `digest status` for every project privately: one
// line per digest the channel gets, or that it gets none and how to
// subscribe.
func (v *visitors) digestStatusAll(ctx context.Context, cmd slack.SlashCommand) error {
	log := v.log.With("user", cmd.UserID, "channel", cmd.ChannelID, "digest", digestStatus)
	list, err := v.channelDigests(ctx, cmd.TeamID, cmd.ChannelID)
	if err != nil {
		if store.Temporary(err) {
			return bot.Later(30*time.Second, err)
		}
		log.Warn("reading the channel's digests failed", "err", err)
		v.core.ReplyPrivately(ctx, cmd, "docsbot could not read the channel's digests: its storage failed. Try again in a minute.")
		return nil
	}
	v.core.ReplyPrivately(ctx, cmd, v.digestStatusText(ctx, list))
	return nil
}

// digestStatusText is the answer of digestStatusAll.
func (v *visitors) digestStatusText(ctx context.Context, list []channelDigest) string {
	sched := digests.New(v.core).ScheduleIn(ctx, v.cfg.Digest)
	now := v.cfg.Now()
	names := make([]string, 0, v.core.ProjectsIn(ctx).Len())
	for _, n := range v.core.ProjectsIn(ctx).Names() {
		names = append(names, inlineCode(n))
	}
	if len(list) == 0 {
		return fmt.Sprintf("This channel has no docs visitors digest of any project. `%s digest weekly project=NAME` (or `daily`) starts one; digests are due %s. The projects are %s.",
			Command, sched.Text(digest.Weekly), strings.Join(names, ", "))
	}
	var b strings.Builder
	if len(list) == 1 {
		b.WriteString("This channel gets one docs visitors digest:")
	} else {
		fmt.Fprintf(&b, "This channel gets %d docs visitors digests:", len(list))
	}
	for _, d := range list {
		f := digest.Frequency(d.sub.Frequency)
		b.WriteString("\n• ")
		switch {
		case d.name == "":
			b.WriteString("*no project*")
		default:
			b.WriteString("*" + mrkdwn.Escape(d.name) + "*")
		}
		fmt.Fprintf(&b, ": %s, %s", mrkdwn.Escape(d.sub.Frequency), sched.Text(f))
		switch {
		case d.missing && d.name == "":
			b.WriteString(", but it is not posted: it was made before docsbot served several projects, and no project is this channel's")
		case d.missing:
			b.WriteString(", but it is not posted: docsbot no longer serves this project")
		default:
			b.WriteString("; the next one comes " + sched.NextText(f, now))
		}
		b.WriteString(".")
		if d.sub.CreatedBy != "" {
			b.WriteString(" " + mrkdwn.Mention(d.sub.CreatedBy) + " subscribed it on " + d.sub.CreatedAt.Format("Jan 2, 2006") + ".")
		} else {
			b.WriteString(" Subscribed on " + d.sub.CreatedAt.Format("Jan 2, 2006") + ".")
		}
	}
	fmt.Fprintf(&b, "\n`%s digest off project=NAME` stops one; `%s digest status project=NAME` shows one alone. The projects are %s.",
		Command, Command, strings.Join(names, ", "))
	return b.String()
}
