package bot

import (
	"fmt"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// The docs API allows 100 analytics requests per organisation and hour,
// shared by all its analytics endpoints. Every feature that asks them
// (the visitors, and any other) spends from one budget per organisation:
// AnalyticsLimits.Draw names it and bounds what one spender may take, and
// the feature takes it with store.Limits.Draw through its own interface.

// AnalyticsLimits are the limits every feature keeps when it spends the
// docs API's analytics requests. The zero value is the defaults; a value
// with any field set is taken as it is (Budget 0 still meaning the
// default), so that 0 PerUser, 0 PerGuest and 0 DigestReserve can mean
// none.
type AnalyticsLimits struct {
	// Budget is the number of analytics requests all replicas together may
	// send per hour for one organisation (DOCSBOT_ANALYTICS_BUDGET): the
	// implicit project's, or the projects naming one visitors_budget.
	Budget int
	// PerUser is one person's share of Budget per hour
	// (DOCSBOT_ANALYTICS_PER_USER), so that one person cannot spend the
	// whole hour's; 0 gives no share of one's own.
	PerUser int
	// PerGuest is the share of a guest or a person of another organisation
	// (Spender.Outsider) instead of PerUser (DOCSBOT_ANALYTICS_PER_GUEST);
	// 0 gives them no share of their own.
	PerGuest int
	// DigestReserve is the last part of Budget that people's requests may
	// not use, kept for the scheduled digests
	// (DOCSBOT_ANALYTICS_DIGEST_RESERVE); 0 keeps none.
	DigestReserve int
}

// The defaults of AnalyticsLimits; cmd/docsbot's settings table shows them.
const (
	// DefaultAnalyticsBudget is the docs API's analytics limit per
	// organisation and hour.
	DefaultAnalyticsBudget        = 100
	DefaultAnalyticsPerUser       = 20
	DefaultAnalyticsPerGuest      = 5
	DefaultAnalyticsDigestReserve = 10
)

// AnalyticsWindow is the period of the docs API's analytics limit.
const AnalyticsWindow = time.Hour

func (l AnalyticsLimits) withDefaults() AnalyticsLimits {
	if l == (AnalyticsLimits{}) {
		return AnalyticsLimits{Budget: DefaultAnalyticsBudget, PerUser: DefaultAnalyticsPerUser, PerGuest: DefaultAnalyticsPerGuest,
			DigestReserve: DefaultAnalyticsDigestReserve}
	}
	if l.Budget <= 0 {
		l.Budget = DefaultAnalyticsBudget
	}
	if l.PerUser <= 0 || l.PerUser > l.Budget {
		l.PerUser = 0 // no share narrower than the budget
	}
	if l.PerGuest <= 0 || l.PerGuest > l.Budget {
		l.PerGuest = 0
	}
	l.DigestReserve = min(max(l.DigestReserve, 0), l.Budget-1)
	return l
}

// Analytics is the limits of the docs API's analytics requests
// (Config.Analytics, its defaults filled in), for every feature that
// spends them.
func (b *Bot) Analytics() AnalyticsLimits { return b.cfg.Analytics }

// Spender is who spends analytics requests: a person (Team and User), or,
// the zero Spender, docsbot's scheduled work (the digests), which has no
// share and may use the reserve.
type Spender struct {
	Team, User string
	// Outsider says the person is a guest or of another organisation, or
	// that Slack could not say who they are: their share is PerGuest.
	Outsider bool
}

// Scheduled reports the spender of scheduled work.
func (s Spender) Scheduled() bool { return s.User == "" }

// Spender is user of team, whom s is the sight of, as a spender of
// analytics requests: one whose Sight leaves readers' words out (a guest, a
// person of another organisation, someone Slack cannot say) is an
// Outsider, with the smaller share. Every feature drawing for a person
// takes its Spender here: b.Sight(ctx, user, "").Spender(team, user).
func (s Sight) Spender(team, user string) Spender {
	return Spender{Team: team, User: user, Outsider: !s.Words}
}

// Share is s's share of the budget per hour: PerGuest for an Outsider,
// PerUser for the others; 0 for none of their own.
func (l AnalyticsLimits) Share(s Spender) int {
	l = l.withDefaults()
	if s.Outsider {
		return l.PerGuest
	}
	return l.PerUser
}

// AnalyticsBudgetName names the analytics budget project p draws on: the
// implicit project's "analytics" (as before projects), a project of the
// file "analytics:" and its visitors_budget, which projects of one
// organisation share.
func AnalyticsBudgetName(p project.Project) string {
	if ProjectKey(p) == "" {
		return "analytics"
	}
	name := p.VisitorsBudget
	if name == "" {
		name = p.Name
	}
	return "analytics:" + name
}

// Draw is what s may take from p's analytics budget: a person no more than
// their share (PerUser, PerGuest for an Outsider) and never the reserve
// (DigestReserve); scheduled work the whole budget. A person's share is
// kept under one name whichever it is, so that one who becomes a guest
// keeps what they spent.
func (l AnalyticsLimits) Draw(p project.Project, s Spender) store.Draw {
	l = l.withDefaults()
	d := store.Draw{Budget: store.Budget{Name: AnalyticsBudgetName(p), Limit: l.Budget, Window: AnalyticsWindow}}
	if s.Scheduled() {
		return d
	}
	d.Keep = l.DigestReserve
	if share := l.Share(s); share > 0 {
		d.Who, d.Share = s.Team+":"+s.User, share
	}
	return d
}

// Pool is what a feature's own pool of requests, named pool, may take from
// p's budget, whoever's action spends them (the unfurls': a link posted is
// not a person asking for figures): share requests an hour, never the
// digests' reserve. The pool's share is kept in the store beside the
// people's, under a name no person's can take.
func (l AnalyticsLimits) Pool(p project.Project, pool string, share int) store.Draw {
	l = l.withDefaults()
	return store.Draw{Budget: store.Budget{Name: AnalyticsBudgetName(p), Limit: l.Budget, Window: AnalyticsWindow}, Keep: l.DigestReserve,
		Who: "pool:" + pool, Share: max(1, min(share, l.Budget))}
}

// Refusal is what the person s reads when a draw of need requests was
// refused (g): how many they have left, when enough is back, and which
// limit is why (their share, named as s's, the digests' reserve, the
// budget, or the docs API asking to wait).
func (l AnalyticsLimits) Refusal(s Spender, g store.Grant, need int, now time.Time) string {
	l = l.withDefaults()
	yours := fmt.Sprintf("your share of %d analytics requests an hour", l.Share(s))
	if s.Outsider {
		yours += " as a guest or a person of another organisation"
	}
	when := humanize.In(g.RetryAfter, now)
	left := "You have " + requestsLeft(g.Remaining) + " of this hour's analytics requests"
	switch {
	case g.Blocked:
		return "The docs API's rate limit for analytics is reached, so docsbot is not asking it for now. Try again " + when + "."
	case g.Refused == store.RefusedShare && g.RetryAfter <= 0:
		return fmt.Sprintf("This takes about %d requests to the docs API, more than %s "+
			"(each person has a share, so that nobody spends the whole hour's %d). Try a shorter range.", need, yours, l.Budget)
	case g.Refused == store.RefusedShare:
		return fmt.Sprintf("This takes about %d requests to the docs API, and you have used most of %s "+
			"(each person has a share, so that nobody spends the whole hour's %d). %s; enough of your share is back %s.", need, yours, l.Budget, left, when)
	case g.Refused == store.RefusedKeep && g.RetryAfter <= 0:
		return fmt.Sprintf("This takes about %d requests to the docs API, more than the %d of the hour's %d analytics requests people may spend "+
			"(the last %d are kept for the scheduled digests). Try a shorter range.", need, l.Budget-l.DigestReserve, l.Budget, l.DigestReserve)
	case g.Refused == store.RefusedKeep:
		return fmt.Sprintf("This takes about %d requests to the docs API, and what is left of docsbot's %d analytics requests an hour is the reserve "+
			"kept for the scheduled digests (the last %d). %s; enough is free again %s.", need, l.Budget, l.DigestReserve, left, when)
	case g.RetryAfter <= 0:
		return fmt.Sprintf("This range takes about %d requests to the docs API, more than the %d an hour it allows for analytics. Try a shorter range.", need, l.Budget)
	}
	return fmt.Sprintf("docsbot has used its budget of %d analytics requests an hour (shared by all its replicas). %s; it frees up %s.", l.Budget, left, when)
}

// requestsLeft reads like "none left", "1 left", "12 left".
func requestsLeft(n int) string {
	if n <= 0 {
		return "none left"
	}
	return fmt.Sprintf("%d left", n)
}
