package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// TestQuestionShares: a member's questions are drawn within
// DOCSBOT_ASK_PER_USER, a guest's or another organisation's person's
// (an Outsider) within DOCSBOT_ASK_PER_GUEST, both under one name and named
// by the answer's work; a refusal of the share names whose it is.
func TestQuestionShares(t *testing.T) {
	t.Parallel()
	member := bot.Spender{Team: "T0TEST", User: "U0ALICE"}
	outsider := bot.Spender{Team: "T0TEST", User: "U0ALICE", Outsider: true}
	for _, tc := range []struct {
		name       string
		limits     bot.QuestionLimits
		who        bot.Spender
		wantShare  int
		wantBudget int
		wantWords  string
	}{
		{"a member, the defaults", bot.QuestionLimits{}, member, bot.DefaultQuestionsPerUser, bot.DefaultQuestionBudget, "for one person"},
		{"a guest, the defaults", bot.QuestionLimits{}, outsider, bot.DefaultQuestionsPerGuest, bot.DefaultQuestionBudget, "for a guest or a person of another organisation"},
		{"a guest, set", bot.QuestionLimits{Budget: 50, PerUser: 10, PerGuest: 2}, outsider, 2, 50, "You asked 2 questions"},
		{"a member, set", bot.QuestionLimits{Budget: 50, PerUser: 1, PerGuest: 2}, member, 1, 50, "You asked 1 question in"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.limits.QuestionDraw(tc.who, "ask:ev:1")
			if d.Share != tc.wantShare || d.Budget.Limit != tc.wantBudget || d.Budget.Name != bot.QuestionBudgetName {
				t.Errorf("draw %+v, want share %d of %s's %d", d, tc.wantShare, bot.QuestionBudgetName, tc.wantBudget)
			}
			if d.Who != "T0TEST:U0ALICE" || d.ID != "q:ask:ev:1" {
				t.Errorf("draw of %q named %q, want T0TEST:U0ALICE whichever the share, named q:ask:ev:1", d.Who, d.ID)
			}
			g := store.Grant{Refused: store.RefusedShare, RetryAfter: time.Minute}
			if got := tc.limits.Refusal(tc.who, g, time.Now()); !strings.Contains(got, tc.wantWords) {
				t.Errorf("refusal %q, want it to say %q", got, tc.wantWords)
			}
		})
	}
}

// TestQuestionBudgetPerWorkspace: in install mode each workspace has the
// whole budget of questions; with one workspace there is one budget, named
// as before.
func TestQuestionBudgetPerWorkspace(t *testing.T) {
	t.Parallel()
	cases := []struct {
		perWorkspace bool
		team, want   string
	}{
		{false, "T1", bot.QuestionBudgetName},
		{true, "T1", bot.QuestionBudgetName + ":T1"},
		{true, "T2", bot.QuestionBudgetName + ":T2"},
	}
	for _, c := range cases {
		d := bot.QuestionLimits{PerWorkspace: c.perWorkspace}.QuestionDraw(bot.Spender{Team: c.team, User: "U1"}, "work")
		if d.Budget.Name != c.want {
			t.Errorf("per workspace %t, team %s: budget %q, want %q", c.perWorkspace, c.team, d.Budget.Name, c.want)
		}
	}
}
