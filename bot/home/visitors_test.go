package home_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestHomeShowsEachProjectsCachedVisitors: with projects from a file, the
// Home shows each project's cached 7-day visitors under its name, or says
// that none is cached and which command counts them; opening it never asks
// the docs API. (That counting one project caches nothing for another
// needs each project on its own API client: projects_e2e_test.go.)
func TestHomeShowsEachProjectsCachedVisitors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		projects []string // the first is the default of #general, on h.API
	}{
		{"two projects", []string{"docs", "api"}},
		{"one project", []string{"docs"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := bottest.New(t, redisURL)
			apis := addProjects(h, tt.projects)
			h.StartBot(bottest.Config{})
			showsProjectsVisitors(t, h, tt.projects, tt.projects[0], apis)
		})
	}
}

// showsProjectsVisitors opens Alice's Home, which must say for each of
// projects that none of its visitors is cached, counts counted's with
// /docs-visitors in #general, and opens the Home again, which must show
// counted's summary under its name, asking none of the API servers apis
// for it.
func showsProjectsVisitors(t *testing.T, h *bottest.Harness, projects []string, counted string, apis []*docsapitest.Server) {
	t.Helper()
	openHome(t, h, alice, "Docs visitors, last 7 days")
	text := homeText(h, alice)
	for _, name := range projects {
		want := "`" + name + "`: no summary of the last 7 days is cached yet. `/docs-visitors project=" + name + "` in a channel"
		if !strings.Contains(text, want) {
			t.Errorf("Home lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "From the cache") || strings.Contains(text, "`/docs-visitors 7d`") {
		t.Errorf("Home shows the one project's summary or its hint:\n%s", text)
	}

	h.Command(alice, bottest.General, "/docs-visitors", "project="+counted)
	h.WaitFor("the visitors summary", func() bool {
		for _, m := range h.Slack.Messages(bottest.General) {
			if strings.Contains(m.Text, "Docs visitors") {
				return true
			}
		}
		return false
	})
	asked := visitorsRequests(apis)
	openHome(t, h, alice, "From the cache")
	text = homeText(h, alice)
	if want := "*`" + counted + "`*\n"; !strings.Contains(text, want) || strings.Contains(text, "`"+counted+"`: no summary") {
		t.Errorf("Home does not show %s's summary under %q:\n%s", counted, want, text)
	}
	if !strings.Contains(text, "AI share") || !strings.Contains(text, "Top pages") {
		t.Errorf("Home's visitors summary lacks the totals or the top pages:\n%s", text)
	}
	if now := visitorsRequests(apis); now != asked {
		t.Errorf("opening Home sent %d visitors requests, want none", now-asked)
	}
}

// visitorsRequests counts the visitors requests the API servers apis took.
func visitorsRequests(apis []*docsapitest.Server) int {
	n := 0
	for _, api := range apis {
		n += api.Count(docsapitest.EndpointVisitors)
	}
	return n
}

// addProjects serves the projects named, the first the default of #general
// on h.API, and returns their APIs in that order.
func addProjects(h *bottest.Harness, projects []string) []*docsapitest.Server {
	var apis []*docsapitest.Server
	for i, name := range projects {
		p := bottest.Project{Name: name}
		if i == 0 {
			p.Channels, p.API = []string{bottest.General}, h.API
		}
		apis = append(apis, h.AddProject(p))
	}
	return apis
}
