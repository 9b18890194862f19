package helpchannels_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// react has user add reaction to the message ts of channel, as Slack
// tells the bot (reaction_added).
func (h *harness) react(user, channel, ts, reaction string) {
	h.T.Helper()
	_, err := h.Slack.DeliverEvent(h.T.Context(), map[string]any{"type": "reaction_added", "user": user, "reaction": reaction,
		"item_user": alice, "item": map[string]any{"type": "message", "channel": channel, "ts": ts}})
	if err != nil {
		h.T.Fatal(err)
	}
}

// TestHelpQuestionReaction: :question: on a message, in a channel of the
// default mode, asks the docs about it: answered in its thread under a line
// saying who asked, once however many react; another reaction costs nothing.
func TestHelpQuestionReaction(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}})
	ts := h.post(alice, general, "we should document how to rotate an API key")
	h.react(bob, general, ts, "thumbsup")
	h.react(bob, general, ts, "question")
	h.react(alice, general, ts, "question")
	m := h.answerIn(general, ts)
	bottest.WantContains(t, "the answer", m.Text+bottest.Rendered(m), "According to Authentication")
	h.Settle()
	if n := h.API.Questions(); n != 1 {
		t.Errorf("the assistant was asked %d times, want once", n)
	}
	var said int
	for _, r := range h.botReplies(general, ts) {
		if contains(r.Text, "<@"+bob+"> asked the docs about this message") {
			said++
		}
	}
	if said != 1 {
		t.Errorf("%d lines say bob asked, want one", said)
	}
}

// TestHelpMemoReaction: :memo: by an editor shows them, privately, Start a
// docs job, which opens the job form with the message quoted as its
// writer's; a viewer's :memo: does nothing.
func TestHelpMemoReaction(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}})
	ts := h.post(bob, general, "the webhook retry policy is not written anywhere")
	h.react(bob, general, ts, "memo")
	h.react(alice, general, ts, "memo")
	b := h.WaitButtons(alice, bot.ActionJobFromMessage)
	h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: b.TS, ActionID: bot.ActionJobFromMessage})
	v := h.WaitModal(alice, agent.ViewJob)
	bottest.WantContains(t, "the form", string(v.Blocks), "Message from @bob", "webhook retry policy")
	jobs := len(h.API.Jobs())
	h.Submit(slacktest.ViewSubmission{ViewID: v.ID, Values: map[string]map[string]string{"instruction": {"instruction": "Document the webhook retry policy"}}})
	h.WaitFor("the job", func() bool { return len(h.API.Jobs()) == jobs+1 })
	prompt := h.API.Prompts(h.API.Jobs()[jobs].ID)
	wantQuoted(t, prompt[len(prompt)-1], "the webhook retry policy is not written anywhere", "another person in Slack (@bob)")
	h.Settle()
	if len(h.Slack.Ephemerals(bob)) != 0 {
		t.Errorf("a viewer's :memo: showed something: %+v", h.Slack.Ephemerals(bob))
	}
}
