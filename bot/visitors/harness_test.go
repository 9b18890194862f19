package visitors_test

import (
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL, bottest.Parallel(4)) }

// harness is the end-to-end world of bottest, with this package's helpers.
type harness struct{ *bottest.Harness }

const (
	general = bottest.General
	alice   = "U0ALICE"
)

func newHarness(t *testing.T, apiOpts ...docsapitest.Option) *harness {
	t.Helper()
	return &harness{bottest.New(t, redisURL, apiOpts...)}
}

// rendered is what a message shows (bottest.Rendered).
func rendered(m slacktest.Message) string { return bottest.Rendered(m) }

// projectsHarness is a world whose bot serves two docs projects
// (Harness.TwoProjects): "docs", the default of #general, on the harness's
// API test server, and "api", the default of #api-docs, on a second one.
// Each server has a dataset of its own, so the two projects' numbers
// differ. A third channel, #random, has no default project.
type projectsHarness struct {
	*harness
	// APIs are the API test servers by project name; Datasets their data.
	APIs     map[string]*docsapitest.Server
	Datasets map[string]*docsapitest.Dataset
}

const (
	apiChannel    = bottest.APIChannel
	randomChannel = "C0RANDOM"
)

// newProjectsHarness builds the two-project world on the clock now (nil:
// visitorsNow). budgets are the visitors_budget of docs and api ("" for a
// budget of the project's own).
func newProjectsHarness(t *testing.T, now func() time.Time, budgets [2]string) *projectsHarness {
	t.Helper()
	return newProjectsHarnessOf(t, now, budgets, [2]int{40, 60})
}

// newProjectsHarnessOf is newProjectsHarness whose datasets of docs and api
// have the given numbers of pages (over 250: an export of several
// requests).
func newProjectsHarnessOf(t *testing.T, now func() time.Time, budgets [2]string, pages [2]int) *projectsHarness {
	t.Helper()
	if now == nil {
		now = visitorsNow
	}
	docs, api := docsapitest.NewDataset(pages[0], 2025), docsapitest.NewDataset(pages[1], 2026)
	h := newHarness(t, docsapitest.WithDataset(docs), docsapitest.WithClock(now))
	h.Slack.AddChannel(slacktest.Channel{ID: apiChannel, Name: "api-docs", BotMember: true})
	h.Slack.AddChannel(slacktest.Channel{ID: randomChannel, Name: "random", BotMember: true})
	apiSrv := h.TwoProjects(bottest.Project{VisitorsBudget: budgets[0]}, bottest.Project{VisitorsBudget: budgets[1]},
		docsapitest.WithDataset(api), docsapitest.WithClock(now))
	return &projectsHarness{harness: h,
		APIs:     map[string]*docsapitest.Server{"docs": h.API, "api": apiSrv},
		Datasets: map[string]*docsapitest.Dataset{"docs": docs, "api": api}}
}

// startBot starts a replica serving both projects, as `docsbot serve`
// builds it with a projects file (app.New), with the visitors feature only
// and the settings of cfg. The harness tracks it: Settle and StopAll stop
// it too.
func (ph *projectsHarness) startBot(cfg visitors.Config) *bot.Bot {
	ph.T.Helper()
	return ph.startBotWith(cfg, bot.AnalyticsLimits{})
}

// startBotWith is startBot with the analytics limits given (the zero value:
// the defaults).
func (ph *projectsHarness) startBotWith(cfg visitors.Config, limits bot.AnalyticsLimits) *bot.Bot {
	ph.T.Helper()
	if cfg.Now == nil {
		cfg.Now = visitorsNow
	}
	return ph.StartBot(bottest.Config{Now: cfg.Now, Config: app.Config{Bot: bot.Config{Analytics: limits}, Visitors: visitors.Config{CacheTTL: cfg.CacheTTL, Digest: cfg.Digest, DigestTick: cfg.DigestTick}, Features: []string{visitors.Name}}}).Bot
}

// visitorRequests counts the analytics requests each project's server got.
func (ph *projectsHarness) visitorRequests() map[string]int {
	out := map[string]int{}
	for name, srv := range ph.APIs {
		out[name] = srv.Count(docsapitest.EndpointVisitors)
	}
	return out
}
