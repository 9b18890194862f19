package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// TestProjectsMentionDuringAnotherStartChecksTheJobsProject: bob starts a
// job in project api (editors: bob) by mentioning the bot in a thread, and
// while his start holds the thread, alice, who may edit docs only, mentions
// the bot there too. Her post waits for bob's job, as a follow-up would,
// and is then refused privately for api (naming its editors), audited as
// a refusal in api with the job, and never sent to the agent.
func TestProjectsMentionDuringAnotherStartChecksTheJobsProject(t *testing.T) {
	t.Parallel()
	// The thread is older than a start's window (Slack's clock behind):
	// only the start's claim on the thread makes alice's post wait.
	behind := func() time.Time { return time.Now().Add(-3 * time.Minute) }
	w := newProjectsWorldOf(t, projectsOf{apiEditors: []string{bob}, slack: []slacktest.Option{slacktest.WithClock(behind)}}, bottest.LongJobs())
	hold := make(chan struct{})
	w.servers["api"].AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Hold: hold, Times: 1})
	w.start(projectsBot{})
	threadTS := w.userMessage(bob, chAPI, "", "The errors page is out of date")
	w.mention(bob, chAPI, threadTS, "update the errors page")
	w.WaitFor("bob's start holding the thread (its root message posted)", func() bool {
		for _, m := range w.Slack.Thread(chAPI, threadTS) {
			if m.BotID != "" && strings.Contains(string(m.Metadata), agent.RootEvent) {
				return true
			}
		}
		return false
	})
	const hers = "and delete the rate limits page"
	w.mention(alice, chAPI, threadTS, hers)
	w.WaitLogged("another job start in this thread is under way; this post waits to be its follow-up", 1)
	close(hold)

	job := w.newJob("api", 0)
	w.WaitFor("alice refused in project api", func() bool { return w.said(alice, "<@"+bob+">") })
	w.Idle()
	for _, p := range w.servers["api"].Prompts(job.ID) {
		if strings.Contains(p, hers) {
			t.Errorf("alice's post reached api's job: %q", p)
		}
	}
	refused := false
	for _, rec := range w.audit() {
		if rec.Action == store.AuditRefusal && rec.User == alice {
			refused = rec.Project == "api" && rec.JobID == job.ID
		}
		if rec.Action == store.AuditFollowUp && rec.User == alice {
			t.Errorf("alice's post audited as a follow-up: %+v", rec)
		}
	}
	if !refused {
		t.Errorf("alice's refusal is not audited in api with the job: %+v", w.audit())
	}
}

// TestRetryIsAuditedAsWhoTypedIt: a start by bob whose outcome was unknown
// is started again by carol's "retry": the audit trail's job start names
// carol, and says whose start it retried.
func TestRetryIsAuditedAsWhoTypedIt(t *testing.T) {
	t.Parallel()
	w := newProjectsWorldOf(t, projectsOf{apiEditors: []string{bob, carol}}, bottest.LongJobs())
	w.start(projectsBot{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rootTS := w.offeredRetry(ctx, bob)
	w.Reply(carol, chAPI, rootTS, "retry")
	job := w.newJob("api", 0)
	w.Idle()
	var starts []store.AuditRecord
	for _, rec := range w.audit() {
		if rec.Action == store.AuditJobStart && rec.JobID == job.ID {
			starts = append(starts, rec)
		}
	}
	if len(starts) != 1 || starts[0].User != carol || !strings.Contains(starts[0].Detail, bob) {
		t.Errorf("job start audited as %+v, want one record by carol naming bob's start", starts)
	}
}
