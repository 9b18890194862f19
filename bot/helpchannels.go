package bot

import (
	"context"
	"strings"
)

// Help channels: a channel's answer mode says how questions asked there are
// answered from the docs. The feature that keeps the modes (bot/helpchannels)
// registers them here (HelpChannels.SetModes) and owns the top-level
// questions nobody addressed to the bot (bot.OrderHelpChannel in the table of
// posts, posts.go), and the answerer reads the mode (HelpChannels.Mode) and answers an unasked Question (Via ViaAuto, ViaPrivate)
// only when its answer has sources.

// Answer modes of a channel.
const (
	// ModeMention answers only when asked: /docs-ask, a mention, a DM. The
	// default.
	ModeMention = "mention"
	// ModeAuto also answers every top-level question in its thread,
	// unasked, when the answer has sources.
	ModeAuto = "auto"
	// ModePrivate does what ModeAuto does, shown to the asker alone, who
	// may share it in the thread.
	ModePrivate = "private"
	// ModeOff answers nothing in the channel: a question there is told,
	// privately, where to ask.
	ModeOff = "off"
)

// AnswerModeNames are the modes, in the order people read them.
var AnswerModeNames = []string{ModeAuto, ModePrivate, ModeMention, ModeOff}

// Ways an unasked Question came (Question.Via): a question nobody addressed
// to the bot, in a channel in ModeAuto or ModePrivate.
const (
	ViaAuto    = ModeAuto
	ViaPrivate = ModePrivate
)

// Unasked reports whether q was asked of nobody: docsbot heard it in a help
// channel. Its answer is shown only when it has sources; otherwise the
// asker is told privately that the docs do not cover it.
func (q Question) Unasked() bool { return q.Via == ViaAuto || q.Via == ViaPrivate }

// Action ids the answerer renders and the help channels handle.
const (
	// ActionShareAnswer is "Share in channel" under a private answer: its
	// value is the answer's thread (ThreadRef).
	ActionShareAnswer = "docs_share_answer"
	// ActionAskExpert is "Ask an expert" under an answer, or under the
	// note that the docs do not cover a question: its value is the
	// question's thread (ThreadRef).
	ActionAskExpert = "docs_ask_expert"
	// ActionMarkResolved is "Mark resolved" in a thread an expert was
	// called to: its value is the question's thread (ThreadRef).
	ActionMarkResolved = "docs_mark_resolved"
)

// AnswerModes tells a channel's answer mode (one of AnswerModeNames).
type AnswerModes func(ctx context.Context, channel string) (string, error)

// helpChannelHooks are what the help channels registered.
type helpChannelHooks struct {
	modes   AnswerModes
	experts func(project string) bool
}

// HelpChannels is the core's side of the help channels: the modes the help
// channels feature registers, read by the answerer.
type HelpChannels struct{ b *Bot }

// HelpChannels is b's side of the help channels.
func (b *Bot) HelpChannels() HelpChannels { return HelpChannels{b} }

// SetModes registers what tells a channel's answer mode, and whether a
// project has experts to call (experts may be nil: none). Register before
// Run.
func (h HelpChannels) SetModes(f AnswerModes, experts func(project string) bool) {
	h.b.helpChannels.modes, h.b.helpChannels.experts = f, experts
}

// Mode is channel's answer mode: ModeMention when no feature keeps
// modes, or when they cannot be read now (what docsbot did before modes).
func (h HelpChannels) Mode(ctx context.Context, channel string) string {
	b := h.b
	if b.helpChannels.modes == nil || channel == "" {
		return ModeMention
	}
	m, err := b.helpChannels.modes(ctx, channel)
	if err != nil {
		b.log.Warn("could not read the channel's answer mode; answering as when mentioned", "channel", channel, "err", err)
		return ModeMention
	}
	return m
}

// HasExperts reports whether project (a project key) has experts to call
// (Ask an expert).
func (h HelpChannels) HasExperts(project string) bool {
	return h.b.helpChannels.experts != nil && h.b.helpChannels.experts(project)
}

// ThreadRef names a question's thread in a button's value:
// "channel:ts[:project]", the project a key (ProjectKey), "" for the
// implicit one.
type ThreadRef struct{ Channel, TS, Project string }

// String is r as a button's value.
func (r ThreadRef) String() string {
	s := r.Channel + ":" + r.TS
	if r.Project != "" {
		s += ":" + r.Project
	}
	return s
}

// Thread is the thread of r, "channel:ts", without its project.
func (r ThreadRef) Thread() string { return r.Channel + ":" + r.TS }

// ParseThreadRef reads a ThreadRef; ok false when v is not one.
func ParseThreadRef(v string) (ThreadRef, bool) {
	ch, rest, ok := strings.Cut(v, ":")
	ts, proj, _ := strings.Cut(rest, ":")
	r := ThreadRef{ch, ts, proj}
	return r, ok && IsSlackID(ch, "CGD") && ts != ""
}
