package helpchannels_test

import (
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestHelpOutcomes: a help channel's question the docs do not cover is
// uncertain; Ask an expert hands it off; Mark resolved after an expert's
// reply is resolved_by_expert; a question answered with sources is
// resolved by its asker's ✅ on it.
func TestHelpOutcomes(t *testing.T) {
	t.Parallel()
	c := &clock{now: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)}
	h, cfg := expertsWorld(t, c)
	h.StartBot(cfg)
	st := h.OpenStore()
	outcomeIs := func(ts, want string) {
		t.Helper()
		var r store.OutcomeRecord
		var err error
		h.WaitFor("the outcome "+want, func() bool {
			r, err = st.Outcomes().Outcome(t.Context(), store.OutcomeRef{Team: "T0TEST", Channel: help, TS: ts})
			return err == nil && outcome.At(r, c.Now()) == want
		})
	}

	q := h.post(bob, help, "Why is the office coffee machine always broken?")
	note := h.WaitButtons(bob, bot.ActionAskExpert)
	outcomeIs(q, outcome.Uncertain)
	h.Act(slacktest.Action{UserID: bob, ChannelID: help, MessageTS: note.TS, ActionID: bot.ActionAskExpert})
	h.WaitFor("the experts called", func() bool { return len(h.threadWith(q, "asked a question")) == 1 })
	outcomeIs(q, outcome.HandedOff)
	h.Reply(carol, help, q, "It needs descaling: Settings, Maintenance, Descale.")
	call := h.threadWith(q, "asked a question")[0]
	h.Act(slacktest.Action{UserID: bob, ChannelID: help, MessageTS: call.TS, ActionID: bot.ActionMarkResolved})
	outcomeIs(q, outcome.ResolvedByExpert)

	q2 := h.post(alice, help, "How do I rotate an API key?")
	h.WaitFor("the answer", func() bool { return len(h.botReplies(help, q2)) > 0 })
	outcomeIs(q2, outcome.Open)
	if err := h.Slack.React(t.Context(), alice, help, q2, "white_check_mark"); err != nil {
		t.Fatal(err)
	}
	outcomeIs(q2, outcome.Resolved)
}

// TestHelpSignalsBeforeTheAnswersTs: a help channel's answer posted whole
// shows before docsbot hears its ts back from Slack (the fake holds the
// answer of chat.stopStream); the asker's ✅ on the question, 👍 on the
// answer or ✅ on the answer meanwhile counts, and once the ts comes the
// record names the answer too.
func TestHelpSignalsBeforeTheAnswersTs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(helpIn(bot.ModeAuto))
	st := h.OpenStore()
	record := func(ts string) (store.OutcomeRecord, error) {
		return st.Outcomes().Outcome(t.Context(), store.OutcomeRef{Team: "T0TEST", Channel: help, TS: ts})
	}
	check := func(ts string) {
		if err := h.Slack.React(t.Context(), alice, help, ts, "white_check_mark"); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name   string
		signal func(q, answer string)
		want   string
	}{
		{"✅ on the question", func(q, _ string) { check(q) }, outcome.Resolved},
		{"👍 on the answer", func(_, answer string) {
			h.Act(slacktest.Action{UserID: alice, ChannelID: help, MessageTS: answer, ActionID: ask.ActionFeedback, Value: "good"})
		}, outcome.RatedHelpful},
		{"✅ on the answer", func(_, answer string) { check(answer) }, outcome.Resolved},
	} {
		q := h.post(alice, help, "How do I rotate an API key? ("+c.name+")")
		hold := h.Slack.HoldAnswer("chat.stopStream", func(p map[string]string) bool { return p["channel"] == help })
		t.Cleanup(hold.Release)
		held, err := hold.Wait(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		c.signal(q, held.TS)
		h.WaitFor(c.name+" counted before the answer's ts is known", func() bool {
			r, err := record(q)
			return err == nil && r.Outcome == c.want
		})
		hold.Release()
		h.WaitFor(c.name+": the record names the answer", func() bool {
			r, err := record(held.TS)
			return err == nil && r.TS == q && r.Answer == held.TS && r.Outcome == c.want
		})
	}
}

