package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/store"
)

// TestProjectsRetryChecksTheProjectsEditors: "retry" in the thread of a
// start in api whose outcome was unknown is decided by api's editors: a
// person who may edit docs only is refused privately, starts nothing, the
// refusal is audited with the project, and the offer stays for an editor
// of api, whose "retry" starts the job in api.
func TestProjectsRetryChecksTheProjectsEditors(t *testing.T) {
	t.Parallel()
	w := newProjectsWorldOf(t, projectsOf{apiEditors: []string{bob}}, bottest.LongJobs())
	w.start(projectsBot{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	rootTS := w.offeredRetry(ctx, bob)

	w.Reply(alice, chAPI, rootTS, "retry")
	w.WaitFor("alice refused in project api", func() bool { return w.said(alice, "<@"+bob+">") })
	w.Idle()
	if c := w.creates(); c["docs"] != 0 || c["api"] != 0 {
		t.Errorf("creates after a refused retry = %v, want none", c)
	}
	refused := false
	for _, rec := range w.audit() {
		if rec.Action == store.AuditRefusal && rec.User == alice {
			refused = true
			if rec.Project != "api" {
				t.Errorf("refused retry audited with project %q, want api: %+v", rec.Project, rec)
			}
		}
	}
	if !refused {
		t.Errorf("the refused retry is not audited: %+v", w.audit())
	}

	w.Reply(bob, chAPI, rootTS, "retry")
	job := w.newJob("api", 0)
	if got := w.servers["api"].Prompts(job.ID); len(got) != 1 || got[0] != "Document the errors" {
		t.Errorf("api's API got prompts %q, want the start's instruction", got)
	}
	if n := w.creates()["docs"]; n != 0 {
		t.Errorf("docs's API was asked to create %d jobs, want none", n)
	}
}

// TestProjectsChoiceRememberedOnlyForItsEditors: a person who is not an
// editor of api and names it (project=api with an instruction, alone, or
// by the question's button) is refused privately, saying who can help, and
// api is not remembered as their choice: their next command without a
// project asks again.
func TestProjectsChoiceRememberedOnlyForItsEditors(t *testing.T) {
	t.Parallel()
	w := newProjectsWorldOf(t, projectsOf{apiEditors: []string{bob}}, bottest.LongJobs())
	w.start(projectsBot{})
	ctx := context.Background()
	notRemembered := func(after string) {
		t.Helper()
		if last, err := w.st.Choices().LastProject(ctx, team, alice); err != nil || last != "" {
			t.Errorf("last choice after %s = %q, %v; want none", after, last, err)
		}
	}

	w.Command(alice, general, agent.Command, "project=api Document the errors")
	w.WaitFor("alice refused in project api", func() bool { return len(w.Privates(alice, "<@"+bob+">")) == 1 })
	w.Idle()
	notRemembered("a refused project=api with an instruction")

	w.Command(alice, general, agent.Command, "project=api")
	w.WaitFor("alice refused choosing api alone", func() bool { return len(w.Privates(alice, "<@"+bob+">")) == 2 })
	w.Idle()
	notRemembered("a refused project=api alone")
	if w.said(alice, "Your docs agent jobs now go to") {
		t.Errorf("alice was told her jobs go to api: %v", w.Slack.Ephemerals(alice))
	}

	w.Command(alice, general, agent.Command, "Write a FAQ")
	q := w.question(alice)
	// The click's first answer through the response_url is held back (a
	// 429): an answer that raced the start's refusal would come after it.
	w.Slack.RateLimit("response_url", 1, time.Second)
	w.act(alice, q, agent.ActionChooseProject, "api")
	w.WaitFor("alice refused choosing api by its button", func() bool { return len(w.Privates(alice, "<@"+bob+">")) == 3 })
	w.Idle()
	notRemembered("a refused click on api")
	// The refusal is what alice sees last: the question was answered
	// before the start was queued, so the answer never replaces it.
	if eph := w.Slack.Ephemerals(alice); len(eph) == 0 || !strings.Contains(eph[len(eph)-1].Text, "<@"+bob+">") {
		t.Errorf("alice's last private message is not the refusal: %v", eph)
	}
	if c := w.creates(); c["docs"] != 0 || c["api"] != 0 {
		t.Errorf("creates after the refusals = %v, want none", c)
	}
	rec := 0
	for _, r := range w.audit() {
		if r.Action == store.AuditRefusal && r.User == alice && r.Project == "api" {
			rec++
		}
	}
	if rec != 3 {
		t.Errorf("%d refusals of alice in api audited, want 3", rec)
	}

	// Bob, an editor of api, is remembered.
	w.Command(bob, general, agent.Command, "project=api")
	w.WaitFor("bob told his jobs now go to api", func() bool { return w.said(bob, "Your docs agent jobs now go to the docs project `api`") })
	if last, err := w.st.Choices().LastProject(ctx, team, bob); err != nil || last != "api" {
		t.Errorf("bob's last choice = %q, %v; want api", last, err)
	}
}

// offeredRetry makes the thread of a start by user in api whose outcome was
// unknown, with "retry" offered in it, and returns its root's ts.
func (w *projectsWorld) offeredRetry(ctx context.Context, user string) string {
	w.T.Helper()
	rootTS := w.PostNoAck(user, chAPI, "", "placeholder for the root message of a start whose outcome was unknown")
	start, _ := json.Marshal(map[string]string{"team": team, "channel": chAPI, "user": user, "prompt": "Document the errors",
		"root": rootTS, "project": "api"})
	if err := w.st.RetryOffers().OfferRetry(ctx, store.Thread{Team: team, Channel: chAPI, TS: rootTS}, start, time.Hour); err != nil {
		w.T.Fatalf("OfferRetry: %v", err)
	}
	return rootTS
}
