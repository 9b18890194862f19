package helpchannels_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/helpchannels"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store/redistest"
)

// helpIn is a bot config whose #help is in mode, by the settings.
func helpIn(mode string, editors ...string) bottest.Config {
	return bottest.Config{Answers: true, Editors: editors,
		Config: app.Config{Help: helpchannels.Config{Channels: map[string]string{help: mode}}}}
}

// TestHelpAutoAnswersQuestionsNotChatter: in an auto channel a top-level
// question is answered in its thread without a mention, with its sources
// and the screenshot attached to it (sent to the assistant, named in the
// answer); chatter costs no assistant call and gets no reply; the asker's
// reply in the thread goes on without a mention, another person's does not.
func TestHelpAutoAnswersQuestionsNotChatter(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(helpIn(bot.ModeAuto))
	chatter := h.post(bob, help, "good morning everyone, coffee is ready")
	shot := bottest.Image("image/png", "keys page")
	q := h.Post(slacktest.UserMessage{ChannelID: help, UserID: alice, Text: "How do I rotate an API key?",
		Attach: []slacktest.Attachment{{Name: "keys.png", Mimetype: "image/png", Content: shot}}}, false)
	m := h.answerIn(help, q)
	bottest.WantContains(t, "the answer", m.Text+bottest.Rendered(m), "According to Authentication", "Sources:", "The docs assistant looked at the image `keys.png`.")
	if th, _ := h.API.Thread(h.API.ThreadIDs()[0]); len(th.Files) != 1 || !bytes.Equal(th.Files[0].Data, shot) {
		t.Errorf("the assistant received %+v, want keys.png", th.Files)
	}

	h.Reply(bob, help, q, "I think it is in the dashboard somewhere")
	h.Reply(alice, help, q, "And how do I verify webhooks?")
	h.WaitFor("the asker's reply answered", func() bool { return len(h.botReplies(help, q)) == 2 })
	h.Settle()
	if n := h.API.Questions(); n != 2 {
		t.Errorf("the assistant was asked %d times, want 2 (the question and the asker's reply)", n)
	}
	if r := h.botReplies(help, chatter); len(r) != 0 {
		t.Errorf("chatter got replies: %+v", r)
	}
}

// TestHelpMentionChannelLeftAlone: in a channel of the default mode a
// question nobody addressed to docsbot is left alone: no reply, no
// assistant call.
func TestHelpMentionChannelLeftAlone(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	q := h.post(alice, general, "How do I rotate an API key?")
	h.Settle()
	if n := h.API.Questions(); n != 0 {
		t.Errorf("the assistant was asked %d times, want none", n)
	}
	if r := h.botReplies(general, q); len(r) != 0 {
		t.Errorf("a question in a mention channel got replies: %+v", r)
	}
}

// TestHelpPrivateAnswerShared: in a private channel the answer is shown to
// the asker alone, with Share in channel, which posts it in the thread
// saying who shared it.
func TestHelpPrivateAnswerShared(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(helpIn(bot.ModePrivate))
	q := h.post(alice, help, "How do I rotate an API key?")
	private := h.WaitButtons(alice, bot.ActionShareAnswer)
	bottest.WantContains(t, "the private answer", private.Text+string(private.Blocks), "According to Authentication", "Sources:")
	if r := h.botReplies(help, q); len(r) != 0 {
		t.Fatalf("the private answer shows in the thread: %+v", r)
	}
	// The press is delivered twice (the same delivery again: nothing
	// more is done), then pressed again from a client that still shows
	// the button (a new delivery: the person is told it was done).
	in := h.Act(slacktest.Action{UserID: alice, ChannelID: help, MessageTS: private.TS, ActionID: bot.ActionShareAnswer})
	if err := h.Slack.Redeliver(t.Context(), in.EnvelopeID); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Slack.ActAgain(t.Context(), in); err != nil {
		t.Fatal(err)
	}
	h.WaitFor("the answer shared in the thread", func() bool { return len(h.botReplies(help, q)) == 1 })
	h.WaitFor("alice told it was shared already", func() bool { return h.told(alice, "shared this answer in the thread already") })
	shared := h.botReplies(help, q)[0]
	bottest.WantContains(t, "the shared answer", shared.Text+bottest.Rendered(shared), "<@"+alice+"> shared docsbot's answer",
		"According to Authentication", "Sources:")
	h.Settle()
	if n := len(h.botReplies(help, q)); n != 1 {
		t.Errorf("the answer was shared %d times, want once", n)
	}
	if n := h.API.Questions(); n != 1 {
		t.Errorf("the assistant was asked %d times, want once", n)
	}
}

