package settings

import (
	"context"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/store"
)

// audit records a change of the settings of team by user, saved:
// settings.change, detail saying what changed, never a key's text; key
// names the change. It runs before the ack, so that nothing saved goes
// unaudited.
func (s *settings) audit(ctx context.Context, team, user, key, detail string) {
	s.core.Audit().Record(ctx, store.AuditRecord{Team: team, User: user, Action: store.AuditSettings, Outcome: "ok",
		Detail: detail, Work: "settings:" + key})
}

// told ends a change of the settings of team by user, audited: the
// replica forgets what it read of them, user is told (confirm) in their
// DM with docsbot, and the Home hooks (key names the change). It runs
// after the ack; a failure to confirm is logged: the change is made, and
// the Home shows it.
func (s *settings) told(ctx context.Context, team, user, key, confirm string) {
	s.core.ConnectedChanged(team)
	if _, _, err := s.core.SlackIn(ctx).PostMessageContext(ctx, user, slack.MsgOptionText(confirm, false)); err != nil {
		s.log.Warn("a change of settings could not be confirmed to its admin", "user", user, "err", err)
	}
	s.tellChanged(ctx, team, user, key)
}

// refused audits a settings action refused to user (the admin check).
func (s *settings) refused(ctx context.Context, team, user, what, refusal string) {
	s.core.Audit().Record(ctx, store.AuditRecord{Team: team, User: user, Action: store.AuditRefusal, Outcome: "refused",
		Detail: "settings: " + what + ": not an admin", Instruction: refusal})
}

// changed is audit and told at once, for a change answered before it was
// made (a button's, acked at once).
func (s *settings) changed(ctx context.Context, team, user, key, detail, confirm string) {
	s.audit(ctx, team, user, key, detail)
	s.told(ctx, team, user, key, confirm)
}
