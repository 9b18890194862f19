package helpchannels

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/store"
)

// Who may call the experts, how often, and how they are called:
//
//	the caller                     what
//	a guest, of another org        refused privately, told what they can do instead (reply
//	                               in the thread, /docs-ask)
//	Slack cannot say               refused privately: try again in a minute
//	a member                       their calls of the hour (DOCSBOT_EXPERT_CALLS_PER_USER),
//	                               then the channel's (DOCSBOT_EXPERT_CALLS_PER_CHANNEL),
//	                               in Redis for every replica (budgets.go); past either,
//	                               refused privately saying when they can call again
//
//	the channel                    the call (and its reminder)
//	not shared                     in the thread, mentioning the experts' groups and people
//	shared with another org        in the thread, mentioning nobody: a user group's mention
//	(Slack Connect), or Slack      there would show the organisation's group to the other
//	cannot say                     organisation's people and page it on their behalf. Each
//	                               expert (the people named, the groups' members, at most
//	                               expertDMs) is told in a direct message linking the thread

// expertDMs bounds the direct messages of one call in a shared channel.
const expertDMs = 25

// notForOutsiders tells a guest or a person of another organisation that
// only members call the experts, and what they can do instead.
const notForOutsiders = "Calling the experts is for members of the organisation, so they were not called. " +
	"You can still reply in this thread, where the people of this channel (experts among them) read it, " +
	"or ask the docs yourself with `" + askCommand + "`."

// cannotTell tells a person Slack could not say is a member.
const cannotTell = "docsbot could not check your account with Slack just now, so the experts were not called. Try again in a minute."

// callRefusal is why user may not call the experts: "" for a member of
// the organisation.
func (f *Feature) callRefusal(ctx context.Context, user string) string {
	switch member, known := f.member(ctx, user); {
	case member:
		return ""
	case known:
		return notForOutsiders
	}
	return cannotTell
}

// callsOf is a person's expert calls of the hour.
func (f *Feature) callsOf(team, user string) store.Draw {
	return store.Draw{Budget: store.Budget{Name: "expert-calls:user:" + team + ":" + user, Limit: f.cfg.ExpertCallsPerUser, Window: time.Hour}}
}

// callsIn is a channel's expert calls of the hour.
func (f *Feature) callsIn(channel string) store.Draw {
	return store.Draw{Budget: store.Budget{Name: "expert-calls:channel:" + channel, Limit: f.cfg.ExpertCallsPerChannel, Window: time.Hour}}
}

// callsRefusal says which limit of the hour refused a call, and when the
// person can call again.
func (f *Feature) callsRefusal(out outcome) string {
	again := humanize.In(out.refused.RetryAfter, f.cfg.Now())
	if out.byPerson {
		return fmt.Sprintf("You called the experts %s in the last hour, as many as one person may, so they were not called. "+
			"You can call them again %s; meanwhile anyone here can still answer in this thread.", times(f.cfg.ExpertCallsPerUser), again)
	}
	return fmt.Sprintf("The experts were called to this channel %s in the last hour, as many as docsbot calls them to one channel, "+
		"so they were not called. You can call them again %s; meanwhile anyone here can still answer in this thread.", times(f.cfg.ExpertCallsPerChannel), again)
}

// times is n times, in words.
func times(n int) string {
	if n == 1 {
		return "once"
	}
	return humanize.Count(int64(n)) + " times"
}

// giveBackLogged gives back the shares of a call that was not made.
func (f *Feature) giveBackLogged(ctx context.Context, t *take, log *slog.Logger) {
	if err := f.giveBack(ctx, t); err != nil {
		log.Warn("giving back the shares of a call not made failed; they stay spent for the hour", "err", err)
	}
}

// errNoExpertTold is summon's error when the call is posted in a shared
// channel but no expert could be told directly.
var errNoExpertTold = errors.New("helpchannels: no expert could be told in a direct message")

