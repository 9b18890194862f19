package agent_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

func TestRestartBetweenCreateAndFinishReportsOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t, bottest.LongJobs())
	first := h.StartBot(bottest.Config{})
	rootTS, jobID := h.startedJob("Survive a restart")
	first.Stop()

	// While no bot runs, the job finishes.
	h.Complete(jobID, 77)

	h.StartBot(bottest.Config{})
	h.WaitFor("the result after the restart", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
	h.Settle()
	if n := len(h.Finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results, want 1", n)
	}
	if !strings.Contains(h.Finishes(general, rootTS)[0].Text, "acme/docs#77") {
		t.Errorf("result %q lacks the PR", h.Finishes(general, rootTS)[0].Text)
	}
}

func TestTwoReplicasReportEachJobOnce(t *testing.T) {
	t.Parallel()
	h := longJobsBot(t, bottest.Config{})
	h.StartBot(bottest.Config{})
	const jobs = 12
	roots := make([]string, 0, jobs)
	for i := range jobs {
		ts, _ := h.startedJob(fmt.Sprintf("Job number %d", i))
		roots = append(roots, ts)
	}
	// Finish them all at once: both pollers race for every finish.
	for _, j := range h.API.Jobs() {
		pr := "https://github.com/acme/docs/pull/" + j.ID
		h.API.SetJobStatus(j.ID, docsapi.StatusCompleted, &pr)
	}
	h.WaitFor("every result", func() bool {
		for _, ts := range roots {
			if len(h.Finishes(general, ts)) == 0 {
				return false
			}
		}
		return true
	})
	h.Settle()
	for i, ts := range roots {
		if n := len(h.Finishes(general, ts)); n != 1 {
			t.Errorf("job %d: %d results, want 1", i, n)
		}
	}
	if n := h.API.Count(docsapitest.EndpointCreate); n != jobs {
		t.Errorf("%d jobs created, want %d", n, jobs)
	}
}

func TestSocketDropLosesNothing(t *testing.T) {
	t.Parallel()
	h, rootTS, jobID := runningJob(t, bottest.Config{}, "Before the drop")

	reconnected := func(after int) func() bool {
		return func() bool { return h.Slack.Connects() > after && h.Slack.Connections() == 1 }
	}
	before := h.Slack.Connects()
	h.Slack.DropConnections()
	h.WaitFor("a reconnect after the drop", reconnected(before))
	before = h.Slack.Connects()
	h.Slack.Disconnect("refresh_requested")
	h.WaitFor("a reconnect after Slack's disconnect", reconnected(before))

	replyTS, _ := h.Reply(alice, general, rootTS, "After the drop")
	h.waitReaction("the follow-up after reconnecting", replyTS)
	h.Complete(jobID, 5)
	h.WaitFor("the result", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
	if p := h.API.Prompts(jobID); len(p) != 2 {
		t.Errorf("prompts %q, want create + follow-up", p)
	}
}

func TestUnknownStatusKeepsPollingAndGoneJobStops(t *testing.T) {
	t.Parallel()
	h, rootTS, jobID := runningJob(t, bottest.Config{}, "Strange states")
	h.API.SetJobStatus(jobID, docsapi.Status("queued"), nil)
	polls := h.API.Count(docsapitest.EndpointGet)
	h.WaitFor("more polls of a job in an unknown state", func() bool { return h.API.Count(docsapitest.EndpointGet) >= polls+3 })
	if n := len(h.Finishes(general, rootTS)); n != 0 {
		t.Fatalf("an unknown status was reported as a finish")
	}

	// The job disappears from the API: the bot says so once and stops.
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointGet, Status: 404, Body: `{"error":"job not found"}`})
	h.WaitFor("a note that the job is gone", func() bool {
		for _, m := range h.Slack.Thread(general, rootTS) {
			if strings.Contains(m.Text, "no longer knows") {
				return true
			}
		}
		return false
	})
	gets := h.API.Count(docsapitest.EndpointGet)
	h.Settle()
	if after := h.API.Count(docsapitest.EndpointGet); after != gets {
		t.Errorf("still polling a job the API does not know: %d then %d", gets, after)
	}
}

