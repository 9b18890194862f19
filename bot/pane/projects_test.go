package pane_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot/bottest"
)

// TestPaneFollowsTheChannelLookedAt: a question or an instruction typed
// in a pane thread goes to the default project of the channel the person
// looks at beside it, not the DM's way (the first project with an
// assistant, or a question which project), unless it names one
// (project=NAME).
func TestPaneFollowsTheChannelLookedAt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	api := h.TwoProjects(bottest.Project{Editors: []string{alice}}, bottest.Project{Editors: []string{alice}})
	h.StartBot(bottest.Config{Answers: true})
	opened := func(channel string) (dm, thread string) {
		th := h.open(alice, channel)
		h.Idle() // the pane's event done: the channel looked at is known
		return th.Channel, th.ThreadTS
	}

	dm, th := opened(bottest.APIChannel)
	h.Reply(alice, dm, th, "How do I rotate an API key?")
	if m := h.replied(dm, th, "feedback"); !m.Streamed {
		t.Errorf("not an answer: %q", m.Text)
	}
	if a, d := api.Questions(), h.API.Questions(); a != 1 || d != 0 {
		t.Errorf("questions: api %d, docs %d; want the api project's assistant asked", a, d)
	}

	dm, th = opened(bottest.APIChannel)
	h.Reply(alice, dm, th, "add a page on rotating keys")
	h.WaitFor("the job created in the api project", func() bool { return len(api.Jobs()) == 1 })
	h.Idle()
	if n := len(h.API.Jobs()); n != 0 {
		t.Errorf("%d jobs in the docs project", n)
	}

	dm, th = opened(bottest.APIChannel)
	h.Reply(alice, dm, th, "project=docs Where are the keys kept?")
	if m := h.replied(dm, th, "feedback"); !m.Streamed {
		t.Errorf("not an answer: %q", m.Text)
	}
	if a, d := api.Questions(), h.API.Questions(); a != 1 || d != 1 {
		t.Errorf("questions: api %d, docs %d; want project=docs to name the docs project", a, d)
	}

	// Looking at #general, whose default is docs, the pane goes there.
	dm, th = opened(bottest.General)
	h.Reply(alice, dm, th, "add a page on key scopes")
	h.WaitFor("the job created in the docs project", func() bool { return len(h.API.Jobs()) == 1 })
	h.Idle()
	if n := len(api.Jobs()); n != 1 {
		t.Errorf("%d jobs in the api project, want the first alone", n)
	}
}

// TestPaneJobNeedsAnEditorOfTheChannelsProject: an instruction typed in
// the pane looking at a channel whose default project the person does not
// edit is refused privately, naming that project's editors, though they
// edit another; nothing starts.
func TestPaneJobNeedsAnEditorOfTheChannelsProject(t *testing.T) {
	t.Parallel()
	h := newHarness(t, true)
	api := h.TwoProjects(bottest.Project{Editors: []string{alice}}, bottest.Project{Editors: []string{bob}})
	h.StartBot(bottest.Config{})
	th := h.open(alice, bottest.APIChannel)
	h.Idle()
	h.Reply(alice, th.Channel, th.ThreadTS, "add a page on rotating keys")
	m := h.WaitPrivate(alice, "Only editors")
	bottest.WantContains(t, "the refusal", m.Text, "<@"+bob+">") // the api project's editors
	h.Idle()
	if a, d := len(api.Jobs()), len(h.API.Jobs()); a != 0 || d != 0 {
		t.Errorf("jobs started: api %d, docs %d", a, d)
	}
}
