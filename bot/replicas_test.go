package bot_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// gate keeps jobs active until the test opens it.
type gate struct {
	mu   sync.Mutex
	open bool
}

func (g *gate) lifecycle(string) docsapitest.Lifecycle {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open {
		return docsapitest.Lifecycle{ActivePolls: 1, Outcome: docsapitest.OutcomePR}
	}
	return docsapitest.Lifecycle{ActivePolls: 1 << 30, Outcome: docsapitest.OutcomePR}
}

func TestRestartBetweenCreateAndFinishReportsOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	first := h.startBot(bot.Config{})
	h.api.SetLifecycle(func(string) docsapitest.Lifecycle {
		return docsapitest.Lifecycle{ActivePolls: 1 << 30, Outcome: docsapitest.OutcomePR}
	})
	rootTS, jobID := h.startedJob("Survive a restart")
	first.stop()

	// While no bot runs, the job finishes.
	pr := "https://github.com/acme/docs/pull/77"
	h.api.SetJobStatus(jobID, docsapi.StatusCompleted, &pr)

	h.startBot(bot.Config{})
	h.waitFor("the result after the restart", func() bool { return len(h.finishes(general, rootTS)) == 1 })
	h.settle()
	if n := len(h.finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results, want 1", n)
	}
	if !strings.Contains(h.finishes(general, rootTS)[0].Text, "acme/docs#77") {
		t.Errorf("result %q lacks the PR", h.finishes(general, rootTS)[0].Text)
	}
}

func TestTwoReplicasReportEachJobOnce(t *testing.T) {
	t.Parallel()
	g := &gate{}
	h := newHarness(t, docsapitest.WithLifecycle(g.lifecycle))
	h.startBot(bot.Config{})
	h.startBot(bot.Config{})
	const jobs = 12
	roots := make([]string, 0, jobs)
	for i := range jobs {
		ts, _ := h.startedJob(fmt.Sprintf("Job number %d", i))
		roots = append(roots, ts)
	}
	// Finish them all at once: both pollers race for every finish.
	for _, j := range h.api.Jobs() {
		pr := "https://github.com/acme/docs/pull/" + j.ID
		h.api.SetJobStatus(j.ID, docsapi.StatusCompleted, &pr)
	}
	h.waitFor("every result", func() bool {
		for _, ts := range roots {
			if len(h.finishes(general, ts)) == 0 {
				return false
			}
		}
		return true
	})
	h.settle()
	for i, ts := range roots {
		if n := len(h.finishes(general, ts)); n != 1 {
			t.Errorf("job %d: %d results, want 1", i, n)
		}
	}
	if n := h.api.Count(docsapitest.EndpointCreate); n != jobs {
		t.Errorf("%d jobs created, want %d", n, jobs)
	}
}

func TestSocketDropLosesNothing(t *testing.T) {
	t.Parallel()
	g := &gate{}
	h := newHarness(t, docsapitest.WithLifecycle(g.lifecycle))
	h.startBot(bot.Config{})
	rootTS, jobID := h.startedJob("Before the drop")

	reconnected := func(after int) func() bool {
		return func() bool { return h.slack.Connects() > after && h.slack.Connections() == 1 }
	}
	before := h.slack.Connects()
	h.slack.DropConnections()
	h.waitFor("a reconnect after the drop", reconnected(before))
	before = h.slack.Connects()
	h.slack.Disconnect("refresh_requested")
	h.waitFor("a reconnect after Slack's disconnect", reconnected(before))

	replyTS, _ := h.reply(alice, general, rootTS, "After the drop")
	h.waitFor("the follow-up after reconnecting", func() bool {
		m, _ := h.slack.Message(general, replyTS)
		return len(m.Reactions) == 1
	})
	pr := "https://github.com/acme/docs/pull/5"
	h.api.SetJobStatus(jobID, docsapi.StatusCompleted, &pr)
	h.waitFor("the result", func() bool { return len(h.finishes(general, rootTS)) == 1 })
	if p := h.api.Prompts(jobID); len(p) != 2 {
		t.Errorf("prompts %q, want create + follow-up", p)
	}
}

func TestUnknownStatusKeepsPollingAndGoneJobStops(t *testing.T) {
	t.Parallel()
	g := &gate{}
	h := newHarness(t, docsapitest.WithLifecycle(g.lifecycle))
	h.startBot(bot.Config{})
	rootTS, jobID := h.startedJob("Strange states")
	h.api.SetJobStatus(jobID, docsapi.Status("queued"), nil)
	polls := h.api.Count(docsapitest.EndpointGet)
	h.waitFor("more polls of a job in an unknown state", func() bool { return h.api.Count(docsapitest.EndpointGet) >= polls+3 })
	if n := len(h.finishes(general, rootTS)); n != 0 {
		t.Fatalf("an unknown status was reported as a finish")
	}

	// The job disappears from the API: the bot says so once and stops.
	h.api.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointGet, Status: 404, Body: `{"error":"job not found"}`})
	h.waitFor("a note that the job is gone", func() bool {
		for _, m := range h.slack.Thread(general, rootTS) {
			if strings.Contains(m.Text, "no longer knows") {
				return true
			}
		}
		return false
	})
	gets := h.api.Count(docsapitest.EndpointGet)
	h.settle()
	if after := h.api.Count(docsapitest.EndpointGet); after != gets {
		t.Errorf("still polling a job the API does not know: %d then %d", gets, after)
	}
}

