package bot

import (
	"context"
	"strconv"
	"strings"

	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/store"
)

// Settings set in Slack. A workspace's admins set some of docsbot's
// settings for their workspace from the Settings of the Home (bot/settings
// has the table: which, their kinds, the variable each overrides); they are
// kept in store.WorkspaceSettings under the keys below. One rule: a value
// set in Slack for a workspace wins over the environment and the projects
// file there; cleared, the environment's applies again. Where the
// environment's value is a ceiling (the shares), a value set in Slack is
// never above it (the settings refuse it), and a channel the allow-list
// leaves out stays out.
//
//	key                      read by                                     over
//	editors                  Editors.Refusal (editorRefusal)             DOCSBOT_EDITORS and the projects' editors
//	experts                  the help channels' experts (ExpertsIn)      DOCSBOT_EXPERTS and the projects' experts
//	admins                   AdminRefusal (with Slack's admins, the      DOCSBOT_ADMINS
//	                         installer)
//	requests_channel         the answers' Ask the docs team (TextIn)     DOCSBOT_REQUESTS_CHANNEL
//	ask_per_user, ask_budget QuestionLimitsIn                            DOCSBOT_ASK_PER_USER, DOCSBOT_ASK_BUDGET
//	digest_time              the digest loops (bot/digests, read fresh    DOCSBOT_DIGEST_TIME
//	                         at each tick with SettingOf), the digest
//	                         commands' words (digests.ScheduleIn)
//	channel:<C>:project      ProjectsIn (the channel's default)          the projects file's channels
//	channel:<C>:off          the dispatch, doPost, editorRefusal         (DOCSBOT_ALLOWED_CHANNELS: off wins)
//	                         (channelOff)
//
// Each replica reads a workspace's settings at most teamFresh apart and
// forgets them when any replica publishes a change (teamcache.go), so a
// change is in force everywhere within 5 seconds.

// The keys of the workspace-wide settings set in Slack.
const (
	SettingEditors         = "editors"
	SettingExperts         = "experts"
	SettingAdmins          = "admins"
	SettingRequestsChannel = "requests_channel"
	SettingAskPerUser      = "ask_per_user"
	SettingAskBudget       = "ask_budget"
	// SettingDigestTime is when the workspace's digests are due, as
	// DOCSBOT_DIGEST_TIME says it ("Mon 09:00 Europe/Paris", bot/digest).
	SettingDigestTime = "digest_time"
)

// What is set in Slack of one channel (ChannelSetting).
const (
	// ChannelProject is the channel's default docs project, by name.
	ChannelProject = "project"
	// ChannelOff is "off" where docsbot was turned off in the channel;
	// cleared, it works there.
	ChannelOff = "off"
)

// ChannelSetting is the key of what of channel is set in Slack.
func ChannelSetting(channel, what string) string { return "channel:" + channel + ":" + what }

// WorkspaceSettingsStore keeps the settings set in Slack
// (store.WorkspaceSettings).
type WorkspaceSettingsStore interface {
	All(ctx context.Context, team string) (map[string]store.WorkspaceSetting, error)
	Of(ctx context.Context, key string, teams []string) (map[string]store.WorkspaceSetting, error)
	Changes(ctx context.Context) <-chan string
}

// SetInSlack is what one workspace set in Slack, as a replica read it.
type SetInSlack struct {
	values map[string]store.WorkspaceSetting
}

// Get is the setting key as set, false when it is not.
func (s SetInSlack) Get(key string) (store.WorkspaceSetting, bool) {
	v, ok := s.values[key]
	return v, ok && v.Value != ""
}

// People is the setting key as users and user groups (ids separated by
// spaces); false when it is not set or holds no valid id list.
func (s SetInSlack) People(key string) (roles.Editors, bool) {
	v, ok := s.Get(key)
	if !ok {
		return roles.Editors{}, false
	}
	e, err := roles.ParseEditors(strings.Fields(v.Value))
	return e, err == nil && !e.Empty()
}

// Count is the setting key as a positive whole number; false when not set.
func (s SetInSlack) Count(key string) (int, bool) {
	v, ok := s.Get(key)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v.Value)
	return n, err == nil && n > 0
}

// TextOr is the setting key as set, else or.
func (s SetInSlack) TextOr(key, or string) string {
	if v, ok := s.Get(key); ok {
		return v.Value
	}
	return or
}

// channelOff reports whether docsbot was turned off in channel.
func (s SetInSlack) channelOff(channel string) bool {
	v, _ := s.Get(ChannelSetting(channel, ChannelOff))
	return v.Value == "off"
}

// channelProjects are the channels' default projects set in Slack.
func (s SetInSlack) channelProjects() map[string]string {
	var out map[string]string
	for k, v := range s.values {
		ch, ok := strings.CutPrefix(k, "channel:")
		if ch, ok = strings.CutSuffix(ch, ":"+ChannelProject); ok && v.Value != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[ch] = v.Value
		}
	}
	return out
}

