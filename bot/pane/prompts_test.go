package pane_test

import (
	"slices"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestPanePromptsLeadToAnswers: on a fresh install (nothing cached, two
// projects), every prompt the pane offers an editor looking at #api-docs,
// picked (Slack posts its message as the person's, in a new thread of the
// pane), reads as something the person would say, gets a useful answer
// there, of the channel's project, and titles the thread.
func TestPanePromptsLeadToAnswers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	api := h.TwoProjects(bottest.Project{Editors: []string{alice}}, bottest.Project{Editors: []string{alice}})
	h.StartBot(bottest.Config{Answers: true})
	th := h.open(alice, bottest.APIChannel)
	h.prompts(th.Channel, 4)
	sp, _ := h.Slack.SuggestedPrompts(th.Channel, "")
	// What each prompt's answer says, proof that it answered, and what
	// titles its thread: the prompt, or what the person says next when it
	// asks for it.
	answers := map[string]struct{ says, next string }{
		"How do I get started?":                    {says: "feedback"}, // the docs' answer, with its feedback buttons
		"What do readers struggle with this week?": {says: "searches found nothing clicked"},
		"Deploy status":                            {says: "/docs-deploy"},
		"Start a docs job":                         {says: "starts the docs agent on it", next: "Add a page on rotating keys"},
	}
	for _, p := range sp.Prompts {
		a, ok := answers[p.Message]
		if !ok {
			t.Errorf("the prompt %q posts %q as the person's message", p.Title, p.Message)
			continue
		}
		th := h.open(alice, bottest.APIChannel)
		h.Idle() // the pane's event done, as before the person sees its prompts
		h.Reply(alice, th.Channel, th.ThreadTS, p.Message)
		h.replied(th.Channel, th.ThreadTS, a.says)
		title := p.Message
		if a.next != "" {
			h.Reply(alice, th.Channel, th.ThreadTS, a.next)
			title = a.next
		}
		h.WaitFor("the thread titled "+title, func() bool { return h.Slack.ThreadTitle(th.Channel, th.ThreadTS) == title })
	}
	h.WaitFor("the job started in the api project", func() bool { return len(api.Jobs()) == 1 })
	if api.Questions() != 1 || h.API.Questions() != 0 {
		t.Errorf("questions: api %d, docs %d; want the question asked of the api project", api.Questions(), h.API.Questions())
	}
	if api.Count(docsapitest.EndpointSearches) == 0 || h.API.Count(docsapitest.EndpointSearches) != 0 {
		t.Errorf("the docs health read api's searches %d times, docs' %d; want api's",
			api.Count(docsapitest.EndpointSearches), h.API.Count(docsapitest.EndpointSearches))
	}
}

// TestPaneTitleEscaped: the thread's title is its first question, escaped:
// it pings nobody and links nowhere.
func TestPaneTitleEscaped(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	h.StartBot(bottest.Config{Answers: true})
	th := h.open(alice, general)
	h.Reply(alice, th.Channel, th.ThreadTS, slacktest.Escape("Why does <!channel> & <@U0BOB> get pinged?"))
	h.WaitFor("the thread's title", func() bool { return h.Slack.ThreadTitle(th.Channel, th.ThreadTS) != "" })
	if got, want := h.Slack.ThreadTitle(th.Channel, th.ThreadTS), "Why does &lt;!channel&gt; &amp; &lt;@U0BOB&gt; get pinged?"; got != want {
		t.Errorf("title = %q, want %q", got, want)
	}
}

// TestPaneHealthOfferedOnlyWhenItCanBeRead: a person whose share of the
// analytics budget cannot pay for the week's docs health, none being
// cached, is not offered it: every prompt offered is answered.
func TestPaneHealthOfferedOnlyWhenItCanBeRead(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}, Config: app.Config{Bot: bot.Config{Analytics: bot.AnalyticsLimits{Budget: 100, PerUser: 2}}}})
	th := h.open(bob, general)
	h.Idle()
	sp, _ := h.Slack.SuggestedPrompts(th.Channel, "")
	var titles []string
	for _, p := range sp.Prompts {
		titles = append(titles, p.Title)
	}
	if want := []string{"How do I get started?", "Deploy status"}; !slices.Equal(titles, want) {
		t.Errorf("prompts = %q, want %q", titles, want)
	}
}