// A replica that recorded a finish and died before posting: another replica
// posts the result when the claim's lease runs out.
func TestCrashBeforePostingIsRecovered(t *testing.T) {
	t.Parallel()
	g := &gate{}
	h := newHarness(t, docsapitest.WithLifecycle(g.lifecycle))
	st := h.openStore()
	rootTS, jobID := h.linkedJobWithoutBot(st, "Crash before posting")
	pr := "https://github.com/acme/docs/pull/9"
	h.api.SetJobStatus(jobID, docsapi.StatusCompleted, &pr)

	// The "crashed replica": claims, records the finish, never posts.
	c := h.claim(st, jobID)
	if notify, err := st.Finish(context.Background(), c, "completed", pr, 100*time.Millisecond); err != nil || !notify {
		t.Fatalf("finish: notify=%v err=%v", notify, err)
	}

	h.startBot(bot.Config{})
	h.waitFor("the recovered result", func() bool { return len(h.finishes(general, rootTS)) == 1 })
	h.settle()
	if n := len(h.finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results, want 1", n)
	}
}

// A replica that posted the result and died before recording it: the next
// attempt finds the post in the thread and does not post again.
func TestCrashAfterPostingIsNotRepeated(t *testing.T) {
	t.Parallel()
	g := &gate{}
	h := newHarness(t, docsapitest.WithLifecycle(g.lifecycle))
	st := h.openStore()
	rootTS, jobID := h.linkedJobWithoutBot(st, "Crash after posting")
	pr := "https://github.com/acme/docs/pull/10"
	h.api.SetJobStatus(jobID, docsapi.StatusCompleted, &pr)

	c := h.claim(st, jobID)
	if notify, err := st.Finish(context.Background(), c, "completed", pr, 100*time.Millisecond); err != nil || !notify {
		t.Fatalf("finish: notify=%v err=%v", notify, err)
	}
	// A long thread: the crashed replica's post lands past the first page of
	// conversations.replies (200 messages).
	sc := slack.New("xoxb-test-bot-token", slack.OptionAPIURL(h.slack.APIURL))
	for i := range 230 {
		if _, _, err := sc.PostMessage(general, slack.MsgOptionTS(rootTS), slack.MsgOptionText(fmt.Sprintf("note %d", i), false)); err != nil {
			t.Fatal(err)
		}
	}
	// The crashed replica's post, as the bot writes it (text and metadata).
	_, _, err := sc.PostMessage(general, slack.MsgOptionTS(rootTS), slack.MsgOptionText("done", false),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: bot.FinishedEvent, EventPayload: map[string]any{"job_id": jobID, "generation": 1, "status": "completed"}}))
	if err != nil {
		t.Fatalf("post: %v", err)
	}

	h.startBot(bot.Config{})
	h.waitFor("the job to be settled", func() bool {
		j, err := st.Job(context.Background(), jobID)
		return err == nil && j.Notified == 1
	})
	if n := len(h.finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results, want the one posted before the crash", n)
	}
}

// linkedJobWithoutBot creates a job and its root message the way the bot
// does, without a bot running.
func (h *harness) linkedJobWithoutBot(st *store.Store, prompt string) (rootTS, jobID string) {
	h.t.Helper()
	ctx := context.Background()
	client, err := docsapi.NewClient(h.api.Key, h.api.ProjectID, docsapi.WithBaseURL(h.api.URL))
	if err != nil {
		h.t.Fatal(err)
	}
	job, err := client.CreateJob(ctx, prompt)
	if err != nil {
		h.t.Fatal(err)
	}
	sc := slack.New("xoxb-test-bot-token", slack.OptionAPIURL(h.slack.APIURL))
	_, ts, err := sc.PostMessage(general, slack.MsgOptionText(prompt, false))
	if err != nil {
		h.t.Fatal(err)
	}
	err = st.LinkJob(ctx, store.Job{ID: job.ID, Thread: store.Thread{Team: "T0TEST", Channel: general, TS: ts}, Requester: alice, Prompt: prompt, Status: "active"}, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	return ts, job.ID
}

// claim takes the job's claim from the schedule, as a replica's poller would.
func (h *harness) claim(st *store.Store, jobID string) store.Claim {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		cs, err := st.Claim(context.Background(), 10, time.Minute)
		if err != nil {
			h.t.Fatal(err)
		}
		for _, c := range cs {
			if c.JobID == jobID {
				return c
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.t.Fatalf("job %s never came due", jobID)
	return store.Claim{}
}

// TestShutdownDuringAPollHandsTheJobBack stops a replica while its poll of a
// job is in flight: the job goes back to the schedule at once (not when the
// one-minute lease ends), and the other replica reports it, once.
func TestShutdownDuringAPollHandsTheJobBack(t *testing.T) {
	t.Parallel()
	g := &gate{}
	h := newHarness(t, docsapitest.WithLifecycle(g.lifecycle))
	first := h.startBot(bot.Config{})
	rootTS, jobID := h.startedJob("Stop in the middle")
	// The next get-job call hangs: the poll is in flight when the stop comes.
	h.api.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointGet, Latency: time.Hour, Times: 1})
	gets := h.api.Count(docsapitest.EndpointGet)
	h.waitFor("a poll in flight", func() bool { return h.api.Count(docsapitest.EndpointGet) > gets })
	pr := "https://github.com/acme/docs/pull/31"
	h.api.SetJobStatus(jobID, docsapi.StatusCompleted, &pr)

	stopped := make(chan struct{})
	go func() { first.stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the replica did not stop during a poll")
	}
	h.startBot(bot.Config{})
	h.waitFor("the result from the other replica", func() bool { return len(h.finishes(general, rootTS)) == 1 })
	h.settle()
	if n := len(h.finishes(general, rootTS)); n != 1 {
		t.Errorf("%d results, want 1", n)
	}
	if !strings.Contains(h.logs.String(), "handed back polls in flight") {
		t.Errorf("the stopping replica did not hand its poll back")
	}
}
