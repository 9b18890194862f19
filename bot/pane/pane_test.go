package pane_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
)

// TestPanePromptsForEditorsAndViewers: the pane suggests a question to
// ask the docs, the week's docs health and Deploy status to everyone, and
// Start a docs job only to an editor.
func TestPanePromptsForEditorsAndViewers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}})
	for _, c := range []struct {
		user string
		want []string
	}{
		{alice, []string{"How do I get started?", "What do readers struggle with this week?", "Deploy status", "Start a docs job…"}},
		{bob, []string{"How do I get started?", "What do readers struggle with this week?", "Deploy status"}},
	} {
		th := h.open(c.user, general)
		titles, _ := h.prompts(th.Channel, len(c.want))
		if !slices.Equal(titles, c.want) {
			t.Errorf("%s's prompts = %q, want %q", c.user, titles, c.want)
		}
	}
}

// TestPanePromptsFollowTheChannelsProject: the prompts are headed by the
// default project of the channel the person looks at, and follow them to
// another channel (assistant_thread_context_changed, app_context_changed);
// their messages, posted as the person's, never name it.
func TestPanePromptsFollowTheChannelsProject(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	h.TwoProjects(bottest.Project{}, bottest.Project{})
	h.StartBot(bottest.Config{})
	th := h.open(alice, bottest.APIChannel)
	wantAll := func(what, project string) {
		t.Helper()
		h.WaitFor(what, func() bool {
			sp, ok := h.Slack.SuggestedPrompts(th.Channel, "")
			return ok && len(sp.Prompts) > 0 && sp.Title == "Try asking docsbot about "+project
		})
		sp, _ := h.Slack.SuggestedPrompts(th.Channel, "")
		for _, p := range sp.Prompts {
			if strings.Contains(p.Message, "project=") {
				t.Errorf("a prompt's message names the project: %q", p.Message)
			}
		}
	}
	wantAll("the prompts of the api channel", "api")
	if _, err := h.Slack.ChangeAssistantContext(t.Context(), th.Channel, th.ThreadTS, general); err != nil {
		t.Fatal(err)
	}
	wantAll("the prompts of #general", "docs")
	if _, err := h.Slack.ChangeAppContext(t.Context(), alice, slacktest.MessageContext(bottest.APIChannel, "1.000001")); err != nil {
		t.Fatal(err)
	}
	wantAll("the prompts of the message's channel", "api")
}

// TestPaneQuestionAnsweredInItsThread: a question typed in the pane is
// answered in its thread from the docs, streamed with its sources and
// feedback, and the thread is titled from the first question only; the
// image attached to the next question reaches the assistant with it.
func TestPaneQuestionAnsweredInItsThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	h.StartBot(bottest.Config{Answers: true})
	th := h.open(alice, general)
	h.Reply(alice, th.Channel, th.ThreadTS, "How do I rotate an API key?")
	a := h.replied(th.Channel, th.ThreadTS, "feedback")
	if !a.Streamed {
		t.Errorf("the answer was not streamed: %+v", a)
	}
	h.WaitFor("the thread's title", func() bool { return h.Slack.ThreadTitle(th.Channel, th.ThreadTS) != "" })
	shot := bottest.Image("image/jpeg", "keys")
	h.Post(slacktest.UserMessage{ChannelID: th.Channel, UserID: alice, ThreadTS: th.ThreadTS, Text: "And where are the keys kept on this page?",
		Attach: []slacktest.Attachment{{Name: "keys.jpg", Mimetype: "image/jpeg", Content: shot}}}, false)
	h.replied(th.Channel, th.ThreadTS, "The docs assistant looked at the image `keys.jpg`.")
	if at, _ := h.API.Thread(h.API.ThreadIDs()[0]); len(at.Files) != 1 || !bytes.Equal(at.Files[0].Data, shot) || at.Files[0].Question != 1 {
		t.Errorf("the assistant received %+v, want keys.jpg with the second question", at.Files)
	}
	h.WaitFor("the second answer", func() bool {
		n := 0
		for _, m := range h.botReplies(th.Channel, th.ThreadTS) {
			if strings.Contains(string(m.Blocks), "feedback") && !m.Streaming {
				n++
			}
		}
		return n == 2
	})
	h.Idle()
	if got := h.Slack.ThreadTitle(th.Channel, th.ThreadTS); got != "How do I rotate an API key?" {
		t.Errorf("title = %q, want the first question's", got)
	}
}

