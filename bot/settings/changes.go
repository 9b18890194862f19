package settings

import (
	"context"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// changed ends a change of team's docs projects by user, answered before
// it was made (a button's, acked at once): audited, then told.
func (s *settings) changed(ctx context.Context, team, user, key, detail, confirm string) {
	s.audit(ctx, team, user, key, detail)
	s.projectsTold(ctx, team, user, key, confirm)
}

// audit records a change of team's settings by user (settings.change,
// detail saying what changed, never a key's text; key names the change).
// A change made in a modal's ack is audited before the ack, so that
// nothing saved goes unaudited.
func (s *settings) audit(ctx context.Context, team, user, key, detail string) {
	s.core.Audit().Record(ctx, store.AuditRecord{Team: team, User: user, Action: store.AuditSettings, Outcome: "ok",
		Detail: detail, Work: "settings:" + key})
}

// projectsTold ends a change of team's docs projects, audited: this
// replica forgets what it read of them (the others when they hear of it),
// and user is told (confirm). It runs after the ack.
func (s *settings) projectsTold(ctx context.Context, team, user, key, text string) {
	s.core.ConnectedChanged(team)
	s.confirm(ctx, team, user, key, text)
}

// confirm tells user privately, in their DM with docsbot, what changed,
// and the Home hooks. A failure to confirm is logged: the change is made,
// and the Home shows it.
func (s *settings) confirm(ctx context.Context, team, user, key, text string) {
	if _, _, err := s.core.SlackIn(ctx).PostMessageContext(ctx, user, slack.MsgOptionText(text, false)); err != nil {
		s.log.Warn("a change of settings could not be confirmed to its admin", "user", user, "err", err)
	}
	s.tellChanged(ctx, team, user, key)
}

// refused audits a settings action refused to user (the admin check).
func (s *settings) refused(ctx context.Context, team, user, what, refusal string) {
	s.core.Audit().Record(ctx, store.AuditRecord{Team: team, User: user, Action: store.AuditRefusal, Outcome: "refused",
		Detail: "settings: " + what + ": not an admin", Instruction: refusal})
}

// change is one setting changed: its row, its channel for a channel's,
// and its value before and after ("" for none set in Slack: the
// environment's).
type change struct {
	Setting
	Channel  string
	Old, New string
}

// what names the setting, in the audit's words.
func (c change) what() string {
	if c.Channel != "" {
		return c.Label + " of channel " + c.Channel
	}
	return c.Label
}

// audit is the change in the audit trail's words.
func (c change) audit() string {
	return fmt.Sprintf("set %s (over %s) to %s, was %s", c.what(), c.Env, c.quoted(c.New), c.quoted(c.Old))
}

// quoted is the value v of c in the audit trail's words.
func (c change) quoted(v string) string {
	if v == "" && c.Kind == KindDigest {
		return "none"
	}
	return quoted(v)
}

// line is the change in the confirmation's words.
func (c change) line() string {
	where := ""
	if c.Channel != "" {
		where = " in <#" + c.Channel + ">"
	}
	return "• *" + c.Label + "*" + where + ": " + c.shown(c.New) + " (was " + c.shown(c.Old) + ")"
}

// shown is the value v of c as the Home and the confirmation show it.
func (c change) shown(v string) string {
	switch {
	case v == "" && c.Kind == KindSwitch:
		return "*on*"
	case v == "" && c.Kind == KindDigest:
		return "no channel"
	case v == "":
		return "the environment's, `" + c.Env + "`"
	}
	return show(c.Kind, v)
}

func quoted(v string) string {
	if v == "" {
		return "none (the environment's)"
	}
	return fmt.Sprintf("%q", v)
}

// apply saves sets, team's settings set by user (Value "" clears one),
// and forgets what this replica read of them; it returns those whose
// value changed. Nothing to save: nothing.
func (s *settings) apply(ctx context.Context, team, user string, sets []store.WorkspaceSetting) ([]change, error) {
	if len(sets) == 0 {
		return nil, nil
	}
	now := s.cfg.Now()
	for i := range sets {
		sets[i].By, sets[i].At = user, now
	}
	old, err := s.store.Settings.Apply(ctx, team, sets)
	if err != nil {
		s.log.Error("settings set in Slack could not be saved", "team", team, "err", err)
		return nil, err
	}
	s.core.SettingsChanged(team)
	var out []change
	for _, set := range sets {
		if old[set.Key].Value == set.Value {
			continue
		}
		c := change{Setting: row(set.Key), Old: old[set.Key].Value, New: set.Value}
		if rest, ok := strings.CutPrefix(set.Key, "channel:"); ok {
			c.Channel, c.Key, _ = strings.Cut(rest, ":")
			c.Setting = row(c.Key)
		}
		out = append(out, c)
	}
	return out, nil
}

// save saves sets and answers the submission r of team's admin user:
// on its input block when they cannot be saved, else closed, then each
// change (those of done too) audited and confirmed.
func (s *settings) save(ctx context.Context, r *bot.InteractionRequest, team, user, block string, sets []store.WorkspaceSetting, done ...change) {
	changes, err := s.apply(ctx, team, user, sets)
	if err != nil {
		fail(r, block, storageTrouble)
		return
	}
	r.Ack(nil)
	s.told(ctx, team, user, append(done, changes...))
}

// saveRows answers the submission r of modal (what names it for the audit
// of a refusal) by its rows of the table: the admin check, then each row's
// value read by value (keep: left as it is; a problem is shown on its
// input block), then the changes saved.
func (s *settings) saveRows(ctx context.Context, r *bot.InteractionRequest, modal, what string,
	value func(f form, st Setting) (v string, keep bool, block, problem string)) {
	rows := rowsOf(modal)
	team, user, ok := s.admitted(ctx, r, rows[0].Key, what)
	if !ok {
		return
	}
	f := formOf(r.Interaction)
	var sets []store.WorkspaceSetting
	for _, st := range rows {
		v, keep, block, problem := value(f, st)
		switch {
		case problem != "":
			fail(r, block, problem)
			return
		case !keep:
			sets = append(sets, store.WorkspaceSetting{Key: st.Key, Value: v})
		}
	}
	s.save(ctx, r, team, user, rows[0].Key, sets)
}

// pressed is the value of the button pressed in ic, "" for none.
func pressed(ic slack.InteractionCallback) string {
	if len(ic.ActionCallback.BlockActions) == 0 {
		return ""
	}
	return ic.ActionCallback.BlockActions[0].Value
}

// told ends a change of settings that changed what changes say: each an
// audit record, one confirmation of them all, the admin's Home published
// again. Nothing changed: nothing to tell.
func (s *settings) told(ctx context.Context, team, user string, changes []change) {
	if len(changes) == 0 {
		return
	}
	key := "set:" + s.cfg.Now().Format("20060102T150405.000")
	lines := []string{"✅ docsbot's settings changed in this workspace, in force within 5 seconds:"}
	for i, c := range changes {
		s.audit(ctx, team, user, fmt.Sprintf("%s:%d", key, i), c.audit())
		lines = append(lines, c.line())
	}
	s.confirm(ctx, team, user, key, strings.Join(lines, "\n"))
}

// onClear clears the setting its value names (a workspace-wide one of the
// table), for an admin of the workspace the press came from: the
// environment's applies again. The answer is the admin's DM and Home; a
// refusal is a modal (the Home has no place for a private message).
func (s *settings) onClear(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	r.Ack(nil)
	team, user, key := ic.Team.ID, ic.User.ID, pressed(ic)
	if refusal := s.core.AdminRefusal(ctx, user); refusal != "" {
		s.show(ctx, ic, noticeModal(refusal), "Clear")
		s.refused(ctx, team, user, "clear "+mrkdwn.Cut(key, 40), refusal)
		return
	}
	if st := row(key); st.PerChannel || st.Env == "" || st.Kind == KindDigest {
		return // no setting of the table's: a payload of another version
	}
	changes, err := s.apply(ctx, team, user, []store.WorkspaceSetting{{Key: key}})
	if err != nil {
		s.show(ctx, ic, noticeModal(storageTrouble), "Clear")
		return
	}
	s.told(ctx, team, user, changes)
}
