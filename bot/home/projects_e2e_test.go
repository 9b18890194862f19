package home_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/home"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// The agent gives the Home its jobs' records, so each job shows its
// project.
var _ home.JobRecords = (*agent.Feature)(nil)

// TestHomeShowsEachJobsProject: with two projects, each of the person's
// jobs on their Home names its project.
func TestHomeShowsEachJobsProject(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL, bottest.LongJobs())
	api := h.TwoProjects(bottest.Project{}, bottest.Project{}, bottest.LongJobs())
	h.StartBot(bottest.Config{})

	// Job changes republish the Homes of people who opened theirs.
	openHome(t, h, alice, "New docs job")
	h.Command(alice, bottest.General, agent.Command, "Document the quickstart")
	h.Command(alice, bottest.APIChannel, agent.Command, "Document the endpoints")
	h.WaitFor("a job on each server", func() bool { return len(h.API.Jobs()) == 1 && len(api.Jobs()) == 1 })
	h.WaitFor("both jobs on Alice's Home", func() bool {
		text := homeText(h, alice)
		return strings.Contains(text, "quickstart") && strings.Contains(text, "endpoints")
	})
	text := homeText(h, alice)
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.Contains(line, "Document the quickstart") && !strings.HasPrefix(line, "`docs` · "):
			t.Errorf("the docs job's line does not name its project: %s", line)
		case strings.Contains(line, "Document the endpoints") && !strings.HasPrefix(line, "`api` · "):
			t.Errorf("the api job's line does not name its project: %s", line)
		}
	}
}

// TestHomeShowsEachProjectsOwnVisitors: counting one project's visitors
// caches nothing for another: the Home shows the counted project's summary
// and still says that none is cached for the other.
func TestHomeShowsEachProjectsOwnVisitors(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	h.AddProject(bottest.Project{Name: "docs", Channels: []string{bottest.General}, API: h.API})
	api := h.AddProject(bottest.Project{Name: "api"})
	h.StartBot(bottest.Config{})

	showsProjectsVisitors(t, h, []string{"docs", "api"}, "api", []*docsapitest.Server{h.API, api})
	text := homeText(h, alice)
	if strings.Contains(text, "*`docs`*\n") || !strings.Contains(text, "`docs`: no summary of the last 7 days is cached yet") {
		t.Errorf("Home shows a summary of docs after counting api's visitors:\n%s", text)
	}
}
