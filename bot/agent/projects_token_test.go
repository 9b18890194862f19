package agent_test

import (
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
)

// TestProjectsEmptyProjectName: a project= word with no name, in a start,
// a list or a help (by a slash command or a mention), is answered
// privately, asking for a name and listing the projects; nothing is
// listed or started. A list naming two projects is answered so too.
func TestProjectsEmptyProjectName(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t, bottest.LongJobs())
	w.start(projectsBot{})
	const want = "Write a project name after `project=`. The projects are `docs`, `api`."
	cases := []struct {
		name, user, text string
		mention          bool
		want             string
	}{
		{"start", alice, "project= Document the errors", false, want},
		{"start, name last", bob, "Document the errors PROJECT=", false, want},
		{"list", carol, "list project=", false, want},
		{"list by a mention", alice, "project= list", true, want},
		{"list of two projects", bob, "project=docs list project=api", false, "names two docs projects, `docs` and `api`"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(w.Privates(tc.user, tc.want))
			if tc.mention {
				w.mention(tc.user, general, "", tc.text)
			} else {
				w.Command(tc.user, general, agent.Command, tc.text)
			}
			w.WaitFor("the private answer to "+tc.text, func() bool {
				return len(w.Privates(tc.user, tc.want)) > before || (before == 0 && w.said(tc.user, tc.want))
			})
		})
	}
	w.Idle()
	if c := w.creates(); c["docs"] != 0 || c["api"] != 0 {
		t.Errorf("creates = %v, want none", c)
	}
	for _, user := range []string{alice, bob, carol} {
		for _, m := range w.Slack.Ephemerals(user) {
			if text := m.Text + rendered(m); strings.Contains(text, "There is no docs project ``") || strings.Contains(text, "jobs in") || strings.Contains(text, "No docs agent jobs") {
				t.Errorf("%s was answered %q", user, text)
			}
		}
	}
}
