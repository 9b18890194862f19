package bottest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// redisURL is the package's own redis-server (bottest.Main).
var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL, bottest.Parallel(8)) }

const (
	alice = "U0ALICE"
	bob   = "U0BOB"
	// elsewhere is a channel that is no project's default.
	elsewhere = "C0ELSEWHERE"
)

// visitorsNow is the clock of the visitors tests, shared by the bot and the
// API test servers so that "today" is the same day for all.
func visitorsNow() time.Time { return time.Date(2025, 11, 7, 15, 30, 0, 0, time.UTC) }

// twoProjects is a world of two docs projects on two API servers
// (Harness.TwoProjects): "docs", the default of #general, served by h.API,
// and "api", the default of bottest.APIChannel, served by the server
// returned; docs and p tune them. A third channel, elsewhere, is no
// project's default.
func twoProjects(t *testing.T, docs, p bottest.Project, apiOpts ...docsapitest.Option) (*bottest.Harness, *docsapitest.Server) {
	t.Helper()
	h := bottest.New(t, redisURL, apiOpts...)
	api := h.TwoProjects(docs, p, apiOpts...)
	h.Slack.AddChannel(slacktest.Channel{ID: elsewhere, Name: "elsewhere", BotMember: true})
	return h, api
}

// created returns the prompts of the jobs created on srv.
func created(srv *docsapitest.Server) []string {
	var out []string
	for _, r := range srv.Requests() {
		if r.Endpoint == docsapitest.EndpointCreate {
			out = append(out, r.Body)
		}
	}
	return out
}

// linked waits for the job id to be linked to its thread and returns its
// record.
func linked(h *bottest.Harness, st *store.Store, id string) store.Job {
	h.T.Helper()
	var j *store.Job
	h.WaitFor("job "+id+" linked to its thread", func() bool {
		var err error
		j, err = st.Jobs().Job(context.Background(), id)
		return err == nil
	})
	return *j
}

func TestProjectsJobsReachTheirProjectsAPI(t *testing.T) {
	t.Parallel()
	h, api := twoProjects(t, bottest.Project{}, bottest.Project{})
	h.StartBot(bottest.Config{})
	st := h.OpenStore()

	tests := []struct {
		name, channel, text string
		// want is the server that must get the job, other the one that
		// must not; project the key recorded.
		want, other *docsapitest.Server
		project     string
		prompt      string
	}{
		{"the default of #general", bottest.General, "Document the quickstart", h.API, api, "docs", "Document the quickstart"},
		{"the default of the api channel", bottest.APIChannel, "Document the endpoints", api, h.API, "api", "Document the endpoints"},
		{"project= overrides the channel's default", bottest.General, "project=api Document the webhooks", api, h.API, "api", "Document the webhooks"},
		{"project= at the end", bottest.APIChannel, "Fix the changelog project=docs", h.API, api, "docs", "Fix the changelog"},
	}
	for _, tt := range tests {
		wantBefore, otherBefore, jobsBefore := len(created(tt.want)), len(created(tt.other)), len(tt.want.Jobs())
		h.Command(alice, tt.channel, agent.Command, tt.text)
		// The server records a request on arrival, before the job it
		// creates exists: wait for the job itself.
		h.WaitFor(tt.name+": the job created", func() bool { return len(tt.want.Jobs()) > jobsBefore })
		jobs := tt.want.Jobs()
		j := linked(h, st, jobs[len(jobs)-1].ID)
		got := created(tt.want)
		if len(got) != wantBefore+1 {
			t.Fatalf("%s: %d jobs created on the right server, want 1", tt.name, len(got)-wantBefore)
		}
		if j.Thread.Channel != tt.channel {
			t.Errorf("%s: the job reports to %s, want %s", tt.name, j.Thread.Channel, tt.channel)
		}
		if n := len(created(tt.other)); n != otherBefore {
			t.Errorf("%s: %d jobs created on the other project's server, want 0", tt.name, n-otherBefore)
		}
		body := got[len(got)-1]
		if !strings.Contains(body, tt.prompt) || strings.Contains(body, "project=") {
			t.Errorf("%s: the job was created with %s, want the prompt %q without project=", tt.name, body, tt.prompt)
		}
		if j.Project != tt.project {
			t.Errorf("%s: the job records project %q, want %q", tt.name, j.Project, tt.project)
		}
		// The poller asks the job's own server: its result comes.
		h.WaitFor(tt.name+": the result", func() bool { return len(h.Finishes(tt.channel, j.Thread.TS)) == 1 })
	}
	h.Settle()
	if n := h.API.Count(docsapitest.EndpointGet) + api.Count(docsapitest.EndpointGet); n == 0 {
		t.Errorf("no job was polled")
	}
	for _, srv := range []*docsapitest.Server{h.API, api} {
		for _, r := range srv.Requests() {
			if r.Status == 404 {
				t.Errorf("%s %s answered 404: a job was asked of the wrong project's server", r.Method, r.Path)
			}
		}
	}
}

// summaries returns the headlines (the totals) of the in-channel posts
// made through response_urls.
func summaries(h *bottest.Harness) []string {
	var out []string
	for _, p := range h.Slack.ResponsePosts("") {
		if p.ResponseType == "in_channel" && p.Error == "" {
			out = append(out, p.Text)
		}
	}
	return out
}

// visitorsCommand types /docs-visitors in channel and waits for the
// summary it posts.
func visitorsCommand(h *bottest.Harness, channel, text string) string {
	h.T.Helper()
	n := len(summaries(h))
	h.Command(alice, channel, visitors.Command, text)
	var s []string
	h.WaitFor("the visitors summary of "+text+" in "+channel, func() bool { s = summaries(h); return len(s) > n })
	return s[len(s)-1]
}

