package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestAcceptAcksUnconfirmedWork runs a bot whose store waits for a replica
// (WithReplicaAcks) on a Redis that has none, so that every record of work
// stands on the primary unconfirmed (store.ErrUnconfirmed) until Accept's
// budget runs out. The command is acknowledged all the same, not refused,
// and its work is done exactly once:
//   - with Redis up throughout, every try ends unconfirmed;
//   - with Redis frozen or killed once the record is written, the try
//     under way or the later ones cannot reach it: the record made by an
//     earlier try still stands (killed, on the append-only file), and Accept
//     acknowledges it rather than tell the person it was not taken.
func TestAcceptAcksUnconfirmedWork(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// stop makes Redis unreachable once the record is written, and
		// returns what brings it back; nil leaves it up.
		stop func(rs *redistest.Server) (back func() error, err error)
	}{
		{"every try unconfirmed", nil},
		{"unconfirmed, then frozen", func(rs *redistest.Server) (func() error, error) { return rs.Thaw, rs.Freeze() }},
		{"unconfirmed, then killed", func(rs *redistest.Server) (func() error, error) { return rs.Start, rs.Kill() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rs := ownRedis(t)
			t.Cleanup(func() { _ = rs.Thaw() })
			h := bottest.New(t, redisURL)
			h.RedisURL = rs.URL
			h.StartBot(bottest.Config{StoreOptions: []store.Option{store.WithReplicaAcks(1, 10*time.Millisecond)}})
			watch := h.OpenStore()

			type result struct {
				ack *slacktest.Ack
				err error
			}
			// waits counts the WAITs the replica has sent: a second one
			// after the command says its first try came back unconfirmed.
			waits := func() int64 {
				st, err := watch.Stats().ServerStats(context.Background())
				if err != nil {
					return -1
				}
				return st.ByCommand["wait"]
			}
			before := waits()
			acked := make(chan result, 1)
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				ack, err := h.Slack.SlashCommand(ctx, slacktest.SlashCommand{
					Command: agent.Command, Text: "Document the CLI flags", UserID: alice, ChannelID: general,
				})
				acked <- result{ack, err}
			}()
			back := func() error { return nil }
			if tt.stop != nil {
				// Redis goes away once a try has come back unconfirmed (the
				// second WAIT is sent after it): before that, nothing tells
				// the replica the record stands, and refusing is right.
				h.WaitFor("the command's work recorded, unconfirmed", func() bool {
					n, err := watch.Inbox().Queued(context.Background())
					return err == nil && n > 0 && waits() >= before+2
				})
				var err error
				if back, err = tt.stop(rs); err != nil {
					t.Fatal(err)
				}
			}
			var res result
			select {
			case res = <-acked:
			case <-time.After(time.Minute):
				t.Fatal("the command was not acknowledged within a minute")
			}
			if res.err != nil {
				t.Fatal(res.err)
			}
			if text := privateText(res.ack.Payload); strings.Contains(text, "cannot reach its storage") {
				t.Errorf("ack = %q; want the command taken, not refused", text)
			}
			if err := back(); err != nil {
				t.Fatal(err)
			}
			// The replica may have claimed the work before Redis went
			// away (its own queueing wakes its inbox at once), and its
			// handler then fails on the dead Redis: the work comes back
			// when that claim's lease runs out, so wait for the inbox to
			// empty (Idle waits longer than a lease), not for a moment.
			h.Idle()
			h.Settle()
			if n := h.API.Count(docsapitest.EndpointCreate); n != 1 {
				t.Errorf("%d jobs created, want 1", n)
			}
			if !strings.Contains(h.Logs.String(), "no replica confirmed it in time; acknowledged") {
				t.Errorf("Accept did not log acknowledging unconfirmed work\nlogs:\n%s", h.Logs.String())
			}
		})
	}
}
