package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// The root message's final edit is made before the finish is recorded as
// reported while Slack lets it within its bounded retries: then, when a
// job's record says its result was reported, its root message already
// shows how it ended. These tests check the root message at that moment,
// without waiting for it; an edit that keeps failing does not hold the
// record up, and the result is posted once whatever Slack does.

// waitReported waits until job's finish is recorded as reported and
// returns what its root message shows at that moment; once the bot has
// settled, it checks that the thread holds exactly one result (want says
// which).
func (h *harness) waitReported(st *store.Store, jobID, rootTS, want string) string {
	h.T.Helper()
	h.WaitFor("the finish recorded as reported", func() bool { return notified(st, jobID) })
	root := h.rootShows(rootTS)
	h.Settle()
	if n := len(h.Finishes(general, rootTS)); n != 1 {
		h.T.Errorf("%d results, want %s", n, want)
	}
	return root
}

// rootShows is what the root message shows now.
func (h *harness) rootShows(ts string) string {
	m, _ := h.Slack.Message(general, ts)
	return rendered(m)
}

// rootEditFault is a way Slack answers the edits of a job's root message.
type rootEditFault struct {
	name  string
	fault func(h *harness)
	// code is the failed edits' answer, edits how many there are.
	code  string
	edits int
	// shown is whether the root message ends showing the new state.
	shown bool
}

// rootEditFaults are the answers every final root edit is tried against:
// none, passing trouble that retries get past, and a final refusal.
var rootEditFaults = []rootEditFault{
	{"no fault", func(*harness) {}, "", 0, true},
	{"Slack's passing trouble", func(h *harness) { h.Slack.FailNext("chat.update", "internal_error", 2) }, "internal_error", 2, true},
	{"root message gone", func(h *harness) { h.Slack.FailNext("chat.update", "message_not_found", 1<<30) }, "message_not_found", 1, false},
}

// checkEdits checks that the root message's edits failed as often as f
// makes them.
func (f rootEditFault) checkEdits(t *testing.T, h *harness, rootTS string) {
	t.Helper()
	if f.code == "" {
		return
	}
	if n := h.failedEdits(rootTS, f.code); n != f.edits {
		t.Errorf("%d edits of the root message answered %s, want %d", n, f.code, f.edits)
	}
}

// failedEdits counts the chat.update calls on message ts that Slack answered
// with code.
func (h *harness) failedEdits(ts, code string) int {
	n := 0
	for _, c := range h.Slack.Calls("chat.update") {
		if c.Params["ts"] == ts && c.Error == code {
			n++
		}
	}
	return n
}

// TestRootShowsTheEndDespiteSlack finishes a job while Slack fails the root
// message's edit: a passing failure and a 429 are waited out before the
// finish is recorded, so the root message shows the end when it is; a final
// refusal (the message is gone) is not tried again and does not hold the
// finish up. The result is posted once in every case.
func TestRootShowsTheEndDespiteSlack(t *testing.T) {
	t.Parallel()
	cases := append(rootEditFaults,
		rootEditFault{"rate limited", func(h *harness) { h.Slack.RateLimit("chat.update", 1, time.Second) }, "ratelimited", 1, true})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, rootTS, jobID := runningJob(t, bottest.Config{}, "Document the rate limits")
			st := h.OpenStore()
			tc.fault(h)
			pr := h.Complete(jobID, 31)

			root := h.waitReported(st, jobID, rootTS, "1")
			if got := strings.Contains(root, "Completed") && strings.Contains(root, pr); got != tc.shown {
				t.Errorf("root message shows the end: %v, want %v (root %q)", got, tc.shown, root)
			}
			tc.checkEdits(t, h, rootTS)
		})
	}
}

// TestStopBetweenResultAndRootEdit stops a replica after it posted a result
// and while Slack fails its root edit: the finish is not recorded, the claim
// is handed back, and the next replica finds the result in the thread,
// does not post it again, and shows the end on the root message.
func TestStopBetweenResultAndRootEdit(t *testing.T) {
	t.Parallel()
	h := newHarness(t, bottest.LongJobs())
	st := h.OpenStore()
	first := h.StartBot(bottest.Config{})
	rootTS, jobID := h.startedJob("Document the retries")
	h.Slack.FailNext("chat.update", "service_unavailable", 1<<30)
	pr := h.Complete(jobID, 32)

	h.WaitFor("the result posted and the root edit failing", func() bool {
		return len(h.Finishes(general, rootTS)) == 1 && h.failedEdits(rootTS, "service_unavailable") > 0
	})
	first.Stop()
	if notified(st, jobID) {
		t.Fatal("the finish was recorded as reported while its root message did not show it")
	}
	if root := h.rootShows(rootTS); strings.Contains(root, "Completed") {
		t.Fatalf("root message shows the end although every edit failed: %q", root)
	}

	h.Slack.FailNext("chat.update", "", 0)
	h.StartBot(bottest.Config{})
	if root := h.waitReported(st, jobID, rootTS, "1"); !strings.Contains(root, "Completed") || !strings.Contains(root, pr) {
		t.Errorf("root message does not show the end: %q", root)
	}
}

