package settings

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// doClear clears the setting the press names (a workspace-wide one of the
// table), for an admin of the workspace it came from (presses), from the
// inbox: the environment's applies again. The setting is cleared once
// (mark cleared, whose value is the telling), then told in the admin's DM
// and Home (tell).
func (s *settings) doClear(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) error {
	team, user, key := ic.Team.ID, ic.User.ID, pressed(ic)
	if st := row(key); st.PerChannel || st.Env == "" || st.Kind == KindDigest {
		return nil // no setting of the table's: a payload of another version
	}
	told, err := w.Step(ctx, "cleared", func(ctx context.Context) (string, error) {
		changes, err := s.apply(ctx, team, user, []store.WorkspaceSetting{{Key: key}})
		if err != nil {
			return "", fmt.Errorf("clearing a setting: %w", err)
		}
		req, ok := s.toldOf(team, user, changes)
		if !ok {
			return "", bot.ErrNoMark // cleared already: nothing to tell
		}
		b, err := json.Marshal(req)
		return string(b), err
	})
	return s.tellStep(ctx, w, told, err)
}