// TestHelpCheckAfterAnotherReplied: the asker's ✅ on a question answered
// from the docs, after someone else replied in its thread (a reply docsbot
// keeps no conversation of), is resolved_by_expert: the ✅ reads the
// thread, as Mark resolved does; docsbot's own answer in it is no such
// reply.
func TestHelpCheckAfterAnotherReplied(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Slack.AddUser(carol, "carol")
	h.StartBot(helpIn(bot.ModeAuto))
	st := h.OpenStore()
	outcomeIs := func(ts, want string) {
		t.Helper()
		h.WaitFor("the outcome "+want, func() bool {
			r, err := st.Outcomes().Outcome(t.Context(), store.OutcomeRef{Team: "T0TEST", Channel: help, TS: ts})
			return err == nil && r.Outcome == want
		})
	}
	for _, c := range []struct {
		name, reply, want string
	}{
		{"carol replied", "Settings, API keys, Rotate: that is how I do it.", outcome.ResolvedByExpert},
		{"nobody else replied", "", outcome.Resolved},
	} {
		q := h.post(alice, help, "How do I rotate an API key? ("+c.name+")")
		answer := h.answerIn(help, q)
		outcomeIs(q, outcome.Open)
		if c.reply != "" {
			h.Reply(carol, help, q, c.reply)
		}
		if err := h.Slack.React(t.Context(), alice, help, answer.TS, "white_check_mark"); err != nil {
			t.Fatal(err)
		}
		outcomeIs(q, c.want)
	}
}

// TestHelpCheckNotRecordedIsTold: a ✅ whose outcome Redis refuses to
// record (the question's reference made another type of key) is left for
// Slack to deliver again; on Slack's last try its person is told privately
// that it was not counted and to add it again.
func TestHelpCheckNotRecordedIsTold(t *testing.T) {
	t.Parallel()
	h := &harness{bottest.NewWith(t, redisURL, []slacktest.Option{slacktest.WithRedelivery(20 * time.Millisecond)})}
	h.Slack.AddChannel(slacktest.Channel{ID: help, Name: "help", BotMember: true})
	h.StartBot(helpIn(bot.ModeAuto))
	q := h.post(alice, help, "How do I rotate an API key?")
	h.answerIn(help, q)
	rdb, err := redistest.ClientOf(h.RedisURL)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	ref := h.Prefix + "outcome-ref:T0TEST:" + help + ":" + q
	h.WaitFor("the question recorded", func() bool { return rdb.Exists(t.Context(), ref).Val() == 1 })
	// The answer's work may still be writing its records: the reference
	// is replaced once the inbox is empty, in one script.
	h.Idle()
	const replace = `redis.call('DEL', KEYS[1]) return redis.call('HSET', KEYS[1], 'not', 'a reference')`
	if err := rdb.Eval(t.Context(), replace, []string{ref}).Err(); err != nil {
		t.Fatal(err)
	}
	if err := h.Slack.React(t.Context(), alice, help, q, "white_check_mark"); err != nil {
		t.Fatal(err)
	}
	h.WaitForEphemeral(alice, "could not count your ✅")
	if n := h.Slack.Redelivered(); n < bot.SlackEventRetries {
		t.Errorf("%d redeliveries: the person was told before Slack's last try", n)
	}
}

// TestCheckOnOtherMessagesCostsNothing: a ✅ on a message docsbot posted
// outside a channel that answers unasked (another feature's, such as a
// job's result) is acknowledged with no work queued and no read of Slack:
// only an answer posted whole in an auto channel may lack its record.
func TestCheckOnOtherMessagesCostsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(helpIn(bot.ModeAuto))
	_, ts, err := h.BotClient().PostMessageContext(t.Context(), general, slack.MsgOptionText("The docs job finished: the pull request is open.", false))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Slack.React(t.Context(), alice, general, ts, "white_check_mark"); err != nil {
		t.Fatal(err)
	}
	h.Idle()
	for _, method := range []string{"conversations.replies", "conversations.history"} {
		if n := len(h.Slack.Calls(method)); n != 0 {
			t.Errorf("%d calls of %s for a ✅ on a message that answers no question, want none", n, method)
		}
	}
	if strings.Contains(h.Logs.String(), "help.resolved") {
		t.Errorf("a ✅ on a message that answers no question became work:\n%s", h.Logs.String())
	}
}
