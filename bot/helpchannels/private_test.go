package helpchannels_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// shareButtons are the messages shown to user alone with Share in channel
// (their private answers), oldest first.
func (h *harness) shareButtons(user string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.Slack.Ephemerals(user) {
		if strings.Contains(string(m.Blocks), bot.ActionShareAnswer) {
			out = append(out, m)
		}
	}
	return out
}

// waitShareButtons waits until user was shown n private answers with
// Share in channel and returns them, oldest first.
func (h *harness) waitShareButtons(user string, n int) []slacktest.Message {
	h.T.Helper()
	h.WaitFor("private answers shown to "+user, func() bool { return len(h.shareButtons(user)) >= n })
	return h.shareButtons(user)
}

// share presses Share in channel under the private answer m of user.
func (h *harness) share(user string, m slacktest.Message) {
	h.T.Helper()
	h.Act(slacktest.Action{UserID: user, ChannelID: help, MessageTS: m.TS, ActionID: bot.ActionShareAnswer})
}

// TestHelpPrivateAskersApart: in a private channel each asker's questions
// in a thread are a conversation of their own: another person's mention in
// the asker's thread is answered without the asker's question, and each
// one's Share in channel posts their own answer, whatever was asked after
// it.
func TestHelpPrivateAskersApart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(helpIn(bot.ModePrivate))
	q := h.post(alice, help, "How do I rotate an API key?")
	mine := h.waitShareButtons(alice, 1)[0]
	if _, err := h.Slack.Mention(t.Context(), slacktest.UserMessage{ChannelID: help, UserID: bob, ThreadTS: q,
		Text: "<@U0BOT> how do webhooks get signed?"}); err != nil {
		t.Fatal(err)
	}
	theirs := h.waitShareButtons(bob, 1)[0]
	bottest.WantContains(t, "bob's private answer", theirs.Text, "According to Webhooks")
	if strings.Contains(theirs.Text, "earlier question") {
		t.Errorf("bob's answer went on with alice's conversation: %q", theirs.Text)
	}

	h.share(alice, mine)
	h.WaitFor("alice's answer shared", func() bool { return len(h.botReplies(help, q)) == 1 })
	shared := h.botReplies(help, q)[0]
	bottest.WantContains(t, "alice's shared answer", shared.Text, "<@"+alice+"> shared docsbot's answer", "According to Authentication")
	if strings.Contains(shared.Text, "Webhooks") {
		t.Errorf("alice's Share posted bob's answer: %q", shared.Text)
	}
	h.share(bob, theirs)
	h.WaitFor("bob's answer shared", func() bool { return len(h.botReplies(help, q)) == 2 })
	bottest.WantContains(t, "bob's shared answer", h.botReplies(help, q)[1].Text, "<@"+bob+"> shared docsbot's answer", "According to Webhooks")
	h.Settle()
	if n := len(h.botReplies(help, q)); n != 2 {
		t.Errorf("%d messages of docsbot in the thread, want the two answers shared", n)
	}
}

// TestHelpPrivateChannelAnswersPrivately: in a private channel a
// :question: reaction is answered to the person who reacted alone, and so
// is a mention where the channel's mode cannot be read (its record
// unreadable): neither answer shows in the thread.
func TestHelpPrivateChannelAnswersPrivately(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ask  func(h *harness) string // asks as bob; the thread's ts
	}{
		{"a :question: reaction", func(h *harness) string {
			ts := h.post(alice, help, "the webhook signatures fail for me")
			h.react(bob, help, ts, "question")
			return ts
		}},
		{"a mention where the mode cannot be read", func(h *harness) string {
			rdb, err := redistest.ClientOf(h.RedisURL)
			if err != nil {
				h.T.Fatal(err)
			}
			defer rdb.Close()
			if err := rdb.HSet(h.T.Context(), h.Prefix+"help:modes", help, "not a mode").Err(); err != nil {
				h.T.Fatal(err)
			}
			m, err := h.Slack.Mention(h.T.Context(), slacktest.UserMessage{ChannelID: help, UserID: bob, Text: "<@U0BOT> how do webhooks get signed?"})
			if err != nil {
				h.T.Fatal(err)
			}
			return m.TS
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.StartBot(helpIn(bot.ModePrivate))
			ts := tc.ask(h)
			private := h.waitShareButtons(bob, 1)[0]
			bottest.WantContains(t, "the private answer", private.Text, "According to")
			h.Settle()
			for _, r := range h.botReplies(help, ts) {
				if strings.Contains(r.Text+string(r.Blocks), "According to") {
					t.Errorf("the answer shows in the thread: %q", r.Text)
				}
			}
		})
	}
}

