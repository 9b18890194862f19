package agent_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// calls counts the bot's calls of method on the message or thread ts.
func (h *harness) calls(method, param, ts string) int {
	n := 0
	for _, c := range h.Slack.Calls(method) {
		if c.Params[param] == ts && c.Error == "" {
			n++
		}
	}
	return n
}

// polls waits for n more get-job calls: the pollers went round n times.
func (h *harness) polls(n int) {
	h.T.Helper()
	want := h.API.Count(docsapitest.EndpointGet) + n
	h.WaitFor("more polls", func() bool { return h.API.Count(docsapitest.EndpointGet) >= want })
}

// TestLiveStatusOnceAcrossReplicas: the root message shows the elapsed
// time, the model and the branch; it is edited when the time shown changes,
// once whatever the number of replicas polling the job, and not on every
// poll; the thread of a job asked in a thread shows the agent working,
// refreshed once a minute.
func TestLiveStatusOnceAcrossReplicas(t *testing.T) {
	t.Parallel()
	h := newHarness(t, bottest.LongJobs())
	clock := slacktest.NewManualClock(time.Now())
	h.StartBot(bottest.Config{Now: clock.Now})
	h.StartBot(bottest.Config{Now: clock.Now})
	// The job lives in the thread of the mention; its root message is a
	// reply there.
	thread := h.mention(alice, general, "", "<@"+h.Slack.BotUserID()+"> Document the SDK").TS
	first, _ := h.rootIn(general, thread)
	rootTS := first.TS
	root := func() string { m, _ := h.Slack.Message(general, rootTS); return rendered(m) }
	for _, w := range []string{"Working · under a minute", "model `claude-sonnet-4`", "branch `main`"} {
		if !strings.Contains(root(), w) {
			t.Errorf("root message %q lacks %q", root(), w)
		}
	}
	h.WaitFor("the thread's working status", func() bool {
		return h.Slack.ThreadStatus(general, thread) == "is working on your docs…"
	})

	h.polls(20)
	edits, statuses := h.calls("chat.update", "ts", rootTS), h.calls("assistant.threads.setStatus", "thread_ts", thread)
	if statuses != 1 {
		t.Errorf("%d thread status calls in the first minute, want 1", statuses)
	}
	clock.Advance(3*time.Minute + 30*time.Second)
	h.WaitFor("the root message showing 3 minutes", func() bool { return strings.Contains(root(), "Working · 3 min") })
	h.polls(20)
	if n := h.calls("chat.update", "ts", rootTS); n != edits+1 {
		t.Errorf("%d edits of the root message after the time moved on, want %d: one for both replicas", n, edits+1)
	}
	if n := h.calls("assistant.threads.setStatus", "thread_ts", thread); n != statuses+1 {
		t.Errorf("%d thread status calls, want %d: refreshed once for both replicas", n, statuses+1)
	}
	clock.Advance(time.Hour)
	h.WaitFor("the root message showing 1 hour 3 minutes", func() bool { return strings.Contains(root(), "Working · 1 hour 3 minutes") })
}

