package helpchannels_test

import (
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// ephemeral is the message ts shown to user alone, as it is now.
func (h *harness) ephemeral(user, ts string) slacktest.Message {
	h.T.Helper()
	for _, m := range h.Slack.Ephemerals(user) {
		if m.TS == ts {
			return m
		}
	}
	h.T.Fatalf("no message %s shown to %s", ts, user)
	return slacktest.Message{}
}

// wantDone fails unless m says line where its button was: the button
// actionID gone, the line there, and every one of kept still shown.
func wantDone(t *testing.T, what string, m slacktest.Message, actionID, line string, kept ...string) {
	t.Helper()
	if strings.Contains(string(m.Blocks), `"`+actionID+`"`) {
		t.Errorf("%s still holds its button %s: %s", what, actionID, m.Blocks)
	}
	bottest.WantContains(t, what, m.Text+"\n"+bottest.Rendered(m), append([]string{"✓ " + line}, kept...)...)
}

// TestHelpExpertCallSaysWhatHappened: the experts' call says what happened
// (someone asked for an expert after docsbot's answer from the docs, or the
// docs do not answer the question), and Ask an expert and Mark resolved
// say in their place that they did their work, every other part of their
// message kept: an answer in the channel, the note shown to the asker
// alone, the call.
func TestHelpExpertCallSaysWhatHappened(t *testing.T) {
	t.Parallel()
	c := &clock{now: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)}
	h, cfg := expertsWorld(t, c, alice)
	h.StartBot(cfg)

	// An answer with sources, in the channel: bob, who did not ask, calls.
	answered := h.post(alice, help, "How do I rotate an API key?")
	answer := h.answerIn(help, answered)
	h.Act(slacktest.Action{UserID: bob, ChannelID: help, MessageTS: answer.TS, ActionID: bot.ActionAskExpert})
	h.WaitFor("the experts called after the answer", func() bool { return len(h.threadWith(answered, "asked for an expert")) == 1 })
	call := h.threadWith(answered, "asked for an expert")[0]
	bottest.WantContains(t, "the call after an answer", call.Text,
		"<@"+bob+"> asked for an expert after docsbot answered <@"+alice+">'s question from the docs", "rotate an API key")
	if strings.Contains(call.Text, "do not answer") {
		t.Errorf("the call says the docs do not answer a question they answered: %q", call.Text)
	}
	h.WaitFor("the answer says the expert was asked", func() bool {
		m, _ := h.Slack.Message(help, answer.TS)
		return strings.Contains(bottest.Rendered(m), "Expert asked by")
	})
	m, _ := h.Slack.Message(help, answer.TS)
	wantDone(t, "the answer", m, bot.ActionAskExpert, "Expert asked by <@"+bob+">", "Sources:", "According to Authentication", "The docs don't answer this")

	// Mark resolved on the call.
	h.Act(slacktest.Action{UserID: alice, ChannelID: help, MessageTS: call.TS, ActionID: bot.ActionMarkResolved})
	h.WaitFor("the call says it was resolved", func() bool {
		m, _ := h.Slack.Message(help, call.TS)
		return strings.Contains(bottest.Rendered(m), "Resolved by")
	})
	m, _ = h.Slack.Message(help, call.TS)
	wantDone(t, "the call", m, bot.ActionMarkResolved, "Resolved by <@"+alice+">", "asked for an expert after docsbot answered")

	// The note that the docs do not cover a question, shown to its asker
	// (an editor) alone.
	uncovered := h.post(alice, help, "Why is the office coffee machine always broken?")
	var note slacktest.Message
	h.WaitFor("the note", func() bool {
		for _, m := range h.Privates(alice, "found nothing that answers it") {
			if m.ThreadTS == uncovered {
				note = m
				return true
			}
		}
		return false
	})
	h.Act(slacktest.Action{UserID: alice, ChannelID: help, MessageTS: note.TS, ActionID: bot.ActionAskExpert})
	h.WaitFor("the experts called to the uncovered question", func() bool {
		return len(h.threadWith(uncovered, "asked a question the docs do not answer")) == 1
	})
	h.WaitFor("the note says the expert was asked", func() bool {
		return strings.Contains(bottest.Rendered(h.ephemeral(alice, note.TS)), "Expert asked by")
	})
	wantDone(t, "the note", h.ephemeral(alice, note.TS), bot.ActionAskExpert, "Expert asked by <@"+alice+">", "found nothing that answers it")
	if n := h.ephemeral(alice, note.TS); !strings.Contains(string(n.Blocks), jobdraft.ActionJobFromAnswer) {
		t.Errorf("the note lost Make this a docs job: %s", n.Blocks)
	}
}

// TestHelpPrivateAnswerSaysWhatWasDone: in a private channel, Share in
// channel and Ask an expert under a private answer each say in their place
// that they did their work, the answer, its sources and the other button
// (or its line) kept; the call says the asker asked for an expert after
// docsbot's answer.
func TestHelpPrivateAnswerSaysWhatWasDone(t *testing.T) {
	t.Parallel()
	c := &clock{now: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)}
	h, cfg := expertsWorld(t, c)
	cfg.Help.Channels[help] = bot.ModePrivate
	h.StartBot(cfg)
	q := h.post(alice, help, "How do I rotate an API key?")
	private := h.WaitButtons(alice, bot.ActionShareAnswer)

	h.share(alice, private)
	h.WaitFor("the private answer says it was shared", func() bool {
		return strings.Contains(bottest.Rendered(h.ephemeral(alice, private.TS)), "Shared in the channel")
	})
	shown := h.ephemeral(alice, private.TS)
	wantDone(t, "the shared answer", shown, bot.ActionShareAnswer, "Shared in the channel", "According to Authentication", "Sources:")
	if !strings.Contains(string(shown.Blocks), bot.ActionAskExpert) {
		t.Errorf("the shared answer lost Ask an expert: %s", shown.Blocks)
	}

	h.Act(slacktest.Action{UserID: alice, ChannelID: help, MessageTS: private.TS, ActionID: bot.ActionAskExpert})
	h.WaitFor("the experts called", func() bool { return len(h.threadWith(q, "asked for an expert")) == 1 })
	bottest.WantContains(t, "the call", h.threadWith(q, "asked for an expert")[0].Text,
		"<@"+alice+"> asked for an expert after docsbot answered their question from the docs")
	h.WaitFor("the private answer says the expert was asked", func() bool {
		return strings.Contains(bottest.Rendered(h.ephemeral(alice, private.TS)), "Expert asked by")
	})
	shown = h.ephemeral(alice, private.TS)
	wantDone(t, "the answer", shown, bot.ActionAskExpert, "Expert asked by <@"+alice+">", "✓ Shared in the channel", "According to Authentication", "Sources:")
	if strings.Contains(string(shown.Blocks), bot.ActionShareAnswer) {
		t.Errorf("the answer shared offers Share in channel again: %s", shown.Blocks)
	}
}
