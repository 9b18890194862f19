package ask_test

import (
	"context"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/store"
)

// TestAskAuditedOnceAfterAReplicaDied: a question whose replica died
// after asking the assistant (its audit record held for a Done that never
// came) is in the audit trail once after the next attempt ends it; one
// whose record went in before the replica died (its mark) is not added
// again.
func TestAskAuditedOnceAfterAReplicaDied(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		marks   map[string]string
		audited bool // the record went in before the replica died
	}{
		{"its record held for the Done", map[string]string{"share": "1", "asking": "1"}, false},
		{"its record in", map[string]string{"share": "1", "asking": "1", "audited": "1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			ctx := context.Background()
			audit := h.OpenStore().AuditLog(store.AuditOptions{})
			ts := h.PostNoAck(alice, general, "", "where is the quickstart?")
			q := bot.Question{Team: "T0TEST", Channel: general, User: alice, TS: ts, Text: "where is the quickstart?", Via: bot.ViaMention}
			h.DeadReplicaWork("ask:died", bot.WorkAsk, q, tc.marks)
			if tc.audited {
				if _, err := audit.Append(ctx, store.AuditRecord{Team: "T0TEST", Channel: general, User: alice,
					Action: ask.AuditAsk, Outcome: "asked", Detail: bot.ViaMention, Work: "ask:died"}); err != nil {
					t.Fatal(err)
				}
			}

			h.StartBot(bottest.Config{Answers: true, Config: app.Config{Bot: bot.Config{LandingWindow: time.Millisecond}}})
			h.WaitFor("alice told her answer was lost", func() bool { return h.told(alice, "stopped before it could show the answer") })
			h.Idle()
			var works []string
			err := audit.Each(ctx, store.AuditQuery{}, func(r store.AuditRecord) error {
				if r.Action == ask.AuditAsk {
					works = append(works, r.Work)
				}
				return nil
			})
			if err != nil || len(works) != 1 || works[0] != "ask:died" {
				t.Errorf("questions audited %q (%v), want ask:died once", works, err)
			}
			if n := h.API.Questions(); n != 0 {
				t.Errorf("the assistant was asked %d times after the replica died, want none", n)
			}
		})
	}
}
