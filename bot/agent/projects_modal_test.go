package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestProjectsModalTokenAgainstSelect: a project=NAME word in the job
// modal's instruction that disagrees with its select, names no project or
// two, is answered on the instruction, the modal left open and nothing
// started; one that names the select's project is taken out of the
// instruction the agent gets.
func TestProjectsModalTokenAgainstSelect(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t, bottest.LongJobs())
	w.start(projectsBot{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	w.Command(alice, chDocs, agent.Command, "")
	v := w.modalOf(alice)
	submit := func(instruction, proj string) {
		t.Helper()
		if _, err := w.Slack.SubmitView(ctx, slacktest.ViewSubmission{ViewID: v.ID, Values: map[string]map[string]string{
			"instruction": {"instruction": instruction}, "project": {"project": proj}}}); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name, instruction, want string
	}{
		{"another project", "Document X project=api", "Your instruction says `project=api`, but the project chosen below is `docs`"},
		{"no such project", "project=nope Document X", "There is no docs project `nope`"},
		{"two projects", "project=docs Document X project=api", "names two docs projects"},
		{"nothing but the word", "project=docs", "Say what the docs agent should do."},
		{"no name after project=", "Document X project=", "Write a project name after `project=`"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			submit(tc.instruction, "docs")
			got, ok := w.Slack.ViewByID(v.ID)
			if !ok || !got.Open || !strings.Contains(got.Errors["instruction"], tc.want) {
				t.Errorf("modal after %q: open %v, errors %q; want it open with %q on the instruction", tc.instruction, got.Open, got.Errors, tc.want)
			}
		})
	}
	w.Idle()
	if c := w.creates(); c["docs"] != 0 || c["api"] != 0 {
		t.Errorf("creates after refused submissions = %v, want none", c)
	}
	submit("Document X project=DOCS", "docs")
	job := w.newJob("docs", 0)
	if got := w.servers["docs"].Prompts(job.ID); len(got) != 1 || got[0] != "Document X" {
		t.Errorf("docs's API got prompts %q, want the instruction without the project= word", got)
	}
}
