package bot_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/project"
)

// TestAnalyticsShares: a member draws within DOCSBOT_ANALYTICS_PER_USER, a
// guest or a person of another organisation (an Outsider) within
// DOCSBOT_ANALYTICS_PER_GUEST, both under one name, never the reserve;
// scheduled work has no share. A share of 0, or wider than the budget, is
// none of one's own.
func TestAnalyticsShares(t *testing.T) {
	t.Parallel()
	member := bot.Spender{Team: "T0TEST", User: "U0ALICE"}
	outsider := bot.Spender{Team: "T0TEST", User: "U0ALICE", Outsider: true}
	for _, tc := range []struct {
		name      string
		limits    bot.AnalyticsLimits
		who       bot.Spender
		wantShare int
		wantKeep  int
	}{
		{"a member, the defaults", bot.AnalyticsLimits{}, member, bot.DefaultAnalyticsPerUser, bot.DefaultAnalyticsDigestReserve},
		{"a guest, the defaults", bot.AnalyticsLimits{}, outsider, bot.DefaultAnalyticsPerGuest, bot.DefaultAnalyticsDigestReserve},
		{"scheduled work", bot.AnalyticsLimits{}, bot.Spender{}, 0, 0},
		{"a guest, set", bot.AnalyticsLimits{Budget: 50, PerUser: 10, PerGuest: 3}, outsider, 3, 0},
		{"a guest with no share of their own", bot.AnalyticsLimits{Budget: 50, PerUser: 10}, outsider, 0, 0},
		{"a guest's share wider than the budget", bot.AnalyticsLimits{Budget: 50, PerUser: 10, PerGuest: 60}, outsider, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.limits.Draw(project.Project{}, tc.who)
			if d.Share != tc.wantShare || d.Keep != tc.wantKeep {
				t.Errorf("draw %+v, want share %d, keep %d", d, tc.wantShare, tc.wantKeep)
			}
			if wantWho := tc.who.Team + ":" + tc.who.User; tc.wantShare > 0 && d.Who != wantWho {
				t.Errorf("draw of %q, want %q whichever the share", d.Who, wantWho)
			}
			if got := tc.limits.Share(tc.who); !tc.who.Scheduled() && got != tc.wantShare {
				t.Errorf("Share = %d, want %d", got, tc.wantShare)
			}
		})
	}
}
