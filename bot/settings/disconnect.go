package settings

import (
	"context"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// decideDisconnect decides the disconnect of the project the press names
// (presses): the connected project of that name, retired from now, and
// what that tells. None such: the presser is told so, nothing is decided.
func (s *settings) decideDisconnect(ctx context.Context, ic slack.InteractionCallback) (pressDecision, error) {
	team, user, name := ic.Team.ID, ic.User.ID, pressed(ic)
	if !s.core.ConnectsInSlack() {
		s.answer(ctx, ic, notConnectable, "Disconnect")
		return pressDecision{}, bot.ErrNoMark
	}
	list, _, err := s.store.Connections.List(ctx, team)
	if err != nil {
		return pressDecision{}, fmt.Errorf("reading the connected docs projects: %w", err)
	}
	for _, c := range list {
		if c.Name != name || !c.Retired.IsZero() {
			continue
		}
		d := pressDecision{Retired: s.cfg.Now()}
		d.Told = toldRequest{Team: team, User: user, Key: "disconnect:" + name + ":" + d.Retired.Format("20060102T150405.000"),
			Audits:  []string{fmt.Sprintf("disconnected the docs project `%s` (project id %s)", name, c.ProjectID)},
			Confirm: "The docs project *" + mrkdwn.Escape(name) + "* is disconnected: nothing new starts in it. Jobs already running in it are still followed to the end."}
		return d, nil
	}
	s.answer(ctx, ic, "The docs project `"+mrkdwn.Escape(mrkdwn.Cut(name, 40))+"` is not connected here (any more).", "Disconnect")
	return pressDecision{}, bot.ErrNoMark
}

// writeDisconnect retires the project d decided on, at d.Retired, unless it
// is retired already (an earlier attempt, another admin): a write made
// again leaves it as it is.
func (s *settings) writeDisconnect(ctx context.Context, ic slack.InteractionCallback, d pressDecision) error {
	team, name := ic.Team.ID, pressed(ic)
	list, _, err := s.store.Connections.List(ctx, team)
	if err != nil {
		return fmt.Errorf("reading the connected docs projects: %w", err)
	}
	for _, c := range list {
		if c.Name != name || !c.Retired.IsZero() {
			continue
		}
		c.Retired = d.Retired
		if err := s.store.Connections.Save(ctx, c); err != nil {
			return fmt.Errorf("disconnecting a docs project: %w", err)
		}
	}
	s.core.ConnectedChanged(team)
	return nil
}
