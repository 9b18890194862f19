package settings

import (
	"context"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// decideClear decides the clearing of the setting the press names (a
// workspace-wide one of the table; presses): its value set in Slack gives
// way to the environment's. Nothing set in Slack: nothing to clear or tell.
func (s *settings) decideClear(ctx context.Context, ic slack.InteractionCallback) (pressDecision, error) {
	team, user, key := ic.Team.ID, ic.User.ID, pressed(ic)
	st := row(key)
	if st.PerChannel || st.Env == "" || st.Kind == KindDigest {
		return pressDecision{}, bot.ErrNoMark // no setting of the table's: a payload of another version
	}
	all, err := s.store.Settings.All(ctx, team)
	if err != nil {
		return pressDecision{}, fmt.Errorf("reading the workspace's settings: %w", err)
	}
	if all[key].Value == "" {
		return pressDecision{}, bot.ErrNoMark
	}
	told, _ := s.toldOf(team, user, []change{{Setting: st, Old: all[key].Value}})
	return pressDecision{Told: told}, nil
}

// writeClear clears the setting the press names; clearing it again
// changes nothing.
func (s *settings) writeClear(ctx context.Context, ic slack.InteractionCallback, _ pressDecision) error {
	_, err := s.apply(ctx, ic.Team.ID, ic.User.ID, []store.WorkspaceSetting{{Key: pressed(ic)}})
	return err
}
