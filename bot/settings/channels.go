package settings

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// The inputs of the Channels modal, by block id.
const (
	blockChannel = "channel"
	blockAnswers = "answers"
	blockProject = "project"
	blockHere    = "here"
)

// The values of the Channels modal's choices that clear a setting.
const (
	projectOfFile = "-"  // Docs project: the projects file's default again
	hereOn        = "on" // docsbot here: it works here (the setting cleared)
)

// The answer modes in the words of the select.
var modeLabels = map[string]string{
	bot.ModeAuto:    "auto: answers every question, in its thread",
	bot.ModePrivate: "private: answers every question to its asker",
	bot.ModeMention: "mention: answers when asked",
	bot.ModeOff:     "off: answers no questions",
}

// channelsModal is the Channels modal of team: a channel, and what to
// change there; a choice left empty keeps what the channel has.
func (s *settings) channelsModal(ctx context.Context, team string) slack.ModalViewRequest {
	channel := slack.NewOptionsSelectBlockElement(slack.OptTypeConversations, plain("Choose a channel"), actionValue)
	channel.Filter = &slack.SelectBlockElementFilter{Include: []string{"public", "private"}, ExcludeBotUsers: true}
	var modes []*slack.OptionBlockObject
	for _, m := range bot.AnswerModeNames {
		modes = append(modes, selectOption(m, modeLabels[m]))
	}
	blocks := []slack.Block{
		slack.NewSectionBlock(text("Set docsbot up in one channel. A choice left empty keeps what the channel has; "+
			"each change is in force within 5 seconds and goes over the environment's for this channel."), nil, nil),
		input(blockChannel, "Channel", "", false, channel),
		input(blockAnswers, row(keyAnswers).Label, "As `/docs-ask here MODE` sets it: how docsbot answers questions asked in the channel.", true,
			staticSelect("Keep the channel's", "", modes...)),
	}
	if names := s.core.ProjectsIn(ctx).Names(); len(names) > 1 {
		opts := []*slack.OptionBlockObject{selectOption(projectOfFile, "the projects file's default")}
		for _, n := range names {
			opts = append(opts, selectOption(n, n))
		}
		blocks = append(blocks, input(blockProject, row(bot.ChannelProject).Label,
			"The project a command or question here goes to when it names none (project=NAME).", true, staticSelect("Keep the channel's", "", opts...)))
	}
	blocks = append(blocks, input(blockHere, row(bot.ChannelOff).Label, "Off: docsbot does nothing in the channel, and says so to whoever asks.", true,
		staticSelect("Keep as it is", "", selectOption(hereOn, "docsbot works here"), selectOption(bot.ChannelOff, "docsbot does not work here"))))
	return modal(ViewChannels, modalChannels, "Save", team, blocks...)
}

// onChannelsSubmitted checks a Channels submission and saves what it
// changes, all in the ack.
func (s *settings) onChannelsSubmitted(ctx context.Context, r *bot.InteractionRequest) {
	team, user, ok := s.admitted(ctx, r, blockChannel, "set a channel up")
	if !ok {
		return
	}
	f := formOf(r.Interaction)
	channel, mode, proj, here := f.conversation(blockChannel), f.option(blockAnswers), f.option(blockProject), f.option(blockHere)
	switch {
	case !bot.IsSlackID(channel, "CG"):
		fail(r, blockChannel, "Choose the channel to set up.")
		return
	case mode == "" && proj == "" && here == "":
		fail(r, blockAnswers, "Choose what to change in this channel: its answers, its docs project, or whether docsbot works there.")
		return
	case mode != "" && !slices.Contains(bot.AnswerModeNames, mode):
		fail(r, blockAnswers, "Choose one of the modes: "+strings.Join(bot.AnswerModeNames, ", ")+".")
		return
	case proj != "" && proj != projectOfFile && !s.serves(ctx, proj):
		fail(r, blockProject, "docsbot serves no project of this name here.")
		return
	case here != "" && here != hereOn && here != bot.ChannelOff:
		fail(r, blockHere, "Choose whether docsbot works here.")
		return
	}
	now := s.cfg.Now()
	var changes []change
	if mode != "" {
		if msg := s.channelProblem(ctx, channel); msg != "" {
			fail(r, blockChannel, msg)
			return
		}
		old, err := s.store.Modes.Mode(ctx, channel)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.log.Warn("a channel's answer mode cannot be read", "err", err)
			fail(r, blockAnswers, storageTrouble)
			return
		}
		if old.Mode != mode {
			if err := s.store.Modes.SetMode(ctx, store.ChannelMode{Channel: channel, Mode: mode, By: user, At: now, Workspace: bot.WorkspaceOf(ctx)}); err != nil {
				s.log.Warn("a channel's answer mode could not be saved", "err", err)
				fail(r, blockAnswers, storageTrouble)
				return
			}
			changes = append(changes, change{Setting: row(keyAnswers), Channel: channel, Old: old.Mode, New: mode})
		}
	}
	var sets []store.WorkspaceSetting
	if proj != "" {
		sets = append(sets, store.WorkspaceSetting{Key: bot.ChannelSetting(channel, bot.ChannelProject), Value: strings.TrimPrefix(proj, projectOfFile)})
	}
	if here != "" {
		sets = append(sets, store.WorkspaceSetting{Key: bot.ChannelSetting(channel, bot.ChannelOff), Value: strings.TrimPrefix(here, hereOn)})
	}
	s.save(ctx, r, team, user, blockChannel, sets, changes...)
}

// channelProblem is "" when this workspace's docsbot sees channel
// (conversations.info with its token), and otherwise why its mode is not
// set: a channel's answer mode is kept by the channel's id for every
// workspace (store.HelpChannels), so a forged submission must not name
// another workspace's channel. The project and the switch of a channel
// are kept per workspace and need no look.
func (s *settings) channelProblem(ctx context.Context, channel string) string {
	cctx, cancel := context.WithTimeout(ctx, s.cfg.CheckWait)
	defer cancel()
	_, err := s.core.SlackIn(ctx).GetConversationInfoContext(cctx, &slack.GetConversationInfoInput{ChannelID: channel})
	switch {
	case err == nil:
		return ""
	case bot.SlackCode(err) == "channel_not_found":
		return "docsbot cannot see this channel in this workspace: a private channel needs docsbot invited first (`/invite @docsbot`)."
	}
	s.log.Warn("a channel could not be looked up in Slack", "channel", channel, "err", err)
	return "docsbot could not check this channel with Slack just now, so nothing was saved. Try again in a minute."
}
