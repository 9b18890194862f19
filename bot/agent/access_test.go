package agent_test

import (
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// People docsbot keeps from changing docs by default, and what they are told.
const (
	guest    = "U0GUEST"
	outsider = "U0OUTSIDER"

	guestRefusal    = "Guests of this workspace cannot"
	outsiderRefusal = "People from another organisation cannot"
)

// addOutsiders adds a multi-channel guest and a person of another
// organisation (Slack Connect) to the fake workspace.
func (h *harness) addOutsiders() {
	h.Slack.AddGuest(guest, "gus", false)
	h.Slack.AddExternalUser(outsider, "eve", "T0OTHER")
}

// told counts what user was told privately that contains text: ephemeral
// messages, ephemeral posts to response URLs and open modals.
func (h *harness) told(user, text string) int {
	n := len(h.Privates(user, text))
	for _, p := range h.Slack.ResponsePosts("") {
		if p.User == user && p.ResponseType == "ephemeral" && strings.Contains(p.Text, text) {
			n++
		}
	}
	for _, v := range h.Slack.OpenModals(user) {
		if strings.Contains(string(v.Blocks), text) {
			n++
		}
	}
	return n
}

// way is one row of the table of who may do what (docs/architecture.md,
// "Who may do what"): try has user come in that way and returns the text of
// an answer given in the acknowledgement, if any.
type way struct {
	name string
	try  func(h *harness, user string) (ackText string)
	// looks marks a way that only looks, which guests and outsiders keep:
	// done reports that user was answered.
	looks bool
	done  func(h *harness, user string) bool
}

// TestWhoMayDoWhat goes through the ways in of the table "Who may do what"
// as a guest and as a person of another organisation: every way that
// starts, steers or retries a job refuses them privately, saying why, and
// nothing reaches the docs API; the ways that only look still answer them.
// The job and follow-up forms, the retry and the project question have
// rows of their own below (TestWhoMayDoWhatInForms,
// TestWhoMayRetryOrChooseAProject).
func TestWhoMayDoWhat(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.addOutsiders()
	h.StartBot(bottest.Config{})
	rootTS, jobID, res := h.finishedJob("Document webhooks")
	plain := h.userMessage(alice, general, "", "the docs miss a page on webhooks")
	_, improve, err := h.BotClient().PostMessage(general, slack.MsgOptionBlocks(slack.NewActionBlock("pages",
		slack.NewButtonBlockElement(jobdraft.ActionImprovePage, `{"path":"/x"}`, slack.NewTextBlockObject(slack.PlainTextType, "Improve this page", false, false)))))
	if err != nil {
		t.Fatal(err)
	}
	ways := []way{
		{name: "/docs-agent with an instruction", try: func(h *harness, u string) string {
			return string(h.Command(u, general, agent.Command, "Write docs").Payload)
		}},
		{name: "a mention", try: func(h *harness, u string) string { h.mention(u, general, "", "Rewrite the site"); return "" }},
		{name: "a mention in a thread", try: func(h *harness, u string) string { h.mention(u, general, plain, "document this"); return "" }},
		{name: "a direct message", try: func(h *harness, u string) string {
			dm, err := h.Slack.OpenDM(u)
			if err != nil {
				h.T.Fatal(err)
			}
			h.userMessage(u, dm, "", "Write docs")
			return ""
		}},
		{name: "a reply in a job's thread", try: func(h *harness, u string) string {
			h.userMessage(u, general, rootTS, "Also delete the changelog")
			return ""
		}},
		{name: "a mention in a job's thread", try: func(h *harness, u string) string { h.mention(u, general, rootTS, "and the API page"); return "" }},
		{name: "the message shortcut", try: func(h *harness, u string) string {
			h.Shortcut(slacktest.MessageShortcut{UserID: u, CallbackID: agent.ShortcutSendToAgent, ChannelID: general, MessageTS: plain})
			return ""
		}},
		{name: "the improve-page button", try: func(h *harness, u string) string {
			h.Act(slacktest.Action{UserID: u, ChannelID: general, MessageTS: improve, ActionID: jobdraft.ActionImprovePage})
			return ""
		}},
		{name: "the result's Follow up button", try: func(h *harness, u string) string { h.press(u, res, agent.ActionFollowUp, ""); return "" }},
		{name: "Home's New docs job button", try: func(h *harness, u string) string {
			dm, err := h.Slack.OpenDM(u)
			if err != nil {
				h.T.Fatal(err)
			}
			_, ts, err := h.BotClient().PostMessage(dm, slack.MsgOptionBlocks(slack.NewActionBlock("home",
				slack.NewButtonBlockElement(jobdraft.ActionNewJob, dm, slack.NewTextBlockObject(slack.PlainTextType, "New docs job", false, false)))))
			if err != nil {
				h.T.Fatal(err)
			}
			h.Act(slacktest.Action{UserID: u, ChannelID: dm, MessageTS: ts, ActionID: jobdraft.ActionNewJob})
			return ""
		}},
		{name: "/docs-agent list", looks: true, try: func(h *harness, u string) string {
			return string(h.Command(u, general, agent.Command, "list").Payload)
		}, done: func(h *harness, u string) bool { return h.told(u, "You started no docs agent job") > 0 }},
		{name: "the App Home, without its New docs job button", looks: true, try: func(h *harness, u string) string {
			if _, err := h.Slack.OpenHome(h.T.Context(), u); err != nil {
				h.T.Fatal(err)
			}
			return ""
		}, done: func(h *harness, u string) bool {
			v, ok := h.Slack.HomeView(u)
			return ok && len(v.Blocks) > 0 && !strings.Contains(string(v.Blocks), jobdraft.ActionNewJob)
		}},
		{name: "/docs-visitors", looks: true, try: func(h *harness, u string) string {
			return string(h.Command(u, general, "/docs-visitors", "").Payload)
		}, done: func(h *harness, u string) bool {
			for _, p := range h.Slack.ResponsePosts("") {
				if p.User == u && p.ResponseType == "in_channel" && p.Error == "" {
					return true
				}
			}
			return false
		}},
		{name: "the result's feedback button", looks: true, try: func(h *harness, u string) string {
			h.press(u, res, agent.ActionFeedback, "positive")
			return ""
		}, done: func(h *harness, u string) bool { return h.told(u, "Thanks for the feedback") > 0 }},
	}
	for _, p := range []struct{ user, refusal string }{{guest, guestRefusal}, {outsider, outsiderRefusal}} {
		for _, w := range ways {
			before := h.told(p.user, p.refusal)
			ack := w.try(h, p.user)
			switch {
			case w.looks:
				h.WaitFor(p.user+" answered after "+w.name, func() bool { return w.done(h, p.user) })
			case strings.Contains(ack, p.refusal):
			default:
				h.WaitFor(p.user+" refused after "+w.name, func() bool { return h.told(p.user, p.refusal) > before })
			}
		}
	}
	h.StopAll()
	h.WantRequests(docsapitest.EndpointCreate, 1, "alice's only")
	h.WantRequests(docsapitest.EndpointMessage, 0, "")
	if got := h.API.Prompts(jobID); len(got) != 1 {
		t.Errorf("prompts of alice's job %q: an outsider's reply reached it", got)
	}
	refusals := map[string]int{}
	for _, r := range h.audit() {
		if r.Action == store.AuditRefusal {
			refusals[r.User]++
		}
	}
	if refusals[guest] == 0 || refusals[outsider] == 0 {
		t.Errorf("refusals audited by person %v, want the guest's and the outsider's", refusals)
	}
}

// TestWhoMayDoWhatOptIns: DOCSBOT_ALLOW_GUESTS and DOCSBOT_ALLOW_EXTERNAL
// each let their people in, and only them.
func TestWhoMayDoWhatOptIns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name             string
		cfg              bottest.Config
		allowed, refused string
		refusedWith      string
	}{
		{"guests", bottest.Config{Config: app.Config{Bot: bot.Config{AllowGuests: true}}}, guest, outsider, outsiderRefusal},
		{"other organisations", bottest.Config{Config: app.Config{Bot: bot.Config{AllowExternal: true}}}, outsider, guest, guestRefusal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.addOutsiders()
			h.StartBot(tt.cfg)
			h.mention(tt.allowed, general, "", "Write a glossary")
			h.WaitFor("the job of the person let in", func() bool { return len(h.API.Jobs()) == 1 })
			h.mention(tt.refused, general, "", "Write a changelog")
			h.WaitFor("the other's refusal", func() bool { return h.told(tt.refused, tt.refusedWith) == 1 })
			h.StopAll()
			h.WantRequests(docsapitest.EndpointCreate, 1, "the one let in")
		})
	}
}

