package install

import (
	"cmp"
	"context"
	"errors"

	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// onRemoved deletes the installation of the workspace that removed docsbot
// (app_uninstalled) or revoked its bot token (tokens_revoked), before the
// ack: every replica forgets it at once (Directory.Run), and no call is
// made with its tokens after. Left unacknowledged when Redis cannot delete
// it, so that Slack sends the event again.
func (f *Feature) onRemoved(ctx context.Context, r *bot.EventRequest) {
	if ev, ok := r.Event.InnerEvent.Data.(*slackevents.TokensRevokedEvent); ok && len(ev.Tokens.Bot) == 0 {
		r.Ack(nil) // user tokens only: docsbot keeps none
		return
	}
	ws := store.Workspace{Team: r.Event.TeamID, Enterprise: r.Event.EnterpriseID}
	in, err := f.deps.Directory.Installation(ctx, ws)
	switch {
	case errors.Is(err, errNotInstalled):
		r.Ack(nil)
		return
	case err != nil:
		f.core.Logger().Warn("cannot read the installation of a workspace that removed docsbot; Slack will send it again", "team", ws.Team, "err", err)
		return
	}
	if _, err := f.deps.Installations.Delete(ctx, in.ID()); err != nil {
		f.core.Logger().Warn("cannot delete the installation of a workspace that removed docsbot; Slack will send it again", "installation", in.ID(), "err", err)
		return
	}
	f.deps.Directory.Forget(in.ID())
	f.core.Audit().Record(ctx, store.AuditRecord{Team: cmp.Or(ws.Team, ws.Enterprise), Action: store.AuditRemove,
		Outcome: r.Event.InnerEvent.Type, Work: "remove:" + in.ID() + ":" + r.DeliveryID})
	f.core.Logger().Info("docsbot removed from a workspace; its tokens are deleted", "installation", in.ID(), "event", r.Event.InnerEvent.Type)
	r.Ack(nil)
}