// summon posts the call of c in its thread, with Mark resolved: by the
// experts' mentions, or, in a shared channel, mentioning nobody, each expert
// told directly (the table above). Each is a step of w: the post
// (markSummoned), then the direct messages (markExpertsTold), so that an
// attempt after a crash between them does not post the call again.
// errNoExpertTold: the call is posted, but no expert could be told.
func (f *Feature) summon(ctx context.Context, w *bot.Work, c clicked, q slack.Message, e roles.Editors, log *slog.Logger) error {
	shared := f.shared(ctx, c.ref.Channel)
	asked, by := calledFor(c, q), ""
	if c.user != q.User && !c.expert.Sourced {
		by = "\n_" + mrkdwn.Mention(c.user) + " called you._"
	}
	text := mentions(e) + ": " + asked + ":\n" + questionShown(q.Text) + by
	if shared {
		text = asked + "; docsbot asked the experts directly to look at it here."
		if by != "" {
			text += "\n_" + mrkdwn.Mention(c.user) + " called them._"
		}
	}
	blocks := []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil),
		slack.NewActionBlock("resolve", resolveButton(c.ref))}
	_, err := w.Step(ctx, markSummoned, func(ctx context.Context) (string, error) {
		return f.post(ctx, c.ref.Channel, slack.MsgOptionTS(c.ref.TS), slack.MsgOptionText(text, false), slack.MsgOptionBlocks(blocks...),
			slack.MsgOptionMetadata(slack.SlackMetadata{EventType: CallEvent, EventPayload: map[string]any{"thread": c.ref.Thread()}}))
	})
	if err = bot.Settle(err, log, "the experts' call is posted, its mark was not written"); err != nil || !shared {
		return err
	}
	dm := asked + " in <#" + c.ref.Channel + ">, a channel shared with another organisation, and you are one of the experts called to it:\n" +
		questionShown(q.Text) + by
	_, err = w.Step(ctx, markExpertsTold, func(ctx context.Context) (string, error) {
		if f.tellExperts(ctx, c.ref.Channel, c.ref.TS, e, dm, log) == 0 {
			return "", errNoExpertTold
		}
		return "", nil
	})
	return bot.Settle(err, log, "the experts are told directly, the mark was not written")
}

// calledFor says what the call of c is for, by what its button was under:
// docsbot's answer citing the docs, after which someone asked for an
// expert, or the note (or an answer without sources) that the docs do not
// answer the question q.
func calledFor(c clicked, q slack.Message) string {
	if !c.expert.Sourced {
		return mrkdwn.Mention(q.User) + " asked a question the docs do not answer"
	}
	whose := mrkdwn.Mention(q.User) + "'s question"
	if c.user == q.User {
		whose = "their question"
	}
	return mrkdwn.Mention(c.user) + " asked for an expert after docsbot answered " + whose + " from the docs"
}

// tellExperts tells each of e (the people named, the members of the
// groups, at most expertDMs) text in a direct message, with a link to the
// thread of ts in channel, and returns how many were told.
func (f *Feature) tellExperts(ctx context.Context, channel, ts string, e roles.Editors, text string, log *slog.Logger) int {
	people := slices.Clone(e.Users)
	for _, g := range e.Groups {
		members, err := f.groupMembers(ctx, g)
		if err != nil {
			log.Warn("reading an experts' group failed; its members are not told", "group", g, "err", err)
			continue
		}
		people = append(people, members...)
	}
	slices.Sort(people)
	people = slices.Compact(people)
	if len(people) > expertDMs {
		log.Warn("more experts than docsbot tells directly; the first are told", "experts", len(people), "told", expertDMs)
		people = people[:expertDMs]
	}
	if link, err := f.permalink(ctx, channel, ts); err == nil && mrkdwn.WebURL(link) {
		text += "\n<" + link + "|Open the thread>"
	}
	told := 0
	for _, u := range people {
		if u == f.self(ctx) {
			continue
		}
		if _, err := f.post(ctx, u, slack.MsgOptionText(text, false)); err != nil {
			log.Warn("telling an expert directly failed", "expert", u, "err", err)
			continue
		}
		told++
	}
	return told
}