// A replica that recorded a finish and died before posting: another replica
// posts the result when the claim's lease runs out.
func TestCrashBeforePostingIsRecovered(t *testing.T) {
	t.Parallel()
	// The "crashed replica": claims, records the finish, never posts.
	h, _, rootTS, _, _ := finishedWithoutBot(t, "Crash before posting", 9)

	h.StartBot(bottest.Config{})
	h.WaitFor("the recovered result", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
	h.Settle()
	if n := len(h.Finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results, want 1", n)
	}
}

// A replica that posted the result and died before recording it: the next
// attempt finds the post in the thread and does not post again.
func TestCrashAfterPostingIsNotRepeated(t *testing.T) {
	t.Parallel()
	h, st, rootTS, jobID, _ := finishedWithoutBot(t, "Crash after posting", 10)
	// A long thread: the crashed replica's post lands past the first page of
	// conversations.replies (200 messages).
	for i := range 230 {
		if _, _, err := h.BotClient().PostMessage(general, slack.MsgOptionTS(rootTS), slack.MsgOptionText(fmt.Sprintf("note %d", i), false)); err != nil {
			t.Fatal(err)
		}
	}
	h.postResultWithoutBot(rootTS, jobID)

	h.StartBot(bottest.Config{})
	h.WaitFor("the job to be settled", func() bool {
		j, err := st.Jobs().Job(context.Background(), jobID)
		return err == nil && j.Notified == 1
	})
	if n := len(h.Finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results, want the one posted before the crash", n)
	}
}

// finishedWithoutBot is a world in which, while no bot runs, a replica
// created a job (prompt) and its root message and linked them as the bot
// does, the docs API completed the job with pull request n (pr), and the
// replica claimed it and recorded its finish, then stopped
// (finishWithoutBot). st reads the world's Redis.
func finishedWithoutBot(t *testing.T, prompt string, n int) (h *harness, st *store.Store, rootTS, jobID, pr string) {
	t.Helper()
	h = newHarness(t, bottest.LongJobs())
	st = h.OpenStore()
	ctx := context.Background()
	client := h.apiClient()
	job, err := client.CreateJob(ctx, prompt)
	if err != nil {
		t.Fatal(err)
	}
	_, rootTS, err = h.BotClient().PostMessage(general, slack.MsgOptionText(prompt, false))
	if err != nil {
		t.Fatal(err)
	}
	err = st.Jobs().LinkJob(ctx, store.Job{ID: job.ID, Thread: store.Thread{Team: "T0TEST", Channel: general, TS: rootTS}, Requester: alice, Prompt: prompt, Status: "active"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	pr = h.Complete(job.ID, n)
	h.finishWithoutBot(st, job.ID, pr)
	return h, st, rootTS, job.ID, pr
}

// claim takes the job's claim from the schedule, as a replica's poller would.
func (h *harness) claim(st *store.Store, jobID string) store.Claim {
	h.T.Helper()
	var claim store.Claim
	h.WaitFor("job "+jobID+" to come due", func() bool {
		cs, err := st.Jobs().Claim(context.Background(), 10, time.Minute)
		if err != nil {
			h.T.Fatal(err)
		}
		for _, c := range cs {
			if c.JobID == jobID {
				claim = c
				return true
			}
		}
		return false
	})
	return claim
}

// TestShutdownDuringAPollHandsTheJobBack stops a replica while its poll of a
// job is in flight: the job goes back to the schedule at once (not when the
// one-minute lease ends), and the other replica reports it, once.
func TestShutdownDuringAPollHandsTheJobBack(t *testing.T) {
	t.Parallel()
	h := newHarness(t, bottest.LongJobs())
	first := h.StartBot(bottest.Config{})
	rootTS, jobID := h.startedJob("Stop in the middle")
	// The next get-job call hangs: the poll is in flight when the stop comes.
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointGet, Latency: time.Hour, Times: 1})
	gets := h.API.Count(docsapitest.EndpointGet)
	h.WaitFor("a poll in flight", func() bool { return h.API.Count(docsapitest.EndpointGet) > gets })
	h.Complete(jobID, 31)

	stopped := make(chan struct{})
	go func() { first.Stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the replica did not stop during a poll")
	}
	h.StartBot(bottest.Config{})
	h.WaitFor("the result from the other replica", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
	h.Settle()
	if n := len(h.Finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results, want 1", n)
	}
	if !strings.Contains(h.Logs.String(), "handed back polls in flight") {
		t.Errorf("the stopping replica did not hand its poll back")
	}
}

// finishWithoutBot is a replica that claims the job and records its finish
// (status completed, pull request pr), as the poller does, and then stops.
func (h *harness) finishWithoutBot(st *store.Store, jobID, pr string) {
	h.T.Helper()
	c := h.claim(st, jobID)
	if notify, err := st.Jobs().Finish(context.Background(), c, "completed", pr, 100*time.Millisecond); err != nil || !notify {
		h.T.Fatalf("finish: notify=%v err=%v", notify, err)
	}
}

// postResultWithoutBot posts the result of job's first run in the thread of
// rootTS as the bot writes it (text and metadata), as a replica that then
// stopped before recording it.
func (h *harness) postResultWithoutBot(rootTS, jobID string) {
	h.T.Helper()
	_, _, err := h.BotClient().PostMessage(general, slack.MsgOptionTS(rootTS), slack.MsgOptionText("done", false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: agent.FinishedEvent, EventPayload: map[string]any{"job_id": jobID, "generation": 1, "status": "completed"}}))
	if err != nil {
		h.T.Fatalf("post: %v", err)
	}
}

// TestStopWhileTheResultIsPostedReportsOnce stops a replica, as a rolling
// update does, while Slack is still taking its result post (3 s a post),
// with another replica already running. With a grace shorter than the post
// the poll is cut short: the job is handed back due after the landing
// window, and the replica that takes it then finds the post, landed after
// the hand-back, instead of posting a second result. With a grace that
// covers the post the stopping replica reports the finish itself.
func TestStopWhileTheResultIsPostedReportsOnce(t *testing.T) {
	t.Parallel()
	const postLatency = 3 * time.Second
	tests := []struct {
		name  string
		grace time.Duration
		// logged is the line that shows which replica reported the finish.
		logged string
	}{
		{name: "cut short, taken over after the landing window", grace: time.Millisecond, logged: "result was already posted by an earlier attempt"},
		{name: "finished within the grace", grace: 8 * time.Second, logged: "job finished; result posted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, bottest.LongJobs())
			// The landing window outlasts the post by 2x: the post lands
			// before the next attempt looks, however the stop is scheduled.
			cfg := bottest.Config{Config: app.Config{Bot: bot.Config{ShutdownGrace: tt.grace, LandingWindow: 2 * postLatency}}}
			stopping := h.StartBot(cfg)
			rootTS, jobID := h.startedJob("Survive a rolling update")
			h.Slack.SetAPILatency("chat.postMessage", postLatency)
			h.Complete(jobID, 25)
			h.WaitFor("the result post in flight", func() bool { return h.Slack.InFlight("chat.postMessage") > 0 })
			h.StartBot(cfg)
			stopping.Stop()
			h.WaitLogged(tt.logged, 1)
			st := h.OpenStore()
			h.waitReported(st, jobID, rootTS, "1 (the post of the stopped replica)")
		})
	}
}