func TestProjectsVisitorsCachesDoNotMix(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL, docsapitest.WithDataset(docsapitest.NewDataset(120, 1)), docsapitest.WithClock(visitorsNow))
	api := h.TwoProjects(bottest.Project{}, bottest.Project{}, docsapitest.WithDataset(docsapitest.NewDataset(120, 2)), docsapitest.WithClock(visitorsNow))
	h.StartBot(bottest.Config{Now: visitorsNow})

	docs := visitorsCommand(h, bottest.General, "7d")
	asked := h.API.Count(docsapitest.EndpointVisitors)
	if asked == 0 || api.Count(docsapitest.EndpointVisitors) != 0 {
		t.Fatalf("the docs summary asked the docs server %d times and the api server %d times, want some and none",
			asked, api.Count(docsapitest.EndpointVisitors))
	}
	// The same range in the api project's channel is not the docs' cache.
	other := visitorsCommand(h, bottest.APIChannel, "7d")
	if api.Count(docsapitest.EndpointVisitors) == 0 {
		t.Errorf("the api project's summary asked its server nothing: it came from the docs project's cache")
	}
	if other == docs {
		t.Errorf("the two projects' summaries are the same:\n%s", docs)
	}
	// Each project's cache answers its own channel again.
	apiAsked := api.Count(docsapitest.EndpointVisitors)
	if again := visitorsCommand(h, bottest.General, "7d"); again != docs {
		t.Errorf("the docs summary changed when cached:\n%s\nthen\n%s", docs, again)
	}
	if again := visitorsCommand(h, bottest.APIChannel, "7d"); again != other {
		t.Errorf("the api summary changed when cached:\n%s\nthen\n%s", other, again)
	}
	if n, m := h.API.Count(docsapitest.EndpointVisitors), api.Count(docsapitest.EndpointVisitors); n != asked || m != apiAsked {
		t.Errorf("cached summaries asked the servers %d and %d more times, want none", n-asked, m-apiAsked)
	}
}

func TestProjectsVisitorsBudgets(t *testing.T) {
	t.Parallel()
	const refused = "budget of 3 analytics requests an hour"
	tests := []struct {
		name string
		// docsBudget and apiBudget are the projects' visitors_budget.
		docsBudget, apiBudget string
		// shared: the api project finds the budget spent by the docs one.
		shared bool
	}{
		{"a budget each", "", "", false},
		{"one organisation's budget", "acme", "acme", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := []docsapitest.Option{docsapitest.WithDataset(docsapitest.NewDataset(613, 2025)), docsapitest.WithClock(visitorsNow)}
			h, api := twoProjects(t, bottest.Project{VisitorsBudget: tt.docsBudget}, bottest.Project{VisitorsBudget: tt.apiBudget}, opts...)
			h.StartBot(bottest.Config{Now: visitorsNow, Config: app.Config{Bot: bot.Config{Analytics: bot.AnalyticsLimits{Budget: 3}}}})

			visitorsCommand(h, bottest.General, "30d") // takes the whole budget: 3 requests
			if n := h.API.Count(docsapitest.EndpointVisitors); n != 3 {
				t.Fatalf("%d requests to the docs server, want 3", n)
			}
			h.Command(alice, bottest.APIChannel, visitors.Command, "30d")
			if tt.shared {
				h.WaitPrivate(alice, refused)
				if n := api.Count(docsapitest.EndpointVisitors); n != 0 {
					t.Errorf("%d requests to the api server on a spent shared budget, want 0", n)
				}
				return
			}
			h.WaitFor("the api project's summary", func() bool { return len(summaries(h)) == 2 })
			if n := api.Count(docsapitest.EndpointVisitors); n != 3 {
				t.Errorf("%d requests to the api server, want 3: its budget is its own", n)
			}
			for _, m := range h.Privates(alice, refused) {
				t.Errorf("a refusal with budgets of their own: %s", m.Text)
			}
		})
	}
}

func TestProjectsViewersAreRefusedPerProject(t *testing.T) {
	t.Parallel()
	// "api" has editors (Alice); "docs" has none, so everyone edits it.
	h, api := twoProjects(t, bottest.Project{}, bottest.Project{Editors: []string{alice}})
	h.StartBot(bottest.Config{})
	const refused = "Only editors can start docs agent jobs"
	refusals := func() int { return len(h.Privates(bob, refused)) }
	for i, c := range []struct{ channel, text string }{
		{bottest.APIChannel, "Rewrite the endpoints"},
		{bottest.General, "project=api Rewrite the endpoints"},
	} {
		h.Command(bob, c.channel, agent.Command, c.text)
		h.WaitFor(fmt.Sprintf("the refusal of %q in %s", c.text, c.channel), func() bool { return refusals() > i })
		if m := h.Slack.Ephemerals(bob); !strings.Contains(m[len(m)-1].Text, "<@"+alice+">") {
			t.Errorf("the refusal does not name the api project's editors: %s", m[len(m)-1].Text)
		}
	}
	// In the docs project Bob may start a job.
	h.Command(bob, bottest.General, agent.Command, "Document the glossary")
	h.WaitFor("Bob's job in the docs project", func() bool { return len(created(h.API)) == 1 })
	h.Settle()
	if n := len(api.Requests()); n != 0 {
		t.Errorf("refusing a viewer sent %d requests to the api project's server, want 0", n)
	}
	if n := refusals(); n != 2 {
		t.Errorf("%d refusals, want 2", n)
	}
}
