package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// TestRootPostedOnceTheJobExists: a command in a channel docsbot has not
// posted in lately gets its root message first, then the edit that shows
// its job; in a channel docsbot just posted in, the root is posted once
// the job exists, already showing it (its post's blocks name the job), and
// the job is linked to it.
// Where Slack refuses that late root, the job started all the same: the
// person is told privately, with the job, the start is audited untracked,
// and the next command in that channel posts its root first again.
func TestRootPostedOnceTheJobExists(t *testing.T) {
	t.Parallel()
	h := newHarness(t, bottest.LongJobs())
	h.StartBot(bottest.Config{})

	// rootShowingJob sends a command and waits for the root message
	// showing its job, the n-th root of the channel (from 1).
	rootShowingJob := func(prompt string, n int) slacktest.Message {
		t.Helper()
		h.Command(alice, general, agent.Command, prompt)
		var root slacktest.Message
		h.WaitFor("root message "+prompt+" showing its job", func() bool {
			r := h.Roots(general)
			if len(r) < n || !strings.Contains(rendered(r[n-1]), "job `job_") {
				return false
			}
			root = r[n-1]
			return true
		})
		return root
	}
	// postedShowingJob waits for the chat.postMessage calls of the root
	// whose instruction is prompt (one per try) and reports whether the
	// first showed its job: a root posted once its job exists. A root
	// posted first shows its job by an edit, later.
	postedShowingJob := func(prompt string) bool {
		t.Helper()
		var posts []slacktest.Call
		h.WaitFor("the post of root "+prompt, func() bool {
			posts = nil
			for _, c := range h.Slack.Calls("chat.postMessage") {
				if strings.Contains(c.Params["blocks"], prompt) {
					posts = append(posts, c)
				}
			}
			return len(posts) > 0
		})
		return strings.Contains(posts[0].Params["blocks"], "job_")
	}

	rootShowingJob("Document the webhooks", 1)
	if postedShowingJob("Document the webhooks") {
		t.Errorf("the first root in the channel was posted showing its job: not posted first")
	}

	late := rootShowingJob("Document the SDK", 2)
	if !postedShowingJob("Document the SDK") {
		t.Errorf("the root in a channel just posted in was posted before its job existed")
	}
	if !strings.Contains(rendered(late), "<@"+alice+">") || !strings.Contains(rendered(late), "Document the SDK") {
		t.Errorf("late root %q does not say who asked what", rendered(late))
	}
	jobs := h.API.Jobs()
	if len(jobs) != 2 {
		t.Fatalf("%d jobs created, want 2", len(jobs))
	}
	h.WaitFor("the late root's job linked to its thread", func() bool {
		j, err := h.OpenStore().Jobs().JobByThread(context.Background(), store.Thread{Team: "T0TEST", Channel: general, TS: late.TS})
		return err == nil && strings.Contains(rendered(late), j.ID)
	})

	// Slack refuses the late root: the job exists, and is not followed.
	h.Slack.FailNext("chat.postMessage", "not_in_channel", 1)
	h.Command(alice, general, agent.Command, "Document the limits")
	h.WaitFor("the third job", func() bool { return len(h.API.Jobs()) == 3 })
	third := h.API.Jobs()[2]
	note := h.WaitPrivate(alice, "could not post it in this channel")
	if !strings.Contains(note.Text, third.ID) || !strings.Contains(note.Text, "docs dashboard") {
		t.Errorf("private note %q does not name the job and where to follow it", note.Text)
	}
	h.WaitFor("the start audited untracked", func() bool {
		for _, r := range h.audit() {
			if r.Action == store.AuditJobStart && r.JobID == third.ID {
				return r.Outcome == "untracked"
			}
		}
		return false
	})
	if n := len(h.Roots(general)); n != 2 {
		t.Errorf("%d root messages, want the 2 before the refusal", n)
	}

	// The refusal is remembered: the next root goes first, then its edit.
	rootShowingJob("Document the errors", 3)
	if postedShowingJob("Document the errors") {
		t.Errorf("the root after a refusal was posted showing its job: not posted first")
	}
	h.WantRequests(docsapitest.EndpointCreate, 4, "one job a command")
}

// TestLateRootAfterCrashDuringCreate plays a replica that died during the
// create call of a start whose root was to come late: the intent marked,
// no root posted. The next replica does not check again whether the person
// may start jobs (they were let through; alice is no editor here), creates
// nothing, posts the root saying the outcome is unknown, and tells her so
// privately, offering "retry" in its thread.
func TestLateRootAfterCrashDuringCreate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.DeadReplicaWork("cmd:late-root", "agent.start", map[string]string{"team": "T0TEST", "channel": general, "user": alice, "prompt": "Document the webhooks"},
		map[string]string{"intent": "x"})
	h.Slack.AddUserGroup(editors, "U0EDITOR")
	h.StartBot(bottest.Config{Editors: []string{editors}})
	note := h.WaitPrivate(alice, "cannot tell whether the agent started")
	if !strings.Contains(note.Text, "reply `retry` in this thread") {
		t.Errorf("private note %q does not offer retry", note.Text)
	}
	h.WaitFor("the root message saying so", func() bool {
		r := h.Roots(general)
		return len(r) == 1 && strings.Contains(rendered(r[0]), "cannot tell whether the agent started")
	})
	h.Settle()
	h.WantRequests(docsapitest.EndpointCreate, 0, "the outcome of the first is unknown")
	if n := len(h.Roots(general)); n != 1 {
		t.Errorf("%d root messages, want 1", n)
	}
}

// TestLateRootAfterCrashBeforeLink plays a replica that died after the
// create call and the late root's post, before the link: the next replica
// finds the root, which names its job, and links that job instead of
// saying the outcome is unknown: no second create, no second root, the
// job's result posted once in its thread.
func TestLateRootAfterCrashBeforeLink(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	const key = "cmd:late-root-posted"
	client := h.apiClient()
	job, err := client.CreateJob(context.Background(), "Document the SDK")
	if err != nil {
		t.Fatal(err)
	}
	h.DeadReplicaWork(key, "agent.start", map[string]string{"team": "T0TEST", "channel": general, "user": alice, "prompt": "Document the SDK"},
		map[string]string{"intent": "x"})
	// The dead replica's late root, as the bot posts it: it names its job.
	_, rootTS, err := h.BotClient().PostMessage(general, slack.MsgOptionText("Docs agent job", false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: agent.RootEvent, EventPayload: map[string]any{"work": key, "job": job.ID}}))
	if err != nil {
		t.Fatal(err)
	}

	h.StartBot(bottest.Config{})
	h.WaitFor("the job's result in the late root's thread", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
	h.Settle()
	h.WantRequests(docsapitest.EndpointCreate, 1, "the dead replica's only")
	if roots := h.Roots(general); len(roots) != 1 || roots[0].TS != rootTS {
		t.Fatalf("%d root messages, want just the dead replica's", len(roots))
	}
	if n := len(h.Finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results in the thread, want 1", n)
	}
	if p := h.Privates(alice, "cannot tell whether"); len(p) != 0 {
		t.Errorf("alice was told the outcome is unknown: %q", p[0].Text)
	}
}