// TestCrashBeforeTheRootEdit recovers from a replica that posted the result
// and died before editing the root message: the next replica does not post
// again and shows the end on the root message before recording the finish.
func TestCrashBeforeTheRootEdit(t *testing.T) {
	t.Parallel()
	// The crashed replica: claims, records the finish, posts the result,
	// and stops.
	h, st, rootTS, jobID, pr := finishedWithoutBot(t, "Crash before the root edit", 33)
	h.postResultWithoutBot(rootTS, jobID)

	h.StartBot(bottest.Config{})
	if root := h.waitReported(st, jobID, rootTS, "the one posted before the crash"); !strings.Contains(root, "Completed") || !strings.Contains(root, pr) {
		t.Errorf("root message does not show the end: %q", root)
	}
}

// TestRootEditThatKeepsFailing finishes a job while every edit of its root
// message fails for a passing reason: the edit's bounded retries do not hold
// the record up, so the finish is recorded as reported (nothing brings the
// job back to post it again) and the result is in the thread once.
func TestRootEditThatKeepsFailing(t *testing.T) {
	t.Parallel()
	h, rootTS, jobID := runningJob(t, bottest.Config{Config: app.Config{Agent: agent.Config{FinalEditBudget: shortEditBudget}}}, "Document the backoff")
	st := h.OpenStore()
	h.Slack.FailNext("chat.update", "service_unavailable", 1<<30)
	h.Complete(jobID, 34)

	h.waitReported(st, jobID, rootTS, "1")
	j, err := st.Jobs().Job(context.Background(), jobID)
	if err != nil {
		t.Fatal(err)
	}
	if j.NotifyAttempts != 1 {
		t.Errorf("%d notification attempts, want 1", j.NotifyAttempts)
	}
	if tracked, err := st.Jobs().Scheduled(context.Background(), jobID); err != nil || tracked {
		t.Errorf("job still scheduled (%v, %v): it would come back", tracked, err)
	}
}

// TestUnreadableThreadIsNotPostedTwice: a replica posted the result and
// stopped before recording it; the next attempt cannot read the thread
// (Slack's passing trouble). It does not post on a guess: the result stays
// in the thread once and the finish waits for a later attempt.
func TestUnreadableThreadIsNotPostedTwice(t *testing.T) {
	t.Parallel()
	h, st, rootTS, jobID, _ := finishedWithoutBot(t, "Unreadable thread", 35)
	h.postResultWithoutBot(rootTS, jobID)
	h.Slack.FailNext("conversations.replies", "internal_error", 1<<30)

	bot := h.StartBot(bottest.Config{})
	h.WaitFor("the second attempt, unable to read the thread", func() bool {
		j, err := st.Jobs().Job(context.Background(), jobID)
		return err == nil && j.NotifyAttempts == 2 && len(h.Slack.Calls("conversations.replies")) > 0
	})
	// Stopping waits for the attempt to end; the job stays scheduled for
	// the next one.
	bot.Stop()
	if n := len(h.Finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results, want the one posted before the stop", n)
	}
	if notified(st, jobID) {
		t.Error("the finish was recorded as reported without knowing whether it was")
	}
}

// TestUnreadableThreadAtLastPostsWithANote: attempts that stopped before
// posting, and a thread that cannot be read: after maxUncheckedWaits
// attempts the result is posted, once, saying that it may be a repeat.
func TestUnreadableThreadAtLastPostsWithANote(t *testing.T) {
	t.Parallel()
	h, st, rootTS, jobID, pr := finishedWithoutBot(t, "Unreadable thread at last", 36)
	for range agent.MaxUncheckedWaits - 1 {
		h.finishWithoutBot(st, jobID, pr)
	}
	h.Slack.FailNext("conversations.replies", "internal_error", 1<<30)

	h.StartBot(bottest.Config{})
	h.WaitFor("the finish recorded as reported", func() bool { return notified(st, jobID) })
	h.Settle()
	res := h.Finishes(general, rootTS)
	if len(res) != 1 {
		t.Fatalf("%d results, want 1", len(res))
	}
	if got := rendered(res[0]); !strings.Contains(got, "could not check this thread") || !strings.Contains(got, pr) {
		t.Errorf("result %q does not say it may be a repeat", got)
	}
}

// TestShutdownAfterAPrivateResult stops a replica that sent the result in a
// direct message (the bot was removed from the channel) while its root edit
// was failing: the finish is recorded all the same, so the next replica
// does not send the message again.
func TestShutdownAfterAPrivateResult(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	st := h.OpenStore()
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointGet, Status: 503})
	first := h.StartBot(bottest.Config{})
	rootTS, jobID := h.startedJob("Document the quotas")
	h.Slack.AddChannel(slacktest.Channel{ID: general, Name: "general", BotMember: false})
	h.Slack.FailNext("chat.update", "service_unavailable", 1<<30)
	dm, err := h.Slack.OpenDM(alice)
	if err != nil {
		t.Fatal(err)
	}
	h.API.ClearFaults()

	h.WaitFor("the result sent privately and the root edit failing", func() bool {
		return len(h.Slack.Messages(dm)) == 1 && h.failedEdits(rootTS, "service_unavailable") > 0
	})
	first.Stop()
	if !notified(st, jobID) {
		t.Fatal("the private result was not recorded as reported: the next replica would send it again")
	}
	h.StartBot(bottest.Config{})
	h.Settle()
	if n := len(h.Slack.Messages(dm)); n != 1 {
		t.Errorf("%d direct messages, want 1", n)
	}
}
