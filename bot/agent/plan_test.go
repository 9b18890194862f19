package agent_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
)

// refusals counts the bot's calls of method that Slack answered
// invalid_blocks.
func (h *harness) refusals(method string) int {
	n := 0
	for _, c := range h.Slack.Calls(method) {
		if c.Error == "invalid_blocks" {
			n++
		}
	}
	return n
}

// planOf is the task cards of the message ts in #general ("" statuses
// when it shows no plan).
func (h *harness) planOf(ts string) (string, []bottest.Task) {
	m, _ := h.Slack.Message(general, ts)
	_, tasks, _ := bottest.Plan(m)
	return bottest.TaskStatuses(tasks), tasks
}

// TestJobProgressIsAPlan: a job's root message shows its progress as a
// plan of task cards, checked by the fake Slack as Slack checks them:
// queued and started done, working with the API's latest status and the
// time, then the pull request opened (named once, by its link) and its
// preview, done when the run ended; the status line stays under it and
// the result comes with its buttons.
func TestJobProgressIsAPlan(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(time.Now())
	h, rootTS, jobID := runningJob(t, bottest.Config{Now: clock.Now}, "Document the SDK")
	statuses, tasks := h.planOf(rootTS)
	if want := "queued:complete started:complete working:in_progress pr:pending preview:pending"; statuses != want {
		t.Fatalf("plan %q, want %q", statuses, want)
	}
	if !strings.Contains(tasks[0].Details, jobID) || !strings.Contains(tasks[1].Details, "claude-sonnet-4") ||
		!strings.Contains(tasks[2].Details, "Status active · under a minute") {
		t.Errorf("cards %+v lack the job, the model or the latest status", tasks)
	}
	clock.Advance(3*time.Minute + 30*time.Second)
	h.WaitFor("the working card at 3 minutes", func() bool {
		_, tasks := h.planOf(rootTS)
		return len(tasks) == 5 && strings.Contains(tasks[2].Details, "3 min")
	})

	pr := "https://github.com/acme/docs/pull/12"
	h.API.SetJobStatus(jobID, docsapi.StatusCompleted, &pr)
	h.WaitFor("the result", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
	h.WaitFor("the plan done", func() bool {
		s, _ := h.planOf(rootTS)
		return s == "queued:complete started:complete working:complete pr:complete preview:complete"
	})
	_, tasks = h.planOf(rootTS)
	if tasks[3].Title != "Pull request opened" || !slices.Equal(tasks[3].Sources, []string{pr}) || strings.Contains(tasks[3].Details, "acme/docs#12") {
		t.Errorf("pull request card %+v, want it opened and named once, by its link", tasks[3])
	}
	if m, _ := h.Slack.Message(general, rootTS); !strings.Contains(rendered(m), "Completed") {
		t.Errorf("root message %q lacks its status line", rendered(m))
	}
	if !strings.Contains(rendered(h.Finishes(general, rootTS)[0]), "View pull request") {
		t.Error("the result lost its View pull request button")
	}
	if n := h.refusals("chat.update") + h.refusals("chat.postMessage"); n != 0 {
		t.Errorf("%d messages refused", n)
	}
}

// TestJobPlanOfAFailedRun: a failed run shows an error on its working card,
// no pull request, and no preview left pending.
func TestJobPlanOfAFailedRun(t *testing.T) {
	t.Parallel()
	h, rootTS, jobID := runningJob(t, bottest.Config{}, "Document the SDK")
	h.API.SetJobStatus(jobID, docsapi.StatusFailed, nil)
	h.WaitFor("the plan failed", func() bool {
		s, _ := h.planOf(rootTS)
		return s == "queued:complete started:complete working:error pr:pending preview:"
	})
}

// TestJobPlanRefusedFallsBack: a workspace that refuses plans gets today's
// message: the first post is refused once, posted without the plan, and
// the refusal is remembered, so the live edits (the time moving, the end)
// are never refused again.
func TestJobPlanRefusedFallsBack(t *testing.T) {
	t.Parallel()
	h := newHarness(t, bottest.LongJobs())
	h.Slack.RefuseBlockType("plan")
	clock := slacktest.NewManualClock(time.Now())
	h.StartBot(bottest.Config{Now: clock.Now})
	rootTS, jobID := h.startedJob("Document the SDK")
	root := func() slacktest.Message { m, _ := h.Slack.Message(general, rootTS); return m }
	if _, _, ok := bottest.Plan(root()); ok || !strings.Contains(rendered(root()), "Working · under a minute") {
		t.Fatalf("root message %q (%v), want today's, without a plan", rendered(root()), bottest.BlockTypes(root()))
	}
	clock.Advance(3*time.Minute + 30*time.Second)
	h.WaitFor("the root message at 3 minutes", func() bool { return strings.Contains(rendered(root()), "Working · 3 min") })
	h.API.SetJobStatus(jobID, docsapi.StatusCompleted, nil)
	h.WaitFor("the root message completed", func() bool { return strings.Contains(rendered(root()), "Completed") })
	h.WaitFor("the result", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
	if p, u := h.refusals("chat.postMessage"), h.refusals("chat.update"); p != 1 || u != 0 {
		t.Errorf("%d posts and %d edits refused, want the first post alone", p, u)
	}
}

// TestJobPlanRefusedOnAnEdit: a workspace that stops taking task cards
// while a job runs refuses one edit; that edit is made without the plan and
// the next ones are not tried with it.
func TestJobPlanRefusedOnAnEdit(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(time.Now())
	h, rootTS, _ := runningJob(t, bottest.Config{Now: clock.Now}, "Document the SDK")
	root := func() slacktest.Message { m, _ := h.Slack.Message(general, rootTS); return m }
	h.Slack.RefuseBlockType("task_card")
	clock.Advance(2*time.Minute + 30*time.Second)
	h.WaitFor("the root message at 2 minutes, without its plan", func() bool {
		_, _, ok := bottest.Plan(root())
		return !ok && strings.Contains(rendered(root()), "Working · 2 min")
	})
	clock.Advance(2 * time.Minute)
	h.WaitFor("the root message at 4 minutes", func() bool { return strings.Contains(rendered(root()), "Working · 4 min") })
	if n := h.refusals("chat.update"); n != 1 {
		t.Errorf("%d edits refused, want 1: the refusal is remembered", n)
	}
}

// TestJobPlanRefusedAtTheEnd: a workspace that stops taking plans just
// before a run ends gets the end shown without the plan, at once.
func TestJobPlanRefusedAtTheEnd(t *testing.T) {
	t.Parallel()
	h, rootTS, jobID := runningJob(t, bottest.Config{}, "Document the SDK")
	h.Slack.RefuseBlockType("plan")
	h.API.SetJobStatus(jobID, docsapi.StatusCompleted, nil)
	h.WaitFor("the result", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
	h.WaitFor("the root message completed, without its plan", func() bool {
		m, _ := h.Slack.Message(general, rootTS)
		_, _, ok := bottest.Plan(m)
		return !ok && strings.Contains(rendered(m), "Completed")
	})
	if n := h.refusals("chat.update"); n != 1 {
		t.Errorf("%d edits refused, want 1", n)
	}
}
