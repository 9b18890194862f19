package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// element is a Block Kit element of a message, as JSON.
type element map[string]any

// elements returns the interactive elements of a message's blocks, by
// action_id.
func elements(t *testing.T, m slacktest.Message) map[string]element {
	t.Helper()
	var blocks []struct {
		Type     string    `json:"type"`
		Elements []element `json:"elements"`
	}
	if err := json.Unmarshal(m.Blocks, &blocks); err != nil {
		t.Fatalf("blocks of %s: %v", m.TS, err)
	}
	out := map[string]element{}
	for _, b := range blocks {
		for _, e := range b.Elements {
			if id, _ := e["action_id"].(string); id != "" {
				e["block_type"] = b.Type
				out[id] = e
			}
		}
	}
	return out
}

func TestResultButtons(t *testing.T) {
	t.Parallel()
	pr := "https://github.com/acme/docs/pull/12"
	cases := []struct {
		name   string
		status docsapi.Status
		pr     string
		url    string // the View pull request button's URL, "" for none
	}{
		{"pull request", docsapi.StatusCompleted, pr, pr},
		{"no change", docsapi.StatusCompleted, "", ""},
		{"failed", docsapi.StatusFailed, "", ""},
		{"hostile link", docsapi.StatusCompleted, "javascript:alert(1)|<!here>", ""},
		{"markup in a web link", docsapi.StatusCompleted, "https://evil.example/pull/1?<!channel>", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, rootTS, jobID := runningJob(t, bottest.Config{}, "Add <b>examples</b> & <!channel> notes")
			var link *string
			if tc.pr != "" {
				link = &tc.pr
			}
			h.API.SetJobStatus(jobID, tc.status, link)
			h.WaitFor("the result", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
			res := h.Finishes(general, rootTS)[0]
			els := elements(t, res)
			view, ok := els["agent.view_pr"]
			switch {
			case tc.url == "" && ok:
				t.Errorf("a View pull request button for %q: %v", tc.pr, view)
			case tc.url != "" && (!ok || view["url"] != tc.url):
				t.Errorf("View pull request button %v, want a link to %s", view, tc.url)
			}
			if f, ok := els[agent.ActionFollowUp]; !ok || f["value"] != rootTS {
				t.Errorf("Follow up button %v, want one naming the thread %s", f, rootTS)
			}
			if f, ok := els[agent.ActionFeedback]; !ok || f["type"] != "feedback_buttons" || f["block_type"] != "context_actions" {
				t.Errorf("feedback buttons %v, want feedback_buttons in a context_actions block", f)
			}
			all := res.Text + string(res.Blocks)
			for _, bad := range []string{"<!here>", "<!channel>", "<b>", "<javascript"} {
				if strings.Contains(all, bad) {
					t.Errorf("result carries live markup %q: %s", bad, all)
				}
			}
			if !strings.Contains(string(res.Metadata), agent.FinishedEvent) {
				t.Errorf("result metadata %s lacks %s", res.Metadata, agent.FinishedEvent)
			}
		})
	}
}

// finishedJob starts a job and waits for its result: the result message.
func (h *harness) finishedJob(prompt string) (rootTS, jobID string, result slacktest.Message) {
	h.T.Helper()
	rootTS, jobID = h.startedJob(prompt)
	h.WaitFor("the result", func() bool { return len(h.Finishes(general, rootTS)) == 1 })
	return rootTS, jobID, h.Finishes(general, rootTS)[0]
}

// press has user press the button actionID of the result res (value for
// a feedback button, "" for a button's own).
func (h *harness) press(user string, res slacktest.Message, actionID, value string) {
	h.T.Helper()
	h.Act(slacktest.Action{UserID: user, ChannelID: res.Channel, MessageTS: res.TS, ActionID: actionID, Value: value})
}