// TestWhoMayDoWhatWhenSlackCannotSay: when users.info fails, a start is
// "not now", told privately; it is never let through.
func TestWhoMayDoWhatWhenSlackCannotSay(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{})
	h.Slack.FailNext("users.info", "internal_error", 1000)
	h.mention(bob, general, "", "Write a glossary")
	h.WaitFor("the private not now", func() bool { return h.told(bob, "could not check your account with Slack") == 1 })
	h.StopAll()
	h.WantRequests(docsapitest.EndpointCreate, 0, "Slack could not say who bob is")
}

// TestRepliesOfViewersToldOncePerThread: a viewer's replies in a job's
// thread are not sent to the agent, and the viewer hears so once per
// thread; a mention there is answered every time.
func TestRepliesOfViewersToldOncePerThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t, bottest.LongJobs())
	const viewer = "U0VIEWER"
	h.Slack.AddUser(viewer, "viewer")
	h.StartBot(bottest.Config{Editors: []string{alice}})
	rootTS, jobID := h.startedJob("Write a glossary")
	const once = "Your replies in this thread are not sent to the docs agent"
	for _, text := range []string{"looks good so far", "what about the API page?", "thanks!"} {
		h.userMessage(viewer, general, rootTS, text)
	}
	h.mention(viewer, general, rootTS, "add the API page")
	h.WaitFor("the mention's refusal", func() bool { return h.told(viewer, "Only editors can") == 2 })
	h.Idle()
	if n := h.told(viewer, once); n != 1 {
		t.Errorf("told %d times that replies are not sent, want once", n)
	}
	h.StopAll()
	if got := h.API.Prompts(jobID); len(got) != 1 {
		t.Errorf("prompts %q: a viewer's reply reached the job", got)
	}
}

