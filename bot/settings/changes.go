package settings

import (
	"context"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/store"
)

// changed ends a change of the settings of team by user: audited
// (settings.change, detail: what changed, never a key's text), confirmed
// to user in their DM with docsbot (confirm), and the Home hooks told
// (key names the change). It runs after the ack; a failure to confirm is
// logged: the change is made, and the Home shows it.
func (s *settings) changed(ctx context.Context, team, user, key, detail, confirm string) {
	s.core.Audit().Record(ctx, store.AuditRecord{Team: team, User: user, Action: store.AuditSettings, Outcome: "ok",
		Detail: detail, Work: "settings:" + key})
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