// TestFollowUpButtonModalSubmittedOnce: Follow up opens a modal; its
// submission, delivered twice, is one follow-up to the agent, shown once in
// the thread; an empty one is refused on its field.
func TestFollowUpButtonModalSubmittedOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})
	rootTS, jobID, res := h.finishedJob("Document webhooks")
	h.press(alice, res, agent.ActionFollowUp, "")
	h.WaitFor("the follow-up modal", func() bool { return len(h.Slack.OpenModals(alice)) == 1 })
	modal := h.Slack.OpenModals(alice)[0]
	if modal.CallbackID != agent.ViewFollowUp {
		t.Fatalf("modal %+v, want callback %s", modal, agent.ViewFollowUp)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	values := func(text string) map[string]map[string]string {
		return map[string]map[string]string{"followup": {"instruction": text}}
	}
	if _, err := h.Slack.SubmitView(ctx, slacktest.ViewSubmission{ViewID: modal.ID, Values: values("   ")}); err != nil {
		t.Fatalf("submitting an empty modal: %v", err)
	}
	if v, _ := h.Slack.ViewByID(modal.ID); !v.Open || v.Errors["followup"] == "" {
		t.Errorf("an empty follow-up: view %+v, want it open with an error on its field", v)
	}

	const text = "Also show <the> retries & backoff"
	sub, err := h.Slack.SubmitView(ctx, slacktest.ViewSubmission{ViewID: modal.ID, Values: values(text)})
	if err != nil {
		t.Fatalf("submitting the modal: %v", err)
	}
	if err := h.Slack.Redeliver(ctx, sub.EnvelopeID); err != nil {
		t.Fatalf("redelivering the submission: %v", err)
	}
	h.WaitLogged(bot.RedeliveredInteraction, 1)
	h.WaitFor("the follow-up's result", func() bool { return len(h.Finishes(general, rootTS)) == 2 })
	h.Settle()
	if got := h.API.Prompts(jobID); len(got) != 2 || got[1] != text {
		t.Errorf("the agent got %q, want the instruction and the follow-up %q once", got, text)
	}
	notes := 0
	for _, m := range h.Slack.Thread(general, rootTS) {
		if strings.Contains(m.Text, "followed up") {
			notes++
			if !strings.Contains(m.Text, "&lt;the&gt; retries &amp; backoff") {
				t.Errorf("the follow-up is not shown escaped: %q", m.Text)
			}
		}
	}
	if notes != 1 {
		t.Errorf("%d notes of the follow-up in the thread, want 1", notes)
	}
}

// TestFollowUpButtonExpiredTrigger: when Slack says the trigger expired, the
// person is told privately what to do.
func TestFollowUpButtonExpiredTrigger(t *testing.T) {
	t.Parallel()
	h := &harness{bottest.NewWith(t, redisURL, []slacktest.Option{slacktest.WithTriggerTTL(time.Nanosecond)})}
	h.StartBot(bottest.Config{})
	rootTS, _, res := h.finishedJob("Document webhooks")
	h.press(alice, res, agent.ActionFollowUp, "")
	// Under load the job's start may also have told alice it is queued:
	// the note looked for is the press's.
	note := h.WaitPrivate(alice, "took too long")
	if n := len(h.Privates(alice, "took too long")); n != 1 {
		t.Errorf("%d notes that the press took too long, want one", n)
	}
	if !strings.Contains(note.Text, "reply in this thread") || note.ThreadTS != rootTS {
		t.Errorf("note %+v, want one in the thread saying to press again or reply", note)
	}
	if n := len(h.Slack.OpenModals(alice)); n != 0 {
		t.Errorf("%d modals open, want none", n)
	}
}

// TestFeedbackCountedOncePerPerson: 👍/👎 clicks are thanked privately and
// counted in /metrics once per person and result.
func TestFeedbackCountedOncePerPerson(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	h := newHarness(t)
	h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{Metrics: bot.NewMetrics(reg)}}})
	_, _, res := h.finishedJob("Document webhooks")
	// Each click is answered before the next one is made: clicks are
	// handled by concurrent inbox workers, so only an answered click is
	// surely the one that came first.
	answered := map[string]int{}
	for _, c := range []struct{ user, value string }{{alice, "positive"}, {alice, "negative"}, {bob, "negative"}} {
		h.press(c.user, res, agent.ActionFeedback, c.value)
		answered[c.user]++
		want := answered[c.user]
		// Thanks alone: under load the job's start may also have told
		// alice it is queued.
		h.WaitFor(c.user+"'s answer to click "+c.value, func() bool { return len(h.Privates(c.user, "Thanks")) == want })
	}
	if got := h.Privates(alice, "Thanks"); !strings.Contains(got[1].Text, "already counted") {
		t.Errorf("alice's second answer %q, want one saying her feedback was already counted", got[1].Text)
	}
	h.StopAll()
	if n := strings.Count(h.Logs.String(), `msg="feedback on a result"`); n != 2 {
		t.Errorf("%d feedback counted in the logs, want 2 (alice once, bob once)", n)
	}
	got := map[string]float64{}
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != "docsbot_feedback_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			got[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
		}
	}
	if got["positive"] != 1 || got["negative"] != 1 {
		t.Errorf("docsbot_feedback_total = %v, want positive 1 (alice's first click) and negative 1 (bob's)", got)
	}
}

