package helpchannels_test

import (
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/store/redistest"
)

// attributions are the lines under ts of channel saying someone asked the
// docs about it with :question:.
func (h *harness) attributions(channel, ts string) int {
	n := 0
	for _, r := range h.botReplies(channel, ts) {
		if contains(r.Text, "asked the docs about this message") {
			n++
		}
	}
	return n
}

// TestHelpQuestionReactionInAnOffChannel: :question: in a channel whose mode
// is off posts nothing and asks nothing: the person who reacted is told,
// privately, where docsbot answers.
func TestHelpQuestionReactionInAnOffChannel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(helpIn(bot.ModeOff))
	ts := h.post(bob, help, "we should document how to rotate an API key")
	h.react(alice, help, ts, "question")
	h.WaitFor("alice told docsbot does not answer here", func() bool {
		return len(h.Privates(alice, "does not answer questions in this channel")) == 1
	})
	h.Settle()
	if r := h.botReplies(help, ts); len(r) != 0 {
		t.Errorf(":question: in an off channel posted in the thread: %+v", r)
	}
	if n := h.API.Questions(); n != 0 {
		t.Errorf("the assistant was asked %d times, want none", n)
	}
}

// TestHelpQuestionReactionPastTheShare: a :question: of a person whose share
// of questions is spent posts nothing: they are told privately when they
// can ask again; the message may still be asked about by someone else.
func TestHelpQuestionReactionPastTheShare(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Config: app.Config{Ask: ask.Config{PerUser: 1}}})
	h.Command(bob, general, "/docs-ask", "How do I install the CLI?")
	h.WaitFor("bob's question answered", func() bool { return h.API.Questions() == 1 })
	ts := h.post(alice, general, "we should document how to rotate an API key")
	h.react(bob, general, ts, "question")
	h.WaitFor("bob told his share is spent", func() bool { return h.told(bob, "You asked 1 question in the last hour") })
	h.Idle()
	if n := h.attributions(general, ts); n != 0 {
		t.Errorf("%d lines say bob asked about the message, though his share is spent", n)
	}
	h.react(alice, general, ts, "question")
	m := h.answerIn(general, ts)
	bottest.WantContains(t, "the answer", m.Text+bottest.Rendered(m), "According to Authentication")
	h.Settle()
	if n := h.attributions(general, ts); n != 1 {
		t.Errorf("%d lines say someone asked about the message, want alice's alone", n)
	}
}

// TestHelpQuestionReactionOnceFor30Days: a message is asked about with
// :question: once, also after the hour the inbox remembers a reaction's
// work: reacting again then asks nothing and posts nothing.
func TestHelpQuestionReactionOnceFor30Days(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	ts := h.post(alice, general, "we should document how to rotate an API key")
	h.react(bob, general, ts, "question")
	h.answerIn(general, ts)
	h.Idle()
	// An hour later the inbox has forgotten the reactions' work (and the
	// answers'): a reaction then is new work.
	if n := redistest.ExpireKeys(t, h.RedisURL, h.Prefix+"*in:*react:*"); n == 0 {
		t.Fatal("no work of the reaction in the inbox to forget")
	}
	h.react(bob, general, ts, "question")
	h.react(alice, general, ts, "question")
	h.Settle()
	if n := h.attributions(general, ts); n != 1 {
		t.Errorf("%d lines say someone asked about the message, want 1", n)
	}
	if n := h.API.Questions(); n != 1 {
		t.Errorf("the assistant was asked %d times, want once", n)
	}
}
