package helpchannels

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// AuditMode is the audit trail's action of a channel's mode set.
const AuditMode = "help.mode"

// workHere is /docs-ask here's work: the mode shown, or set.
const workHere = "help.here"

// hereRequest is what /docs-ask here carries through the inbox.
type hereRequest struct {
	Team        string `json:"team"`
	Channel     string `json:"channel"`
	User        string `json:"user"`
	Mode        string `json:"mode,omitempty"` // "" shows the mode
	ResponseURL string `json:"response_url"`
}

// What a mode does, in words people read.
var modeWords = map[string]string{
	bot.ModeAuto:    "docsbot answers every question asked here, in its thread, when the docs have the answer",
	bot.ModePrivate: "docsbot answers every question asked here to its asker alone, who may share the answer in the thread",
	bot.ModeMention: "docsbot answers when asked: a mention, `/docs-ask`",
	bot.ModeOff:     "docsbot answers no questions here",
}

// hereUsage is /docs-ask here's help.
func hereUsage() string {
	var lines []string
	for _, m := range bot.AnswerModeNames {
		lines = append(lines, "`"+askCommand+" here "+m+"`: "+modeWords[m])
	}
	return "*How docsbot answers in this channel* (editors set it; `" + askCommand + " here` shows it):\n" + strings.Join(lines, "\n")
}

// onHere answers /docs-ask here [mode]: an unknown mode and a refusal by the
// allow-lists in the ack; the rest as work (the mode is in Redis, and
// setting it needs the editor role).
func (f *Feature) onHere(ctx context.Context, r *bot.CommandRequest) {
	cmd := r.Command
	if refusal := f.refusal(cmd.UserID, cmd.ChannelID); refusal != "" {
		f.refuseCommand(ctx, r, refusal, cmd.Text)
		return
	}
	words := strings.Fields(strings.ToLower(cmd.Text))
	mode := ""
	if len(words) > 1 {
		mode = words[1]
	}
	if mode != "" && (len(words) > 2 || !slices.Contains(bot.AnswerModeNames, mode)) {
		r.Ack(bot.Ephemeral(hereUsage()))
		return
	}
	f.queueCommand(ctx, r, workHere, hereRequest{Team: cmd.TeamID, Channel: cmd.ChannelID, User: cmd.UserID, Mode: mode,
		ResponseURL: cmd.ResponseURL}, "the channel's mode was not changed")
}

// doHere shows the channel's mode, or sets it for an editor (audited).
func (f *Feature) doHere(ctx context.Context, w *bot.Work) error {
	var h hereRequest
	if err := json.Unmarshal(w.Payload, &h); err != nil {
		return fmt.Errorf("decoding /docs-ask here: %w", err)
	}
	log := f.log.With("user", h.User, "channel", h.Channel, "work", w.Key)
	tell := func(text string) {
		if err := f.tellPrivately(ctx, bot.Private{User: h.User, Channel: h.Channel, ResponseURL: h.ResponseURL, Text: text}); err != nil {
			log.Warn("telling the person privately failed", "err", err)
		}
	}
	if h.Mode == "" {
		cur, err := f.current(ctx, h.Channel)
		if err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		tell(f.describe(ctx, cur) + "\n" + hereUsage())
		return nil
	}
	refusal, notNow := f.editorCheck(ctx, h.User, h.Channel, "")
	if refusal != "" {
		if !notNow {
			rec := bot.RefusalRecord(h.Team, h.Channel, h.User, askCommand+" here", h.Mode)
			rec.Work = w.Key
			f.auditWork(ctx, w, "refused", rec)
		}
		tell(refusal)
		return nil
	}
	m := store.ChannelMode{Channel: h.Channel, Mode: h.Mode, By: h.User, At: f.cfg.Now(), Workspace: bot.WorkspaceOf(ctx)}
	err := f.store.Modes.SetMode(ctx, m)
	f.modes.forget() // even on an error: the mode may have been set
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	f.auditWork(ctx, w, "audited", store.AuditRecord{Team: h.Team, Channel: h.Channel, User: h.User, Action: AuditMode,
		Outcome: "ok", Detail: h.Mode})
	log.Info("the channel's answer mode is set", "mode", h.Mode)
	tell("Done: in this channel, " + modeWords[h.Mode] + ".")
	return nil
}

// Mode is a channel's answer mode and where it comes from.
type Mode struct {
	Channel string
	Mode    string
	// By and At say who set it and when; By is "" for a mode of the
	// settings (FromSettings) or the default.
	By string
	At time.Time
	// FromSettings is set for a mode of DOCSBOT_ANSWER_CHANNELS.
	FromSettings bool
}

// current is channel's mode: the one set with the command, else the
// settings', else bot.ModeMention.
func (f *Feature) current(ctx context.Context, channel string) (Mode, error) {
	m, err := f.store.Modes.Mode(ctx, channel)
	switch {
	case err == nil:
		return Mode{Channel: channel, Mode: m.Mode, By: m.By, At: m.At}, nil
	case !errors.Is(err, store.ErrNotFound):
		return Mode{}, err
	}
	if mode, ok := f.cfg.Channels[channel]; ok {
		return Mode{Channel: channel, Mode: mode, FromSettings: true}, nil
	}
	return Mode{Channel: channel, Mode: bot.ModeMention}, nil
}

// AnswerMode is channel's answer mode, what the answerer reads:
// bot.ModePrivate when it cannot be read now, said in the log: the channel
// may be private, and an answer shown to its asker alone shows nothing
// that the mode may keep from the others.
func (f *Feature) AnswerMode(ctx context.Context, channel string) string {
	if channel == "" {
		return bot.ModeMention
	}
	m, err := f.mode(ctx, channel)
	if err != nil {
		f.log.Warn("could not read the channel's answer mode; answering privately", "channel", channel, "err", err)
		return bot.ModePrivate
	}
	return m
}

