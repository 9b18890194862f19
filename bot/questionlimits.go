package bot

import (
	"fmt"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/store"
)

// Questions to the docs assistant cost its credits, paid by the
// organisation: the workspace has a budget of them an hour, every replica
// together, and each person a share of it (a guest's or a person of another
// organisation's smaller, as for analytics). The answers take a question's
// draw when they ask (bot/ask); the help channels take the same draw, named
// by the answer's work, before they spend a channel's share of unasked
// answers or post anything for a :question:, so that a person whose share is
// spent spends nothing of the channel's, and the answers' own take of it
// later is granted again without taking (store.Draw.ID).

// QuestionLimits are the workspace's questions an hour and a person's share
// of them. The zero value of a field is its default.
type QuestionLimits struct {
	// Budget is how many questions the whole workspace may ask an hour
	// (DOCSBOT_ASK_BUDGET).
	Budget int
	// PerUser is a member's share of Budget an hour (DOCSBOT_ASK_PER_USER).
	PerUser int
	// PerGuest is the share of a guest or a person of another organisation
	// (Spender.Outsider) instead of PerUser (DOCSBOT_ASK_PER_GUEST).
	PerGuest int
	// PerWorkspace keeps a Budget for each workspace (install mode: many
	// workspaces, each with the whole budget); else one for all.
	PerWorkspace bool
}

// The defaults of QuestionLimits; cmd/docsbot's settings table shows them.
const (
	DefaultQuestionBudget    = 300
	DefaultQuestionsPerUser  = 30
	DefaultQuestionsPerGuest = 5
)

// QuestionBudgetName is the workspace's budget of questions in Redis; each
// person's share is kept beside it (store.Draw).
const QuestionBudgetName = "ask"

func (l QuestionLimits) withDefaults() QuestionLimits {
	if l.Budget <= 0 {
		l.Budget = DefaultQuestionBudget
	}
	if l.PerUser <= 0 {
		l.PerUser = DefaultQuestionsPerUser
	}
	if l.PerGuest <= 0 {
		l.PerGuest = DefaultQuestionsPerGuest
	}
	return l
}

// Share is s's share of questions an hour: PerGuest for an Outsider,
// PerUser for the others.
func (l QuestionLimits) Share(s Spender) int {
	l = l.withDefaults()
	if s.Outsider {
		return l.PerGuest
	}
	return l.PerUser
}

// QuestionDraw is the take of the question answered by the work keyed
// work (a WorkAsk's key) from the workspace's budget and s's share, named
// by that work, so that whoever takes it again (the help channels before
// the answers, an attempt after a crash) takes it once.
func (l QuestionLimits) QuestionDraw(s Spender, work string) store.Draw {
	l = l.withDefaults()
	name := QuestionBudgetName
	if l.PerWorkspace && s.Team != "" {
		name += ":" + s.Team
	}
	return store.Draw{Budget: store.Budget{Name: name, Limit: l.Budget, Window: time.Hour},
		Who: s.Team + ":" + s.User, Share: l.Share(s), ID: "q:" + work}
}

// Refusal is what the person s reads when a question's draw was refused
// (g): which limit, and when they can ask again.
func (l QuestionLimits) Refusal(s Spender, g store.Grant, now time.Time) string {
	l = l.withDefaults()
	again := humanize.In(g.RetryAfter, now)
	switch {
	case g.Refused == store.RefusedShare && s.Outsider:
		return fmt.Sprintf("You asked %s in the last hour, as many as docsbot answers for a guest or a person of another organisation. "+
			"You can ask again %s.", questionCount(l.PerGuest), again)
	case g.Refused == store.RefusedShare:
		return fmt.Sprintf("You asked %s in the last hour, as many as docsbot answers for one person. You can ask again %s.", questionCount(l.PerUser), again)
	}
	return fmt.Sprintf("This workspace asked the docs %s in the last hour, as many as docsbot answers for everyone together, "+
		"so your question was not sent. You can ask again %s.", questionCount(l.Budget), again)
}

// questionCount is n questions, in words.
func questionCount(n int) string {
	if n == 1 {
		return "1 question"
	}
	return humanize.Count(int64(n)) + " questions"
}
