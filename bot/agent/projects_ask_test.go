package agent_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/agent"
)

// TestProjectsQuestionButtons: the question which project has one actions
// block with a button per project, each with an action id of its own, up
// to the 25 Slack holds in a block; with more projects the person is asked
// in words to name one, listing them, and nothing is kept or started.
func TestProjectsQuestionButtons(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		extra    int
		projects int
		buttons  bool
	}{
		{"two projects", 0, 2, true},
		{"25 projects", 23, 25, true},
		{"26 projects", 24, 26, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newProjectsWorldOf(t, projectsOf{extra: tc.extra})
			w.start(projectsBot{})
			w.Command(alice, general, agent.Command, "Write a glossary")
			if !tc.buttons {
				w.WaitFor("alice asked in words", func() bool { return w.said(alice, "Which docs project should the agent work in?") })
				w.Idle()
				for _, m := range w.Slack.Ephemerals(alice) {
					if strings.Contains(string(m.Blocks), agent.ActionChooseProject) {
						t.Errorf("asked with buttons: %s", m.Blocks)
					}
					text := m.Text + rendered(m)
					if !strings.Contains(text, "`p24`") || !strings.Contains(text, "project=NAME") {
						t.Errorf("the question %q does not list the projects or say how to name one", text)
					}
				}
				if c := w.creates(); c["docs"] != 0 || c["api"] != 0 {
					t.Errorf("creates = %v, want none", c)
				}
				return
			}
			q := w.question(alice)
			var blocks []struct {
				Type     string `json:"type"`
				Elements []struct {
					ActionID string `json:"action_id"`
				} `json:"elements"`
			}
			if err := json.Unmarshal(q.Blocks, &blocks); err != nil {
				t.Fatal(err)
			}
			seen, actions := map[string]bool{}, 0
			for _, b := range blocks {
				if b.Type != "actions" {
					continue
				}
				actions++
				for _, e := range b.Elements {
					if seen[e.ActionID] {
						t.Errorf("action id %q twice in the question", e.ActionID)
					}
					seen[e.ActionID] = true
				}
			}
			if actions != 1 || len(seen) != tc.projects {
				t.Errorf("question has %d actions blocks and %d buttons, want 1 and %d: %s", actions, len(seen), tc.projects, q.Blocks)
			}
			n := len(w.servers["api"].Jobs())
			w.act(alice, q, agent.ActionChooseProject, "api")
			w.newJob("api", n)
		})
	}
}