// newSetInSlack is the cache of the settings set in Slack over src, nil
// without one.
func newSetInSlack(src WorkspaceSettingsStore) *teamCache[SetInSlack] {
	if src == nil {
		return nil
	}
	return newTeamCache(func(ctx context.Context, team string) (SetInSlack, error) {
		all, err := src.All(ctx, team)
		return SetInSlack{values: all}, err
	})
}

// SetInSlack is what the workspace ctx names (settingsTeam) set in Slack,
// read at most teamFresh ago; when Redis cannot be read, what was read
// last (nothing, if nothing was: the environment's settings apply), said
// in the log.
func (b *Bot) SetInSlack(ctx context.Context) SetInSlack {
	if b.setInSlack == nil {
		return SetInSlack{}
	}
	s, err := b.setInSlack.get(ctx, b.settingsTeam(ctx))
	if err != nil {
		b.log.Warn("the settings set in Slack cannot be read now; using those read last", "err", err)
	}
	return s
}

// SettingOf reads, from Redis now, the setting key of each of teams: by
// team, those that set it in Slack (none without the store). A loop over
// every workspace (the digests' at each tick) reads it so, in one round
// trip, rather than each workspace's settings through the cache.
func (b *Bot) SettingOf(ctx context.Context, key string, teams []string) (map[string]store.WorkspaceSetting, error) {
	if b.cfg.WorkspaceSettings == nil || len(teams) == 0 {
		return nil, nil
	}
	return b.cfg.WorkspaceSettings.Of(ctx, key, teams)
}

// SettingsChanged forgets what this replica read of team's settings set in
// Slack, so that the next look reads them: the settings call it after a
// change, before every replica hears of it.
func (b *Bot) SettingsChanged(team string) {
	if b.setInSlack != nil {
		b.setInSlack.forget(team)
	}
}

// QuestionLimitsIn is l with the shares the workspace ctx names set in
// Slack (DOCSBOT_ASK_PER_USER, DOCSBOT_ASK_BUDGET).
func (b *Bot) QuestionLimitsIn(ctx context.Context, l QuestionLimits) QuestionLimits {
	set := b.SetInSlack(ctx)
	if n, ok := set.Count(SettingAskPerUser); ok {
		l.PerUser = n
	}
	if n, ok := set.Count(SettingAskBudget); ok {
		l.Budget = n
	}
	return l
}

// ExpertsIn are the experts the workspace ctx names set in Slack; false
// when it set none (DOCSBOT_EXPERTS and the projects' apply).
func (b *Bot) ExpertsIn(ctx context.Context) (roles.Editors, bool) {
	return b.SetInSlack(ctx).People(SettingExperts)
}

// admins are DOCSBOT_ADMINS, or those the workspace ctx names set in Slack.
func (b *Bot) admins(ctx context.Context) roles.Editors {
	if e, ok := b.SetInSlack(ctx).People(SettingAdmins); ok {
		return e
	}
	return b.cfg.Admins
}

// editorsSetInSlack are the editors the workspace ctx names set in Slack,
// which replace DOCSBOT_EDITORS and every project's there; err when its
// settings cannot be read now and none set were read before, so that the
// environment's editors are never let in where Slack's may say otherwise.
func (b *Bot) editorsSetInSlack(ctx context.Context) (e roles.Editors, ok bool, err error) {
	if b.setInSlack == nil {
		return roles.Editors{}, false, nil
	}
	s, err := b.setInSlack.get(ctx, b.settingsTeam(ctx))
	e, ok = s.People(SettingEditors)
	return e, ok, err
}

// settingsNotNow refuses what needs the workspace's settings while they
// cannot be read.
const settingsNotNow = "docsbot could not read this workspace's settings just now, so it cannot tell who may do this. Please try again in a minute."

// withChannelDefaults is set with the channels' default projects the
// workspace ctx names set in Slack over the projects file's.
func (b *Bot) withChannelDefaults(ctx context.Context, set *project.Set) *project.Set {
	if b.setInSlack == nil || set.Len() < 2 {
		return set
	}
	return set.WithChannelDefaults(b.SetInSlack(ctx).channelProjects())
}

// channelOffText is what a person is told where docsbot was turned off.
const channelOffText = "docsbot is turned off in this channel: an admin of this workspace turned it off in docsbot's Settings (its Home tab). " +
	"Use it in another channel, or ask an admin to turn it on here."

// channelOff reports whether docsbot was turned off in channel by the
// workspace ctx names.
func (b *Bot) channelOff(ctx context.Context, channel string) bool {
	return channel != "" && b.setInSlack != nil && b.SetInSlack(ctx).channelOff(channel)
}