// TestHelpShareAfterALongConversation: a private conversation of long
// answers is kept cut to what the assistant is sent again; Share in
// channel still posts the last answer whole, and under an earlier answer
// says it is no longer the one kept to share.
func TestHelpShareAfterALongConversation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(helpIn(bot.ModePrivate))
	first := "Rotate keys from the dashboard. " + strings.Repeat("More words on keys. ", 3000) // 60,000 characters
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Times: 1, Deltas: []string{first}})
	q := h.post(alice, help, "How do I rotate an API key?")
	h.waitShareButtons(alice, 1)
	last := "Verify webhooks with the secret. " + strings.Repeat("Check the signature. ", 120) + "That is all."
	h.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Times: 1, Deltas: []string{last}})
	h.Reply(alice, help, q, "And how do webhooks get signed?")
	answers := h.waitShareButtons(alice, 2)

	kept, err := h.OpenStore().Conversations().Conversation(t.Context(),
		store.ConversationKey{Thread: store.Thread{Team: "T0TEST", Channel: help, TS: q}, Asker: alice})
	if err != nil {
		t.Fatal(err)
	}
	chars := 0
	for _, tn := range kept.Turns {
		chars += utf8.RuneCountInString(tn.Text)
	}
	if chars > store.HistoryMax || kept.Answers != 2 {
		t.Errorf("the conversation keeps %d characters of turns after answer %d, want at most %d after answer 2", chars, kept.Answers, store.HistoryMax)
	}

	h.share(alice, answers[0])
	h.WaitFor("alice told the first answer is not kept to share", func() bool { return h.told(alice, "not your latest answer in this thread") })
	h.share(alice, answers[1])
	h.WaitFor("the last answer shared", func() bool { return len(h.botReplies(help, q)) == 1 })
	shared := h.botReplies(help, q)[0]
	if want := "<@" + alice + "> shared docsbot's answer:\n\n" + last; shared.Text != want {
		t.Errorf("shared %d characters, want the last answer whole (%d): %.80q…", utf8.RuneCountInString(shared.Text), utf8.RuneCountInString(want), shared.Text)
	}
}

// TestHelpShareOfAnEarlierVersion: Share in channel shown by an earlier
// version names the thread alone: it shares only an answer provably the
// presser's (the thread's conversation is theirs, with that one answer);
// otherwise it tells them privately and posts nothing.
func TestHelpShareOfAnEarlierVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		turns  []store.Turn
		shared bool
	}{
		{"the asker's one answer", []store.Turn{{Role: "user", Text: "How do I rotate an API key?"}, {Role: "assistant", Text: "Rotate it on the dashboard."}}, true},
		{"another's answer after it", []store.Turn{{Role: "user", Text: "How do I rotate an API key?"}, {Role: "assistant", Text: "Rotate it on the dashboard."},
			{Role: "user", Text: "how do webhooks get signed?"}, {Role: "assistant", Text: "With the webhook secret."}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.StartBot(helpIn(bot.ModePrivate))
			q := h.post(alice, general, "a thread of an earlier version")
			thread := store.ConversationKey{Thread: store.Thread{Team: "T0TEST", Channel: general, TS: q}}
			if _, err := h.OpenStore().Conversations().UpdateConversation(t.Context(), thread, time.Hour, store.Conversation{}, func(c *store.Conversation) error {
				c.Asker, c.Turns = alice, tc.turns
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			button := slack.NewButtonBlockElement(bot.ActionShareAnswer, general+":"+q, slack.NewTextBlockObject(slack.PlainTextType, "Share in channel", false, false))
			ts, err := h.BotClient().PostEphemeralContext(t.Context(), general, alice, slack.MsgOptionTS(q), slack.MsgOptionText("an answer", false),
				slack.MsgOptionBlocks(slack.NewActionBlock("share", button)))
			if err != nil {
				t.Fatal(err)
			}
			h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: ts, ActionID: bot.ActionShareAnswer})
			if tc.shared {
				h.WaitFor("the answer shared", func() bool { return len(h.botReplies(general, q)) == 1 })
				bottest.WantContains(t, "the shared answer", h.botReplies(general, q)[0].Text, "<@"+alice+"> shared docsbot's answer", "Rotate it on the dashboard.")
				return
			}
			h.WaitFor("alice told it is not provably hers", func() bool { return h.told(alice, "cannot tell that this answer is yours") })
			h.Settle()
			if r := h.botReplies(general, q); len(r) != 0 {
				t.Errorf("an answer not provably alice's was shared: %+v", r)
			}
		})
	}
}