// TestWhoMayDoWhatAfterTheyWereLetIn: the rows of the table whose check
// comes after the person was let in once: the project question's buttons,
// the job form and the follow-up form submitted, and "retry". A guest
// opened all of them while guests were let in; then docsbot restarted
// without DOCSBOT_ALLOW_GUESTS, and each refuses the guest privately and
// starts or sends nothing.
func TestWhoMayDoWhatAfterTheyWereLetIn(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t)
	w.addOutsiders()
	w.StartBot(bottest.Config{Config: app.Config{Bot: bot.Config{AllowGuests: true}}})
	ctx := t.Context()

	job, root := w.startInAPI(alice, "Document webhooks")
	w.WaitFor("the result", func() bool { return len(w.Finishes(chAPI, root.TS)) == 1 })
	w.press(guest, w.Finishes(chAPI, root.TS)[0], agent.ActionFollowUp, "")
	followUp := w.WaitModal(guest, agent.ViewFollowUp)
	msg := w.userMessage(alice, chAPI, "", "the webhooks page misses retries")
	w.Shortcut(slacktest.MessageShortcut{UserID: guest, CallbackID: agent.ShortcutSendToAgent, ChannelID: chAPI, MessageTS: msg})
	jobForm := w.modalOf(guest)
	w.Command(guest, general, agent.Command, "Write a glossary")
	question := w.question(guest)
	retryTS := w.offeredRetry(ctx, bob)
	w.StopAll()

	w.StartBot(bottest.Config{})
	n := 0
	refused := func(what string) {
		t.Helper()
		n++
		w.WaitFor(what+": the guest's private refusal", func() bool { return w.told(guest, guestRefusal) >= n })
	}
	w.act(guest, question, agent.ActionChooseProject, "api")
	refused("the project question's button")
	in := w.submit(jobForm.ID, "Add a retries section")
	if in.Ack == nil || !strings.Contains(string(in.Ack.Payload), guestRefusal) {
		t.Errorf("job form submitted: ack %+v, want the guest's refusal on the form", in.Ack)
	}
	w.Submit(slacktest.ViewSubmission{ViewID: followUp.ID, Values: map[string]map[string]string{"followup": {"instruction": "and the error codes"}}})
	refused("the follow-up form")
	w.Reply(guest, chAPI, retryTS, "retry")
	refused("retry")
	w.StopAll()

	if c := w.creates(); c["docs"] != 0 || c["api"] != 1 {
		t.Errorf("jobs created %v, want alice's only", c)
	}
	if got := w.servers["api"].Prompts(job.ID); len(got) != 1 {
		t.Errorf("prompts of alice's job %q: the guest's follow-up reached it", got)
	}
}