// TestHelpPrivateAnswerClearsTheStatus: the thread's "is looking in the
// docs…" is cleared when the answer goes to the asker alone (a private
// channel) or is not shown at all (no sources, unasked): Slack clears a
// status only when the app replies in the thread.
func TestHelpPrivateAnswerClearsTheStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, mode, question, told string
	}{
		{"a private channel's answer", bot.ModePrivate, "How do I rotate an API key?", "According to Authentication"},
		{"an unasked question the docs do not cover", bot.ModeAuto, "Why is the office coffee machine always broken?", "found nothing that answers it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.StartBot(helpIn(tc.mode))
			q := h.post(alice, help, tc.question)
			h.WaitFor("alice told privately", func() bool { return len(h.Privates(alice, tc.told)) > 0 })
			h.Settle()
			var statuses []string
			for _, c := range h.Slack.Calls("assistant.threads.setStatus") {
				if c.Params["thread_ts"] == q {
					statuses = append(statuses, c.Params["status"])
				}
			}
			if len(statuses) < 2 || statuses[0] == "" || statuses[len(statuses)-1] != "" {
				t.Errorf("the thread's statuses were %q: want the working status, then cleared", statuses)
			}
		})
	}
}

// TestHelpAnswerWithoutSourcesKeptPrivate: an answer that cites no page is
// not posted unasked; the asker is told privately that the docs do not
// cover it, with Make this a docs job when they are an editor, and
// without it when not.
func TestHelpAnswerWithoutSourcesKeptPrivate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(helpIn(bot.ModeAuto, alice))
	qa := h.post(alice, help, "What is the airspeed velocity of an unladen swallow?")
	told := h.WaitButtons(alice, jobdraft.ActionJobFromAnswer)
	bottest.WantContains(t, "the note", told.Text, "found nothing that answers it")
	qb := h.post(bob, help, "Why is the office coffee machine always broken?")
	h.WaitFor("bob told", func() bool { return len(h.Privates(bob, "found nothing that answers it")) == 1 })
	h.Settle()
	if m := h.Privates(bob, "found nothing"); strings.Contains(string(m[0].Blocks), jobdraft.ActionJobFromAnswer) {
		t.Errorf("a viewer is offered a docs job: %s", m[0].Blocks)
	}
	for _, ts := range []string{qa, qb} {
		if r := h.botReplies(help, ts); len(r) != 0 {
			t.Errorf("an answer without sources was posted: %+v", r)
		}
	}
}

// TestHelpOffChannelPointsElsewhere: in an off channel a question by
// mention gets a one-line pointer, privately, and costs no assistant call;
// a question nobody addressed is left alone.
func TestHelpOffChannelPointsElsewhere(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(helpIn(bot.ModeOff))
	h.post(bob, help, "How do I rotate an API key?")
	if _, err := h.Slack.Mention(t.Context(), slacktest.UserMessage{ChannelID: help, UserID: bob, Text: "<@U0BOT> how do webhooks get signed?"}); err != nil {
		t.Fatal(err)
	}
	h.WaitFor("bob pointed elsewhere", func() bool { return len(h.Privates(bob, "does not answer questions in this channel")) == 1 })
	h.Settle()
	if n := h.API.Questions(); n != 0 {
		t.Errorf("the assistant was asked %d times, want none", n)
	}
}

// TestHelpModeSetHeardAtOnce: the answerer keeps a channel's mode for a
// few seconds (modecache.go), and a mode set on this replica is heard from
// the next question on: a mention answered in the default mode, then the
// channel set off, and the next mention is pointed elsewhere, unasked.
func TestHelpModeSetHeardAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}})
	first, err := h.Slack.Mention(t.Context(), slacktest.UserMessage{ChannelID: help, UserID: bob, Text: "<@U0BOT> how do I rotate an API key?"})
	if err != nil {
		t.Fatal(err)
	}
	h.answerIn(help, first.TS)
	h.Command(alice, help, "/docs-ask", "here off")
	h.WaitFor("alice told the mode is set", func() bool { return h.told(alice, "Done: in this channel, docsbot answers no questions here") })
	if _, err := h.Slack.Mention(t.Context(), slacktest.UserMessage{ChannelID: help, UserID: bob, Text: "<@U0BOT> how do webhooks get signed?"}); err != nil {
		t.Fatal(err)
	}
	h.WaitFor("bob pointed elsewhere", func() bool { return len(h.Privates(bob, "does not answer questions in this channel")) == 1 })
	h.Settle()
	if n := h.API.Questions(); n != 1 {
		t.Errorf("the assistant was asked %d times, want once (before the channel was set off)", n)
	}
}