// TestResultButtonsRefuseOutsiders: a person outside the allow-list who
// presses Follow up or a feedback button is refused privately.
func TestResultButtonsRefuseOutsiders(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{AllowedUsers: []string{alice}}}})
	_, _, res := h.finishedJob("Document webhooks")
	h.press(bob, res, agent.ActionFollowUp, "")
	h.press(bob, res, agent.ActionFeedback, "positive")
	h.WaitFor("two private refusals", func() bool { return len(h.Slack.Ephemerals(bob)) == 2 })
	h.StopAll()
	if n := len(h.Slack.OpenModals(bob)); n != 0 {
		t.Errorf("%d modals opened for an outsider, want none", n)
	}
	for _, m := range h.Privates(bob, "Thanks") {
		t.Errorf("an outsider's feedback was taken: %q", m.Text)
	}
	if strings.Contains(h.Logs.String(), `msg="feedback on a result"`) {
		t.Errorf("an outsider's feedback was counted")
	}
}

// TestResultThatCannotBePostedAsIsReachesThePerson finishes jobs whose
// result Slack would refuse in its thread: a 3,000-character pull request
// link (a section over Slack's 3,000 characters) is posted as text, with
// its link; a channel the bot was removed from sends the result to the
// requester in a direct message. Nothing is dropped silently.
func TestResultThatCannotBePostedAsIsReachesThePerson(t *testing.T) {
	t.Parallel()
	const host = "https://git.example.com/"
	longRepo := host + strings.Repeat("a", 3000-len(host)-len("/pull/1"))
	for _, tc := range []struct {
		name    string
		repo    string
		removed bool
	}{
		{"3,000-character pull request link", longRepo, false},
		{"bot removed from the channel", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var opts []docsapitest.Option
			if tc.repo != "" {
				opts = append(opts, docsapitest.WithRepository(tc.repo))
			}
			h := newHarness(t, opts...)
			// The job cannot finish until the channel is set up.
			h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointGet, Status: 503})
			h.StartBot(bottest.Config{})
			rootTS, jobID := h.startedJob("Document the webhooks")
			if tc.removed {
				h.Slack.AddChannel(slacktest.Channel{ID: general, Name: "general", BotMember: false})
			}
			h.API.ClearFaults()
			dm, err := h.Slack.OpenDM(alice)
			if err != nil {
				t.Fatal(err)
			}
			h.Settle()

			pr := h.API.Jobs()[0].PR()
			if tc.repo != "" && len(pr) != 3000 {
				t.Fatalf("pull request link of %d characters, want 3000", len(pr))
			}
			var got []string
			for _, m := range h.Finishes(general, rootTS) {
				got = append(got, rendered(m))
			}
			if tc.removed {
				for _, m := range h.Slack.Messages(dm) {
					got = append(got, m.Text)
				}
			}
			if len(got) != 1 {
				t.Fatalf("the result reached the person %d times (%q), want once", len(got), got)
			}
			if !strings.Contains(got[0], "<"+pr+"|") || !strings.Contains(got[0], "pull request") {
				t.Errorf("result %q does not link the pull request", got[0])
			}
			if n := strings.Count(got[0], pr); n != 1 {
				t.Errorf("result shows the pull request link %d times, want once (a long link is labelled \"pull request\")", n)
			}
			if tc.removed && !strings.Contains(got[0], jobID) {
				t.Errorf("direct message %q does not name job %s", got[0], jobID)
			}
		})
	}
}
