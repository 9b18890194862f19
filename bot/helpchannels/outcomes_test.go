package helpchannels_test

import (
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
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
