package settings

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// doDisconnect disconnects the project the press names, for an admin of
// the workspace it came from (presses), from the inbox: the project
// retired once (mark retired, whose value is the telling), then told
// (tell).
func (s *settings) doDisconnect(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) error {
	team, user, name := ic.Team.ID, ic.User.ID, pressed(ic)
	if !s.core.ConnectsInSlack() {
		s.answer(ctx, ic, notConnectable, "Disconnect")
		return nil
	}
	told, err := w.Step(ctx, "retired", func(ctx context.Context) (string, error) {
		list, _, err := s.store.Connections.List(ctx, team)
		if err != nil {
			return "", fmt.Errorf("reading the connected docs projects: %w", err)
		}
		for _, c := range list {
			if c.Name != name || !c.Retired.IsZero() {
				continue
			}
			c.Retired = s.cfg.Now()
			if err := s.store.Connections.Save(ctx, c); err != nil {
				return "", fmt.Errorf("disconnecting a docs project: %w", err)
			}
			s.core.ConnectedChanged(team)
			key := "disconnect:" + name + ":" + c.Retired.Format("20060102T150405.000")
			req := toldRequest{Team: team, User: user, Key: key,
				Audits:  []string{fmt.Sprintf("disconnected the docs project `%s` (project id %s)", name, c.ProjectID)},
				Confirm: "The docs project *" + mrkdwn.Escape(name) + "* is disconnected: nothing new starts in it. Jobs already running in it are still followed to the end."}
			b, err := json.Marshal(req)
			return string(b), err
		}
		s.answer(ctx, ic, "The docs project `"+mrkdwn.Escape(mrkdwn.Cut(name, 40))+"` is not connected here (any more).", "Disconnect")
		return "", bot.ErrNoMark
	})
	return s.tellStep(ctx, w, told, err)
}
