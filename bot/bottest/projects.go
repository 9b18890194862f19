package bottest

import (
	"fmt"
	"slices"
	"time"

	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// Project is one docs project of a world that serves several, as a
// projects file (DOCSBOT_PROJECTS_FILE) describes it. Add it with
// Harness.AddProject; bots started afterwards serve every project added,
// built like `docsbot serve` with a projects file.
type Project struct {
	// Name is what people type in project=NAME.
	Name string
	// Channels are the channel ids the project is the default of. Those the
	// fake Slack does not have yet are added, with the bot a member.
	Channels []string
	// Editors are the project's editors (user and user group ids).
	Editors []string
	// Teams are the workspaces (and organisations) the project serves in
	// install mode; empty for every one.
	Teams []string
	// VisitorsBudget is the analytics budget the project draws on; its name
	// when empty.
	VisitorsBudget string
	// API is the project's docs API test server: the harness's own (H.API)
	// may serve one project; AddProject starts a new one when nil.
	API *docsapitest.Server
}

// AddProject adds a docs project to the world and returns its docs API test
// server: p.API, or a new one started with apiOpts, a project id and a key
// of its own, closed when the test ends. Add projects before StartBot.
func (h *Harness) AddProject(p Project, apiOpts ...docsapitest.Option) *docsapitest.Server {
	h.T.Helper()
	if p.API == nil {
		opts := append([]docsapitest.Option{
			docsapitest.WithProjectID("proj_" + p.Name),
			docsapitest.WithKey(fmt.Sprintf("mint_test_key_%s_%d", p.Name, len(h.projects))),
		}, apiOpts...)
		p.API = docsapitest.NewServer(opts...)
		h.T.Cleanup(p.API.Close)
	}
	have := map[string]bool{}
	for _, c := range h.Slack.Channels() {
		have[c.ID] = true
	}
	for _, c := range p.Channels {
		if !have[c] {
			h.Slack.AddChannel(slacktest.Channel{ID: c, Name: "docs-" + p.Name, BotMember: true})
		}
	}
	p.Channels = slices.Clone(p.Channels)
	h.mu.Lock()
	h.projects = append(h.projects, p)
	h.mu.Unlock()
	return p.API
}

// APIChannel is the channel whose default project is "api" in a world of
// TwoProjects.
const APIChannel = "C0APIDOCS"

// TwoProjects adds the two docs projects of most tests of several: "docs",
// served by the harness's API server (H.API), and "api", served by a new
// one started with apiOpts, which it returns. docs and api tune them (their
// editors, budgets); their names and servers are set here, and their
// channels when they have none: General for docs, APIChannel for api.
func (h *Harness) TwoProjects(docs, api Project, apiOpts ...docsapitest.Option) *docsapitest.Server {
	h.T.Helper()
	docs.Name, docs.API = "docs", h.API
	if len(docs.Channels) == 0 {
		docs.Channels = []string{General}
	}
	h.AddProject(docs)
	api.Name, api.API = "api", nil
	if len(api.Channels) == 0 {
		api.Channels = []string{APIChannel}
	}
	return h.AddProject(api, apiOpts...)
}

// projectSet is the set a bot serves: given, when a test loaded one; else
// the projects added (those named in serve, when any), checked like a
// projects file; else, when none was added, the implicit project on the
// harness's API.
func (h *Harness) projectSet(given *project.Set, serve []string) (*project.Set, error) {
	if given != nil {
		return given, nil
	}
	h.mu.Lock()
	added := slices.Clone(h.projects)
	h.mu.Unlock()
	if len(added) == 0 {
		return project.Single(h.API.ProjectID, h.API.Key, h.API.URL), nil
	}
	if len(serve) > 0 {
		added = slices.DeleteFunc(added, func(p Project) bool { return !slices.Contains(serve, p.Name) })
	}
	ps := make([]project.Project, len(added))
	for i, a := range added {
		editors, err := roles.ParseEditors(a.Editors)
		if err != nil {
			return nil, fmt.Errorf("project %s: editors: %w", a.Name, err)
		}
		ps[i] = project.Project{Name: a.Name, ID: a.API.ProjectID, APIKey: project.NewSecret(a.API.Key), KeyFrom: "the test harness",
			APIURL: a.API.URL, Channels: a.Channels, Editors: editors, VisitorsBudget: a.VisitorsBudget, Teams: a.Teams}
	}
	return project.New(ps...)
}

// testRetries is the docs API clients' retry policy in tests: quick.
var testRetries = docsapi.RetryPolicy{MaxAttempts: 2, BaseDelay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond, MaxWait: 50 * time.Millisecond}
