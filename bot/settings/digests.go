package settings

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// The digests in the Digests and limits modal.
//
// Digest time: a day (a select: weekly digests come on it), a time (a
// time picker) and a zone (an IANA name, typed), block ids the setting's
// key and daySuffix, zoneSuffix. They start on the workspace's digest
// time: the one it set in Slack, else the environment's; submitted as
// the environment's where none was set, nothing is set. The time left
// empty keeps what is set (Clear on the Home brings the environment's
// back). The value kept is digest.Schedule's text ("Mon 09:00 UTC"),
// which the digest loops read for this workspace (bot/digests).
//
// Digest channels: a multi conversations select per digest, starting on
// the channels of this workspace subscribed to it (any project, any
// frequency), which the modal carries (modalTarget.Shown). A channel
// added is subscribed weekly to its docs project, as `digest weekly` in
// it would (the same record, the same audit record), once docsbot is
// seen to be a member there (it posts the digest itself) and the channel
// has a project; a channel taken out has its subscriptions removed, as
// `digest off` would. A channel subscribed or turned off meanwhile by its
// command is left as its command set it.

// The suffixes of the digest time's block ids.
const (
	daySuffix  = "_day"
	zoneSuffix = "_zone"
)

// maxDigestAdds bounds the channels one submission subscribes: each is
// looked up in Slack inside the ack.
const maxDigestAdds = 10

// Subscriptions are a digest's subscriptions (store.Digests, of its kind).
type Subscriptions interface {
	DigestSubs(ctx context.Context) ([]store.DigestSub, error)
	SubscribeDigest(ctx context.Context, d store.DigestSub) error
	UnsubscribeDigest(ctx context.Context, team, channel, project string) (bool, error)
}

// envSchedule is the environment's digest time (DOCSBOT_DIGEST_TIME).
func (s *settings) envSchedule() digest.Schedule {
	sched, err := digest.Parse(s.cfg.Environment[bot.SettingDigestTime])
	if err != nil {
		sched, _ = digest.Parse(digest.DefaultTime)
	}
	return sched
}

// scheduleOf is the digest time set (its value), else the environment's.
func (s *settings) scheduleOf(v string) digest.Schedule {
	if sched, err := digest.Parse(v); err == nil && v != "" {
		return sched
	}
	return s.envSchedule()
}

// timeInputs are the digest time's inputs, starting on set's value, else
// the environment's.
func (s *settings) timeInputs(st Setting, set map[string]store.WorkspaceSetting) []slack.Block {
	sched := s.scheduleOf(set[st.Key].Value)
	var days []*slack.OptionBlockObject
	for d := range 7 {
		day := time.Weekday((d + 1) % 7) // Monday first
		days = append(days, selectOption(day.String()[:3], day.String()))
	}
	picker := slack.NewTimePickerBlockElement(actionValue)
	picker.InitialTime = fmt.Sprintf("%02d:%02d", sched.Hour, sched.Minute)
	env := s.envSchedule()
	return []slack.Block{
		input(st.Key, st.Label, "When the digests are due in this workspace, over the environment's "+env.String()+" ("+st.Env+"). "+
			"Clear on the Home brings that back.", true, picker),
		input(st.Key+daySuffix, "Day of the weekly digests", "Daily digests come every day at the time.", true,
			staticSelect("Choose a day", sched.Weekday.String()[:3], days...)),
		textInput(st.Key+zoneSuffix, "Time zone", "An IANA zone name, such as Europe/Paris or America/New_York.", sched.Location.String(), true),
	}
}

// digestTime reads the digest time submitted: keep when it sets nothing
// (no time chosen, or the environment's where none was set), else its
// text, or the problem and its input.
func (s *settings) digestTime(f form, st Setting, was string) (v string, keep bool, block, problem string) {
	at, day, zone := f.action(st.Key).SelectedTime, f.option(st.Key+daySuffix), f.text(st.Key+zoneSuffix)
	if at == "" {
		return "", true, "", ""
	}
	env := s.envSchedule()
	if day == "" {
		day = env.Weekday.String()[:3]
	}
	if zone == "" {
		zone = env.Location.String()
	}
	if strings.EqualFold(zone, "local") || len(strings.Fields(zone)) != 1 {
		return "", false, st.Key + zoneSuffix, "Give a time zone by its IANA name, such as Europe/Paris."
	}
	if _, err := time.LoadLocation(zone); err != nil {
		return "", false, st.Key + zoneSuffix, "docsbot knows no time zone " + mrkdwn.Cut(zone, 60) + ": give its IANA name, such as Europe/Paris."
	}
	sched, err := digest.Parse(day + " " + at + " " + zone)
	if err != nil {
		return "", false, st.Key, "Choose a time of day."
	}
	if was == "" && sched.String() == env.String() {
		return "", true, "", "" // the environment's: nothing to set
	}
	return sched.String(), false, "", ""
}