// TestPaneJobRunsInItsThread: an editor's instruction in the pane starts a
// docs job that is followed in the thread.
func TestPaneJobRunsInItsThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}})
	th := h.open(alice, general)
	h.Reply(alice, th.Channel, th.ThreadTS, "Start a docs job")
	h.replied(th.Channel, th.ThreadTS, "starts the docs agent on it")
	h.Reply(alice, th.Channel, th.ThreadTS, "add a page on rotating keys")
	h.WaitFor("the job created", func() bool { return len(h.API.Jobs()) == 1 })
	st := h.OpenStore()
	h.WaitFor("the job followed in the pane's thread", func() bool {
		j, err := st.Jobs().JobByThread(t.Context(), store.Thread{Team: "T0TEST", Channel: th.Channel, TS: th.ThreadTS})
		return err == nil && j.ID == h.API.Jobs()[0].ID
	})
	pr := h.Complete(h.API.Jobs()[0].ID, 1)
	h.replied(th.Channel, th.ThreadTS, pr)
}

// TestPaneViewerMayNotStartAJob: "Start a docs job" typed by someone who
// may not start jobs is refused in the thread, and nothing starts.
func TestPaneViewerMayNotStartAJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}})
	th := h.open(bob, general)
	h.Reply(bob, th.Channel, th.ThreadTS, "Start a docs job")
	h.replied(th.Channel, th.ThreadTS, "editor")
	h.Idle()
	if n := len(h.API.Jobs()); n != 0 {
		t.Errorf("%d jobs started", n)
	}
}

// TestPaneDeployStatus: Deploy status lists, in the thread, the
// deployments started in channels the person is in, not others'.
func TestPaneDeployStatus(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	h.Slack.AddChannel(slacktest.Channel{ID: "C0SECRET", Name: "secret", BotMember: true, Members: []string{bob}})
	st := h.OpenStore()
	for _, r := range []store.DeployRecord{
		{ID: "d1", State: "success", User: bob, Channel: general, Started: time.Now().Add(-time.Hour)},
		{ID: "d2", Preview: true, Branch: "hidden-branch", State: "in_progress", User: bob, Channel: "C0SECRET", Started: time.Now()},
	} {
		if err := st.Deploys().SaveDeploy(t.Context(), "T0TEST", r); err != nil {
			t.Fatal(err)
		}
	}
	h.StartBot(bottest.Config{Answers: true})
	th := h.open(alice, general)
	h.Reply(alice, th.Channel, th.ThreadTS, "Deploy status")
	m := h.replied(th.Channel, th.ThreadTS, "Deployment")
	bottest.WantContains(t, "the status", m.Text, "success")
	if strings.Contains(m.Text, "hidden-branch") {
		t.Errorf("the status shows a preview of a channel alice is not in: %q", m.Text)
	}
}

// TestPaneHealthWithinTheBudget: the week's docs health in the pane, with
// nothing cached, is read from the analytics on the person's share of the
// budget and cached: asked again, it costs nothing more.
func TestPaneHealthWithinTheBudget(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	h.StartBot(bottest.Config{Answers: true})
	for i := range 2 {
		th := h.open(alice, general)
		h.Reply(alice, th.Channel, th.ThreadTS, "What do readers struggle with this week?")
		m := h.replied(th.Channel, th.ThreadTS, "searches found nothing clicked")
		bottest.WantContains(t, "the docs health", m.Text, "in the last 7 days", "`/docs-health 7d` in a channel")
		if n := analyticsRequests(h); n == 0 || n > 5 {
			t.Errorf("ask %d: %d analytics requests so far, want the summary's (1 to 5)", i+1, n)
		}
	}
	first := analyticsRequests(h)
	h.Idle()
	if n := analyticsRequests(h); n != first {
		t.Errorf("asked again, the docs health sent %d more analytics requests", n-first)
	}
}

// analyticsRequests counts the analytics requests the docs API took.
func analyticsRequests(h *harness) int {
	n := 0
	for _, r := range h.API.Requests() {
		if strings.Contains(r.Path, "/analytics/") {
			n++
		}
	}
	return n
}

// TestPaneWithoutTheAssistantView: a token without the AI scopes (the app
// has no assistant_view) gets no pane events; a question in a DM's thread
// is still answered there, and the refused title changes nothing.
func TestPaneWithoutTheAssistantView(t *testing.T) {
	t.Parallel()
	h := newHarness(t, false)
	h.StartBot(bottest.Config{Answers: true})
	th := h.open(alice, general)
	if th.EventID != "" {
		t.Fatalf("Slack sent assistant_thread_started without assistant:write")
	}
	h.Reply(alice, th.Channel, th.ThreadTS, "How do I rotate an API key?")
	h.replied(th.Channel, th.ThreadTS, "feedback")
	h.Idle()
	if _, ok := h.Slack.SuggestedPrompts(th.Channel, ""); ok {
		t.Error("prompts were set")
	}
	if got := h.Slack.ThreadTitle(th.Channel, th.ThreadTS); got != "" {
		t.Errorf("title = %q", got)
	}
}
