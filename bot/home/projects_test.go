package home_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/bottest"
)

// TestHomeListsTheProjects: with projects from a file, the Home names each
// project and the channels it is the default of, and no longer one
// connected project.
func TestHomeListsTheProjects(t *testing.T) {
	t.Parallel()
	h := bottest.New(t, redisURL)
	h.AddProject(bottest.Project{Name: "docs", Channels: []string{bottest.General, "C0WRITERS"}, API: h.API})
	h.AddProject(bottest.Project{Name: "api", Channels: []string{"C0API"}})
	h.AddProject(bottest.Project{Name: "partner-portal"})
	h.StartBot(bottest.Config{})

	openHome(t, h, alice, "docsbot serves 3 docs projects")
	text := homeText(h, alice)
	bottest.WantContains(t, "Home", text,
		"• `docs`: the default in <#"+bottest.General+">, <#C0WRITERS>",
		"• `api`: the default in <#C0API>",
		"• `partner-portal`\n",
		"`project=NAME`",
	)
	if strings.Contains(text, "Connected to the docs project") {
		t.Errorf("Home names one connected project beside the projects file's:\n%s", text)
	}
}
