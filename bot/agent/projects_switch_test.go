package agent_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// switchModal has user press the Switch project button of root and waits
// for the job modal it opens (not one of skip).
func (w *projectsWorld) switchModal(user string, root slacktest.Message, skip ...string) slacktest.View {
	w.T.Helper()
	w.act(user, root, agent.ActionSwitchProject, "Switch project")
	var sw slacktest.View
	w.WaitFor("the job modal of Switch project", func() bool {
		for _, m := range w.Slack.OpenModals(user) {
			if m.CallbackID == agent.ViewJob && !slices.Contains(skip, m.ID) {
				sw = m
				return true
			}
		}
		return false
	})
	return sw
}

// TestProjectsSwitchKeepsTheWholeStart: Switch project on a job asked for
// by a mention in a thread opens the modal with the whole instruction
// (longer than a button's value holds), and the job it starts in the
// other project gets the thread's conversation as its context too.
func TestProjectsSwitchKeepsTheWholeStart(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t, bottest.LongJobs())
	w.start(projectsBot{})
	long := "Rewrite the errors page. " + strings.Repeat("Keep every code sample working. ", 75) + "Last sentence here."
	parent := w.userMessage(bob, chAPI, "", "The errors page never mentions the retry header")
	w.mention(alice, chAPI, parent, long)
	job := w.newJob("api", 0)
	root := w.rootOf(chAPI, parent, job.ID)
	if first := w.servers["api"].Prompts(job.ID)[0]; !strings.Contains(first, "bob: The errors page never mentions the retry header") {
		t.Fatalf("the first job has no thread context:\n%s", first)
	}

	sw := w.switchModal(alice, root)
	if !strings.Contains(string(sw.Blocks), "Last sentence here.") || !strings.Contains(string(sw.Blocks), "starts a second job") {
		t.Errorf("Switch project's modal lacks the whole instruction or does not say a second job starts: %s", sw.Blocks)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := w.Slack.SubmitView(ctx, slacktest.ViewSubmission{ViewID: sw.ID, Values: map[string]map[string]string{
		"instruction": {"instruction": strings.TrimSpace(long)}, "project": {"project": "docs"}}}); err != nil {
		t.Fatal(err)
	}
	again := w.newJob("docs", 0)
	prompt := w.servers["docs"].Prompts(again.ID)[0]
	bottest.WantContains(t, "the switched job's instruction", prompt, strings.TrimSpace(long)+"\n\nContext: the Slack thread", "bob: The errors page never mentions the retry header")
}

// TestProjectsSwitchAfterTheStartWasForgotten: Switch project pressed after
// the start was forgotten opens nothing and tells the person privately.
func TestProjectsSwitchAfterTheStartWasForgotten(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t, bottest.LongJobs())
	w.start(projectsBot{pendingTTL: 50 * time.Millisecond})
	_, root := w.startInAPI(alice, "Document the errors")
	redistest.Until(t, "the kept start to be forgotten", func() bool {
		_, err := w.st.PendingStarts().Pending(context.Background(), agent.SwitchID(chAPI, root.TS))
		return errors.Is(err, store.ErrNotFound)
	})
	w.act(alice, root, agent.ActionSwitchProject, "Switch project")
	w.WaitFor("alice told the start is gone", func() bool { return w.said(alice, "this one is gone") })
	if n := len(w.Slack.OpenModals(alice)); n != 0 {
		t.Errorf("%d modals open, want none", n)
	}
}

// TestProjectsSwitchHiddenOnceTheJobEnded: the root message has no Switch
// project button once its job finished (while it works it has one:
// TestProjectsSwitchKeepsTheWholeStart).
func TestProjectsSwitchHiddenOnceTheJobEnded(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t)
	w.start(projectsBot{})
	_, root := w.startInAPI(alice, "Document the errors")
	w.WaitFor("the result", func() bool { return len(w.Finishes(chAPI, root.TS)) == 1 })
	w.WaitFor("the root message showing the outcome without Switch project", func() bool {
		got, _ := w.Slack.Message(chAPI, root.TS)
		return strings.Contains(rendered(got), "Completed") && !strings.Contains(string(got.Blocks), agent.ActionSwitchProject)
	})
}
