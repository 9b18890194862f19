package agent_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
)

// TestProjectsChoiceByAnotherPersonTakesNothing: someone else pressing a
// project button of alice's question (a copy of it in the channel) is
// refused, and alice's own click afterwards still starts her job: the
// refused click does not use up hers.
func TestProjectsChoiceByAnotherPersonTakesNothing(t *testing.T) {
	t.Parallel()
	w := newProjectsWorld(t)
	w.start(projectsBot{})
	w.Command(alice, general, agent.Command, "Write a glossary")
	q := w.question(alice)

	var blocks slack.Blocks
	if err := json.Unmarshal(q.Blocks, &blocks); err != nil {
		t.Fatal(err)
	}
	sc := w.BotClient()
	_, ts, err := sc.PostMessage(general, slack.MsgOptionText(q.Text, false), slack.MsgOptionBlocks(blocks.BlockSet...))
	if err != nil {
		t.Fatal(err)
	}
	shown, ok := w.Slack.Message(general, ts)
	if !ok {
		t.Fatal("the copy of the question is not in the channel")
	}
	w.act(bob, shown, agent.ActionChooseProject, "docs")
	w.WaitFor("bob refused", func() bool { return w.said(bob, "Only the person who asked for this job can choose its project") })

	w.act(alice, q, agent.ActionChooseProject, "docs")
	job := w.newJob("docs", 0)
	if got := w.servers["docs"].Prompts(job.ID); len(got) != 1 || got[0] != "Write a glossary" {
		t.Errorf("prompts = %q, want alice's instruction once", got)
	}
	w.WaitFor("alice told her job starts", func() bool { return w.said(alice, "Starting the docs agent in the project `docs`") })
}

// TestProjectsPrivateAnswersReachADirectMessage: when docsbot cannot show
// a private message in the channel (Slack refuses ephemerals there), the
// question which project, and the news that a job of a removed project is
// no longer followed, reach the person in a direct message that says which
// instruction or job, and where, it is about.
func TestProjectsPrivateAnswersReachADirectMessage(t *testing.T) {
	t.Parallel()
	t.Run("question which project", func(t *testing.T) {
		t.Parallel()
		w := newProjectsWorld(t)
		w.start(projectsBot{})
		dm, err := w.Slack.OpenDM(alice)
		if err != nil {
			t.Fatal(err)
		}
		w.Slack.FailNext("chat.postEphemeral", "not_in_channel", 1<<30)
		w.mention(alice, general, "", "Write a glossary of the API terms")
		w.WaitFor("the question in a direct message", func() bool { return len(w.Slack.Messages(dm)) > 0 })
		got := w.Slack.Messages(dm)[0].Text
		for _, want := range []string{"Write a glossary of the API terms", "<#" + general + ">", "project=NAME", "nothing was started"} {
			if !strings.Contains(got, want) {
				t.Errorf("direct message %q lacks %q", got, want)
			}
		}
		if c := w.creates(); c["docs"] != 0 || c["api"] != 0 {
			t.Errorf("creates = %v, want none", c)
		}
	})
	t.Run("job of a removed project", func(t *testing.T) {
		t.Parallel()
		w := newProjectsWorld(t, bottest.LongJobs())
		stop := w.start(projectsBot{})
		job, _ := w.startInAPI(alice, "Document the errors")
		stop()
		dm, err := w.Slack.OpenDM(alice)
		if err != nil {
			t.Fatal(err)
		}
		w.Slack.FailNext("chat.postEphemeral", "not_in_channel", 1<<30)
		w.start(projectsBot{only: "docs"})
		w.WaitFor("the requester told in a direct message", func() bool { return len(w.Slack.Messages(dm)) > 0 })
		got := w.Slack.Messages(dm)[0].Text
		for _, want := range []string{"`" + job.ID + "`", "<#" + chAPI + ">", "no longer serves"} {
			if !strings.Contains(got, want) {
				t.Errorf("direct message %q lacks %q", got, want)
			}
		}
	})
}
