package settings

import (
	"context"
	"fmt"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// audit records a change of team's settings by user (settings.change,
// detail saying what changed, never a key's text; key names the change).
// A change is audited before the ack that answers it, or by the work that
// tells it, queued before that ack (told.go), so that nothing saved goes
// unaudited.
func (s *settings) audit(ctx context.Context, team, user, key, detail string) {
	s.core.Audit().Record(ctx, store.AuditRecord{Team: team, User: user, Action: store.AuditSettings, Outcome: "ok",
		Detail: detail, Work: "settings:" + key})
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
// change (those of done too) told (told.go): queued before the ack, told
// at once after it when Redis cannot take the telling.
func (s *settings) save(ctx context.Context, r *bot.InteractionRequest, team, user, block string, sets []store.WorkspaceSetting, done ...change) {
	changes, err := s.apply(ctx, team, user, sets)
	if err != nil {
		fail(r, block, storageTrouble)
		return
	}
	s.told(ctx, team, user, append(done, changes...), func() { r.Ack(nil) })
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