// mode is a channel's answer mode, read at most once a modeFresh
// (modecache.go).
func (f *Feature) mode(ctx context.Context, channel string) (string, error) {
	kept, ok, gen := f.modes.get(channel, time.Now())
	if ok {
		return kept.Mode, nil
	}
	m, err := f.current(ctx, channel)
	if err != nil {
		return "", err
	}
	f.modes.put(m, gen, time.Now())
	return m.Mode, nil
}

// Channels are the channels whose mode is not the default, each with the
// hour's throttle when it answers unasked: what the Home lists for editors.
func (f *Feature) Channels(ctx context.Context) ([]ChannelState, error) {
	set, err := f.store.Modes.Modes(ctx)
	if err != nil {
		return nil, err
	}
	byChannel := map[string]Mode{}
	for ch, mode := range f.cfg.Channels {
		byChannel[ch] = Mode{Channel: ch, Mode: mode, FromSettings: true}
	}
	for _, m := range set {
		byChannel[m.Channel] = Mode{Channel: m.Channel, Mode: m.Mode, By: m.By, At: m.At}
	}
	var out []ChannelState
	for _, m := range byChannel {
		if m.Mode == bot.ModeMention && !m.FromSettings && m.By == "" {
			continue
		}
		st := ChannelState{Mode: m}
		if m.Mode == bot.ModeAuto || m.Mode == bot.ModePrivate {
			g, err := f.store.Limits.Room(ctx, f.throttle(m.Channel, ""))
			if err != nil {
				return nil, err
			}
			if throttled(g) {
				st.ThrottledFor = g.RetryAfter
			}
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b ChannelState) int { return strings.Compare(a.Channel, b.Channel) })
	return out, nil
}

// HelpLines are Channels as lines of the Home (home.HelpChannels).
func (f *Feature) HelpLines(ctx context.Context) ([]string, error) {
	states, err := f.Channels(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range states {
		out = append(out, s.Line(f.cfg.Now()))
	}
	return out, nil
}

// ChannelState is a channel's mode and whether its answers of the hour ran
// out.
type ChannelState struct {
	Mode
	// ThrottledFor is how long until the channel is answered unasked
	// again; 0 when it is.
	ThrottledFor time.Duration
}

// Line is the state as a line of the Home.
func (s ChannelState) Line(now time.Time) string {
	line := "<#" + s.Channel + ">: *" + s.Mode.Mode + "*"
	switch {
	case s.FromSettings:
		line += " (DOCSBOT_ANSWER_CHANNELS)"
	case s.By != "":
		line += " (set by " + mrkdwn.Mention(s.By) + ")"
	}
	if s.ThrottledFor > 0 {
		line += ": answered as many questions as an hour allows; questions get 👀 until answers resume " + humanize.In(s.ThrottledFor, now)
	}
	return line
}

// describe is a channel's mode in words, for /docs-ask here.
func (f *Feature) describe(ctx context.Context, m Mode) string {
	s := "In this channel the mode is *" + m.Mode + "*: " + modeWords[m.Mode] + "."
	switch {
	case m.By != "":
		s += " " + mrkdwn.Mention(m.By) + " set it " + humanize.Ago(f.cfg.Now().Sub(m.At)) + "."
	case m.FromSettings:
		s += " It is set in docsbot's settings (DOCSBOT_ANSWER_CHANNELS)."
	}
	if m.Mode == bot.ModeAuto || m.Mode == bot.ModePrivate {
		if g, err := f.store.Limits.Room(ctx, f.throttle(m.Channel, "")); err == nil && throttled(g) {
			s += " It had as many answers as an hour allows (" + humanize.Count(int64(f.cfg.PerChannel)) +
				"): questions get 👀 until answers resume " + humanize.In(g.RetryAfter, f.cfg.Now()) + "."
		}
	}
	return s
}

// throttled reports whether a look at a channel's share (Limits.Room,
// which takes nothing, so grants no tokens) found it spent.
func throttled(g store.Grant) bool { return g.Refused != store.RefusedNone || g.Blocked }

// throttle is the channel's share of unasked answers an hour, the take of
// the work id (none to look).
func (f *Feature) throttle(channel, id string) store.Draw {
	return store.Draw{Budget: store.Budget{Name: "auto:" + channel, Limit: f.cfg.PerChannel, Window: time.Hour}, ID: id}
}

// ParseChannels reads DOCSBOT_ANSWER_CHANNELS: comma-separated
// channel:mode pairs, such as "C123:auto,C456:private", each channel a
// channel id (C…, G…) once and each mode one of bot.AnswerModeNames.
func ParseChannels(v string) (map[string]string, error) {
	out := map[string]string{}
	for _, pair := range strings.Split(v, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		ch, mode, ok := strings.Cut(pair, ":")
		ch, mode = strings.TrimSpace(ch), strings.ToLower(strings.TrimSpace(mode))
		switch {
		case !ok || !bot.IsSlackID(ch, "CG"):
			return nil, fmt.Errorf("helpchannels: %q is not channel:mode with a channel id", pair)
		case !slices.Contains(bot.AnswerModeNames, mode):
			return nil, fmt.Errorf("helpchannels: %q names no mode (%s)", pair, strings.Join(bot.AnswerModeNames, ", "))
		}
		if _, dup := out[ch]; dup {
			return nil, fmt.Errorf("helpchannels: the channel %s is given twice", ch)
		}
		out[ch] = mode
	}
	return out, nil
}