// TestHelpThrottle: past DOCSBOT_AUTO_PER_CHANNEL answers an hour, a
// channel's questions get 👀 and nothing else, and /docs-ask here says so.
func TestHelpThrottle(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cfg := helpIn(bot.ModeAuto)
	cfg.Help.PerChannel = 1
	h.StartBot(cfg)
	first := h.post(alice, help, "How do I rotate an API key?")
	h.answerIn(help, first)
	second := h.post(bob, help, "How do webhooks get signed?")
	h.WaitFor("👀 on the second question", func() bool {
		m, _ := h.Slack.Message(help, second)
		return len(m.Reactions) == 1 && m.Reactions[0] == "eyes"
	})
	h.Command(bob, help, "/docs-ask", "here")
	h.WaitFor("the mode says the channel is throttled", func() bool { return h.told(bob, "questions get 👀 until answers resume") })
	bottest.WantContains(t, "the Home", h.openHome(alice, "Help channels"), "questions get 👀 until answers resume")
	h.Settle()
	if n := h.API.Questions(); n != 1 {
		t.Errorf("the assistant was asked %d times, want once", n)
	}
	if r := h.botReplies(help, second); len(r) != 0 {
		t.Errorf("a question past the throttle got replies: %+v", r)
	}
}

// TestHelpPrivateChannelAnswersMentionsPrivately: in a private channel a
// question asked by mention is shown to its asker alone too, even without
// sources (it was asked), with Share in channel.
func TestHelpPrivateChannelAnswersMentionsPrivately(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(helpIn(bot.ModePrivate))
	m, err := h.Slack.Mention(t.Context(), slacktest.UserMessage{ChannelID: help, UserID: bob, Text: "<@U0BOT> how do I rotate an API key?"})
	if err != nil {
		t.Fatal(err)
	}
	private := h.WaitButtons(bob, bot.ActionShareAnswer)
	bottest.WantContains(t, "the private answer", private.Text, "According to Authentication")
	h.Settle()
	if r := h.botReplies(help, m.TS); len(r) != 0 {
		t.Errorf("a mention in a private channel was answered in the thread: %+v", r)
	}
}

// TestHelpShareWhileRedisIsDown: a press of Share in channel that docsbot
// cannot record (Redis is down) is acknowledged, and its presser told
// privately that nothing was shared; pressed again once Redis is back, the
// answer is shared, once.
func TestHelpShareWhileRedisIsDown(t *testing.T) {
	t.Parallel()
	rs, err := redistest.Start(redistest.WithAppendOnly())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rs.Close() })
	h := newHarness(t)
	h.RedisURL = rs.URL
	h.StartBot(helpIn(bot.ModePrivate))
	q := h.post(alice, help, "How do I rotate an API key?")
	private := h.WaitButtons(alice, bot.ActionShareAnswer)
	h.Idle()

	if err := rs.Kill(); err != nil {
		t.Fatal(err)
	}
	h.Act(slacktest.Action{UserID: alice, ChannelID: help, MessageTS: private.TS, ActionID: bot.ActionShareAnswer})
	h.WaitFor("alice told nothing was shared", func() bool {
		return h.told(alice, "cannot reach its storage right now, so the answer was not shared. Press it again in a minute.")
	})
	if err := rs.Start(); err != nil {
		t.Fatal(err)
	}
	h.Act(slacktest.Action{UserID: alice, ChannelID: help, MessageTS: private.TS, ActionID: bot.ActionShareAnswer})
	h.WaitFor("the answer shared in the thread", func() bool { return len(h.botReplies(help, q)) == 1 })
	h.Settle()
	if n := len(h.botReplies(help, q)); n != 1 {
		t.Errorf("the answer was shared %d times, want once", n)
	}
}