// digestStore are the subscriptions of st's digest, nil when st is none
// or its feature is off.
func (s *settings) digestStore(st Setting) Subscriptions {
	if st.Digest == nil {
		return nil
	}
	return s.store.Digests[st.Digest.Name]
}

// subscribed are the subscriptions of team to st's digest, by channel.
func (s *settings) subscribed(ctx context.Context, team string, st Setting) (map[string][]store.DigestSub, error) {
	all, err := s.digestStore(st).DigestSubs(ctx)
	if err != nil {
		return nil, fmt.Errorf("settings: the subscriptions of the %s: %w", st.Digest.Noun, err)
	}
	out := map[string][]store.DigestSub{}
	for _, sub := range all {
		if sub.Team == team {
			out[sub.Channel] = append(out[sub.Channel], sub)
		}
	}
	return out, nil
}

// channelsOf are the channels of subs, sorted.
func channelsOf(subs map[string][]store.DigestSub) []string {
	out := make([]string, 0, len(subs))
	for ch := range subs {
		out = append(out, ch)
	}
	slices.Sort(out)
	return out
}

// digestInput is the input of st's channels, starting on those of team
// subscribed now (shown, for the submission); a notice instead when they
// cannot be read, and the submission leaves them as they are.
func (s *settings) digestInput(ctx context.Context, team string, st Setting, shown map[string][]string) slack.Block {
	subs, err := s.subscribed(ctx, team, st)
	if err != nil {
		s.log.Warn("a digest's channels cannot be read for the modal", "err", err)
		return slack.NewContextBlock("", text("*"+st.Label+"*: docsbot cannot read them just now; they stay as they are. Try again in a minute."))
	}
	channels := channelsOf(subs)
	shown[st.Key] = channels
	el := slack.NewOptionsMultiSelectBlockElement(slack.MultiOptTypeConversations, plain("Choose channels"), actionValue)
	el.Filter = &slack.SelectBlockElementFilter{Include: []string{"public", "private"}, ExcludeBotUsers: true}
	el.InitialConversations = channels
	return input(st.Key, st.Label, "A channel added gets the weekly "+st.Digest.Noun+", as `"+st.Env+" weekly` there would set it; docsbot must be in it. "+
		"A channel taken out stops getting it; one left keeps what it gets.", true, el)
}

// digestPlan is what a submission changes of a digest's channels.
type digestPlan struct {
	st   Setting
	subs map[string][]store.DigestSub // team's now, by channel
	add  []digestAdd
	drop []string // channels whose subscriptions are removed
}

// digestAdd is a channel subscribed, to its project.
type digestAdd struct {
	channel, name string
	proj          bot.Served
}

// planDigest reads the submission of st's channels against what the modal
// showed: the channels to subscribe, each checked (checkDigestChannel),
// and those to turn off; or the problem, on st's input. keep is true when
// the modal showed none (they could not be read).
func (s *settings) planDigest(ctx context.Context, team string, f form, st Setting, shown []string, showed bool) (digestPlan, bool, string) {
	p := digestPlan{st: st}
	if !showed {
		return p, true, ""
	}
	chosen := f.action(st.Key).SelectedConversations
	subs, err := s.subscribed(ctx, team, st)
	if err != nil {
		s.log.Warn("a digest's channels cannot be read", "err", err)
		return p, false, storageTrouble
	}
	p.subs = subs
	var adds []string
	for _, ch := range chosen {
		switch {
		case !bot.IsSlackID(ch, "CG"):
			return p, false, "Choose channels."
		case !slices.Contains(shown, ch) && len(subs[ch]) == 0 && !slices.Contains(adds, ch):
			adds = append(adds, ch)
		}
	}
	for _, ch := range shown {
		if !slices.Contains(chosen, ch) && len(subs[ch]) > 0 {
			p.drop = append(p.drop, ch)
		}
	}
	if len(adds) > maxDigestAdds {
		return p, false, fmt.Sprintf("Add at most %d channels at once.", maxDigestAdds)
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.CheckWait)
	defer cancel()
	for _, ch := range adds {
		add, problem := s.checkDigestChannel(cctx, team, st, ch)
		if problem != "" {
			return p, false, problem
		}
		p.add = append(p.add, add)
	}
	return p, false, ""
}