func TestProgressReactionsThroughEachOutcome(t *testing.T) {
	t.Parallel()
	pr := "https://github.com/acme/docs/pull/7"
	cases := []struct {
		status docsapi.Status
		pr     *string
		want   string
	}{
		{docsapi.StatusCompleted, &pr, "white_check_mark"},
		{docsapi.StatusFailed, nil, "x"},
		{docsapi.StatusArchived, nil, "file_cabinet"},
	}
	for _, tc := range cases {
		t.Run(string(tc.status), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, bottest.LongJobs())
			// Slack's 429 on a reaction is waited out, not a lost reaction.
			h.Slack.RateLimit("reactions.add", 1, time.Second)
			clock := slacktest.NewManualClock(time.Now())
			h.StartBot(bottest.Config{Now: clock.Now})
			// The job lives in the thread of the mention, which is the
			// person's message; its root message is a reply there.
			origin := h.mention(alice, general, "", "<@"+h.Slack.BotUserID()+"> Document the CLI").TS
			rootTS, root := origin, func() string { m, _ := h.rootIn(general, origin); return rendered(m) }
			reactions := func() []string { m, _ := h.Slack.Message(general, origin); return m.Reactions }
			h.WaitFor("⏳ on the person's message", func() bool { return slices.Equal(reactions(), []string{"hourglass_flowing_sand"}) })
			h.WaitFor("the thread's working status", func() bool { return h.Slack.ThreadStatus(general, rootTS) != "" })
			// The fake Slack records a call once it answered it: the reaction
			// can show a moment before its call is in the record.
			h.WaitFor("the reaction's calls recorded", func() bool { return len(h.Slack.Calls("reactions.add")) >= 2 })
			if c := h.Slack.Calls("reactions.add"); len(c) < 2 || c[0].Error != "ratelimited" {
				t.Errorf("reactions.add calls %+v, want a 429 and then the reaction", c)
			}

			clock.Advance(2*time.Minute + 30*time.Second)
			h.WaitFor("the root message (a reply) showing 2 minutes", func() bool { return strings.Contains(root(), "Working · 2 min") })
			jobID := h.API.Jobs()[0].ID
			h.API.SetJobStatus(jobID, tc.status, tc.pr)
			h.WaitFor("the result", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
			h.WaitFor("the outcome on the person's message", func() bool { return slices.Equal(reactions(), []string{tc.want}) })
			if s := h.Slack.ThreadStatus(general, rootTS); s != "" {
				t.Errorf("thread status %q after the result, want it cleared", s)
			}

			// A follow-up: working again, then the new outcome.
			h.Reply(alice, general, rootTS, "Once more, with examples")
			h.WaitFor("⏳ again, the outcome taken off", func() bool { return slices.Equal(reactions(), []string{"hourglass_flowing_sand"}) })
			h.WaitFor("the thread's working status again", func() bool { return h.Slack.ThreadStatus(general, rootTS) != "" })
			h.API.SetJobStatus(jobID, docsapi.StatusCompleted, &pr)
			h.WaitFor("the second result", func() bool { return len(h.Finishes(general, rootTS)) == 2 })
			h.WaitFor("✅ on the person's message", func() bool { return slices.Equal(reactions(), []string{"white_check_mark"}) })
		})
	}
}

// TestSlashCommandJobShowsItsStateOnItsRoot: a slash command leaves no
// message of the person's, so nothing is reacted to; its root message
// starts the thread and shows the job's state, so the first run sets no
// thread status, even as minutes pass; a follow-up in the thread does.
func TestSlashCommandJobShowsItsStateOnItsRoot(t *testing.T) {
	t.Parallel()
	h := newHarness(t, bottest.LongJobs())
	clock := slacktest.NewManualClock(time.Now())
	h.StartBot(bottest.Config{Now: clock.Now})
	rootTS, jobID := h.startedJob("Document the CLI")
	root := func() string { m, _ := h.Slack.Message(general, rootTS); return rendered(m) }
	h.polls(5)
	clock.Advance(2*time.Minute + 30*time.Second)
	h.WaitFor("the root message showing 2 minutes", func() bool { return strings.Contains(root(), "Working · 2 min") })
	h.polls(5)
	if n := len(h.Slack.Calls("assistant.threads.setStatus")); n != 0 {
		t.Errorf("%d thread status calls for the first run of a slash command's job, want none", n)
	}
	if n := len(h.Slack.Calls("reactions.add")); n != 0 {
		t.Errorf("%d reactions added for a slash command's job, want none", n)
	}

	h.API.SetJobStatus(jobID, docsapi.StatusCompleted, nil)
	h.WaitFor("the result", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
	h.Reply(alice, general, rootTS, "Once more, with examples")
	h.WaitFor("the thread's working status for the follow-up", func() bool {
		return h.Slack.ThreadStatus(general, rootTS) == "is working on your docs…"
	})
}

// TestThreadStatusRefusedIsSkipped: a workspace where Slack refuses the
// thread status is logged once and the feature skipped; the job goes on.
func TestThreadStatusRefusedIsSkipped(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Slack.FailNext("assistant.threads.setStatus", "missing_scope", 1)
	h.StartBot(bottest.Config{})
	// Jobs asked in a thread, which shows their status.
	for i, prompt := range []string{"Document the CLI", "Document the API"} {
		thread := h.mention(alice, general, "", "<@"+h.Slack.BotUserID()+"> "+prompt).TS
		h.rootIn(general, thread)
		h.WaitFor("the result", func() bool { return len(h.Finishes(general, thread)) == 1 })
		if i == 0 {
			h.WaitFor("the refusal logged", func() bool {
				return strings.Contains(h.Logs.String(), "Slack does not let docsbot show a thread's working status")
			})
		}
	}
	if n := len(h.Slack.Calls("assistant.threads.setStatus")); n != 1 {
		t.Errorf("%d thread status calls, want 1: skipped after Slack refused it", n)
	}
	if n := strings.Count(h.Logs.String(), "Slack does not let docsbot show a thread's working status"); n != 1 {
		t.Errorf("the refusal was logged %d times, want once", n)
	}
}
