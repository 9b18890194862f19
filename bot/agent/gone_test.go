package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// goneNotes counts the thread's notes that the docs API no longer knows the job.
func (h *harness) goneNotes(rootTS string) int {
	n := 0
	for _, m := range h.Slack.Thread(general, rootTS) {
		if strings.Contains(m.Text, "no longer knows") {
			n++
		}
	}
	return n
}

// TestGoneJobRootSaysSoDespiteSlack makes the docs API forget a running job
// while Slack fails the root message's edit. The root message is edited
// before the job is untracked, so whenever the record says the job is no
// longer followed, the root already says so: a passing failure is tried
// again within the poll, and a final refusal
// (the message is gone) does not keep the job followed. The thread is told
// once, and polling stops.
func TestGoneJobRootSaysSoDespiteSlack(t *testing.T) {
	t.Parallel()
	for _, tc := range rootEditFaults {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, rootTS, jobID := runningJob(t, bottest.Config{}, "Document the webhooks")
			st := h.OpenStore()
			tc.fault(h)
			h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointGet, Status: 404, Body: `{"error":"job not found"}`})

			h.WaitFor("the job no longer followed", func() bool { return untracked(st, jobID) })
			root := h.rootShows(rootTS)
			if got := strings.Contains(root, "No longer followed") && strings.Contains(root, "no longer knows"); got != tc.shown {
				t.Errorf("root message says the job is no longer followed: %v, want %v (root %q)", got, tc.shown, root)
			}
			h.WaitFor("the note in the thread", func() bool { return h.goneNotes(rootTS) > 0 })
			polled := h.API.Count(docsapitest.EndpointGet)
			h.Settle()
			if after := h.API.Count(docsapitest.EndpointGet); after != polled {
				t.Errorf("still polling a job the API does not know: %d then %d", polled, after)
			}
			if n := h.goneNotes(rootTS); n != 1 {
				t.Errorf("%d notes that the job is gone, want 1", n)
			}
			tc.checkEdits(t, h, rootTS)
		})
	}
}

// TestGoneJobWaitsForTheRootEdit makes the docs API forget a running job
// while Slack fails every edit of the root message for a passing reason: the
// job stays followed, without a note in the thread, and is polled again;
// once Slack takes the edit, the root says the job is no longer followed,
// the job is untracked and the thread told once.
func TestGoneJobWaitsForTheRootEdit(t *testing.T) {
	t.Parallel()
	h, rootTS, jobID := runningJob(t, bottest.Config{Config: app.Config{Agent: agent.Config{FinalEditBudget: shortEditBudget}}}, "Document the audit log")
	st := h.OpenStore()
	h.Slack.FailNext("chat.update", "service_unavailable", 1<<30)
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointGet, Status: 404, Body: `{"error":"job not found"}`})

	// One poll's edit gives up when its budget runs out.
	h.WaitLogged(goneEditPostponed, 1)
	if untracked(st, jobID) {
		t.Fatal("the job was untracked while its root message could not say so")
	}
	if root := h.rootShows(rootTS); strings.Contains(root, "No longer followed") {
		t.Fatalf("root message says the job is gone although every edit failed: %q", root)
	}
	if n := h.goneNotes(rootTS); n != 0 {
		t.Fatalf("%d notes in the thread before the job was untracked, want 0", n)
	}
	// The job is polled again after the edit gave up. (Counting the polls
	// once the job is untracked cannot tell: the next poll may have asked
	// the API before the count above, and untracked it once the edits
	// below succeed.)
	gets := h.API.Count(docsapitest.EndpointGet)
	h.WaitFor("the job polled again after the edit gave up", func() bool { return h.API.Count(docsapitest.EndpointGet) > gets })

	h.Slack.FailNext("chat.update", "", 0)
	h.WaitFor("the job no longer followed", func() bool { return untracked(st, jobID) })
	if root := h.rootShows(rootTS); !strings.Contains(root, "No longer followed") {
		t.Errorf("root message does not say the job is no longer followed: %q", root)
	}
	h.WaitFor("the note in the thread", func() bool { return h.goneNotes(rootTS) > 0 })
	h.Settle()
	if n := h.goneNotes(rootTS); n != 1 {
		t.Errorf("%d notes that the job is gone, want 1", n)
	}
}

// shortEditBudget is the budget of a root edit (agent.Config.FinalEditBudget)
// in the tests where Slack keeps failing it: each edit gives up quickly, so
// the test waits on the bot's behaviour, not on the default budget.
const shortEditBudget = 500 * time.Millisecond

// goneEditPostponed is what the poller logs when the root edit for a job the
// docs API forgot is left to the next poll.
const goneEditPostponed = "the docs API no longer knows the job, and the root message cannot say so yet; trying again at the next poll"

// TestGoneJobStopsWaitingForTheRootEdit: a job the docs API forgot after
// many polls is untracked, and the thread told once, even while Slack keeps
// failing the root message's edit: the wait for the edit is bounded and
// nothing comes back forever.
func TestGoneJobStopsWaitingForTheRootEdit(t *testing.T) {
	t.Parallel()
	h, rootTS, jobID := runningJob(t, bottest.Config{Config: app.Config{Agent: agent.Config{FinalEditBudget: shortEditBudget}}}, "Document the audit log")
	st := h.OpenStore()
	h.WaitFor("many polls of the job", func() bool {
		j, err := st.Jobs().Job(context.Background(), jobID)
		return err == nil && j.Polls >= 40
	})
	h.Slack.FailNext("chat.update", "service_unavailable", 1<<30)
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointGet, Status: 404, Body: `{"error":"job not found"}`})

	h.WaitFor("the job no longer followed", func() bool { return untracked(st, jobID) })
	h.WaitFor("the note in the thread", func() bool { return h.goneNotes(rootTS) > 0 })
	h.Settle()
	if n := h.goneNotes(rootTS); n != 1 {
		t.Errorf("%d notes that the job is gone, want 1", n)
	}
	gets := h.API.Count(docsapitest.EndpointGet)
	h.Settle()
	if after := h.API.Count(docsapitest.EndpointGet); after != gets {
		t.Errorf("the job was polled again after it was untracked: %d then %d polls", gets, after)
	}
}