// checkDigestChannel checks a channel to subscribe to st's digest, as its
// command would be refused there: docsbot sees the channel in this
// workspace and is a member (it posts the digest itself), and the channel
// has a docs project docsbot serves (its default, or the only one).
func (s *settings) checkDigestChannel(ctx context.Context, team string, st Setting, ch string) (digestAdd, string) {
	info, err := s.core.SlackIn(ctx).GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: ch})
	switch {
	case bot.SlackCode(err) == "channel_not_found":
		return digestAdd{}, "docsbot cannot see the channel " + ch + " in this workspace: a private channel needs docsbot invited first (/invite @docsbot)."
	case err != nil:
		s.log.Warn("a channel could not be looked up in Slack", "channel", ch, "err", err)
		return digestAdd{}, "docsbot could not check the channels with Slack just now, so nothing was saved. Try again in a minute."
	case !info.IsMember:
		return digestAdd{}, "docsbot is not in #" + mrkdwn.Cut(info.Name, 80) + ": invite it there first (/invite @docsbot), as it posts the digest itself."
	}
	res, err := s.core.ProjectsIn(ctx).Resolve(ctx, project.Request{Team: team, Channel: ch})
	switch {
	case errors.As(err, new(*project.NoProjectsError)):
		return digestAdd{}, "No docs are connected in this workspace yet: connect them first."
	case err != nil || res.Ask:
		return digestAdd{}, "#" + mrkdwn.Cut(info.Name, 80) + " has no docs project of its own: choose one for it under Channels first, or run " +
			st.Env + " weekly project=NAME there."
	case res.Served.API == nil:
		return digestAdd{}, "docsbot cannot reach the docs project of #" + mrkdwn.Cut(info.Name, 80) + " just now; tell whoever runs docsbot."
	}
	return digestAdd{channel: ch, name: info.Name, proj: res.Served}, ""
}

// applyDigest subscribes and turns off what p says, each audited as its
// command audits it, and returns the change of st's channels; err when
// the store failed (what was done before is in the change).
func (s *settings) applyDigest(ctx context.Context, team, user string, p digestPlan) (*change, error) {
	if len(p.add) == 0 && len(p.drop) == 0 {
		return nil, nil
	}
	subs, d := s.digestStore(p.st), p.st.Digest
	old := channelsOf(p.subs)
	now := channelsOf(p.subs)
	var err error
	for _, a := range p.add {
		sub := store.DigestSub{Team: team, Channel: a.channel, Project: a.proj.Key, Frequency: string(digest.Weekly), CreatedBy: user,
			CreatedAt: s.cfg.Now(), Enterprise: bot.WorkspaceOf(ctx).Enterprise}
		if err = subs.SubscribeDigest(ctx, sub); err != nil {
			break
		}
		s.auditDigest(ctx, team, user, a.channel, a.proj.Key, d.Audit+" weekly")
		now = append(now, a.channel)
	}
	for _, ch := range p.drop {
		if err != nil {
			break
		}
		for _, sub := range p.subs[ch] {
			if _, err = subs.UnsubscribeDigest(ctx, team, ch, sub.Project); err != nil {
				break
			}
			s.auditDigest(ctx, team, user, ch, sub.Project, d.Audit+" off")
		}
		if err == nil {
			now = slices.DeleteFunc(now, func(c string) bool { return c == ch })
		}
	}
	slices.Sort(now)
	c := &change{Setting: p.st, Old: strings.Join(old, " "), New: strings.Join(now, " ")}
	if err != nil {
		s.log.Error("a digest's channels could not all be changed", "team", team, "err", err)
		return c, fmt.Errorf("settings: the channels of the %s: %w", d.Noun, err)
	}
	return c, nil
}

// auditDigest records a channel's subscription changed from the Settings,
// as its command records it.
func (s *settings) auditDigest(ctx context.Context, team, user, channel, key, detail string) {
	s.core.Audit().Record(ctx, store.AuditRecord{Team: team, Channel: channel, User: user, Project: key,
		Action: store.AuditSettings, Outcome: "ok", Detail: detail})
}

// digestAnnouncements are the posts that tell each channel p subscribes,
// by user, to its digest, due by sched: told with the change (told.go).
func (s *settings) digestAnnouncements(user string, p digestPlan, sched digest.Schedule) []toldPost {
	var posts []toldPost
	for _, a := range p.add {
		name := ""
		if !a.proj.Implicit {
			name = a.proj.Name
		}
		posts = append(posts, toldPost{Channel: a.channel, Text: fmt.Sprintf(":calendar: %s subscribed this channel to the weekly %s%s from docsbot's Settings: %s. The first one comes %s. `%s digest off%s` stops it.",
			mrkdwn.Mention(user), p.st.Digest.Noun, project.Of(name), sched.Text(digest.Weekly), sched.NextText(digest.Weekly, s.cfg.Now()),
			p.st.Digest.Command, project.Arg(name))})
	}
	return posts
}

// digestLine is the Home's line of st's channels in team.
func (s *settings) digestLine(ctx context.Context, team string, st Setting) string {
	subs, err := s.subscribed(ctx, team, st)
	if err != nil {
		s.log.Warn("a digest's channels cannot be read for the Home", "err", err)
		return "*" + st.Label + "*: docsbot cannot read them just now"
	}
	if len(subs) == 0 {
		return "*" + st.Label + "*: none · `" + st.Env + " weekly` in a channel, or Change limits"
	}
	return "*" + st.Label + "*: " + show(KindDigest, strings.Join(channelsOf(subs), " ")) + " · `" + st.Env + "` in each, or Change limits"
}
