package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// socketRig is a socketConn against a fake Slack, with a handler that
// records each envelope it is given and acks it when told (release).
type socketRig struct {
	t     *testing.T
	slack *slacktest.Server
	conn  *socketConn
	mu    sync.Mutex
	seen  map[string]int // envelope id: times given to the handler
	held  []*envelope
	hold  bool
	done  chan error
	// taken is signalled (coalesced) when the handler is given an envelope.
	taken chan struct{}
}

// newSocketRig runs a socketConn against a fake Slack that sends nothing
// again by itself (no redelivery), so that an envelope lost is seen lost.
func newSocketRig(t *testing.T) *socketRig {
	t.Helper()
	sl := slacktest.NewServer(slacktest.WithPingInterval(100*time.Millisecond), slacktest.WithRedelivery(0))
	t.Cleanup(sl.Close)
	r := &socketRig{t: t, slack: sl, seen: map[string]int{}, done: make(chan error, 1), taken: make(chan struct{}, 1)}
	api := slack.New(sl.BotToken(), slack.OptionAPIURL(sl.APIURL), slack.OptionAppLevelToken(sl.AppToken()))
	r.conn = newSocketConn(api, slog.New(slog.DiscardHandler))
	r.conn.hooks = socketHooks{
		connecting: func(int, int) {}, connected: func(int) {}, failed: func(int, time.Duration, error) {}, refused: func(error) {},
		envelope: r.take,
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { r.done <- r.conn.run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-r.done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	r.wait("a connection", func() bool { return sl.Connections() == 1 })
	return r
}

func (r *socketRig) take(env *envelope) {
	defer func() {
		select {
		case r.taken <- struct{}{}:
		default:
		}
	}()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen[env.EnvelopeID]++
	if r.hold {
		r.held = append(r.held, env)
		return
	}
	r.ack(env)
}

// ack acks env, answering a slash command with text.
func (r *socketRig) ack(env *envelope) {
	var payload any
	if env.Type == envelopeSlashCommands {
		payload = Ephemeral("taken")
	}
	if err := r.conn.acks.ack(env.EnvelopeID, payload); err != nil {
		r.t.Errorf("ack %s: %v", env.EnvelopeID, err)
	}
}

// holding makes the handler hold its acks (true) or acks those it held.
func (r *socketRig) holding(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hold = on
	if !on {
		for _, env := range r.held {
			r.ack(env)
		}
		r.held = nil
	}
}

func (r *socketRig) given() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.seen)
}

// wait waits until cond holds, looking again at each change of the fake
// Slack and each envelope given to the handler.
func (r *socketRig) wait(what string, cond func() bool) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(r.t.Context(), 30*time.Second)
	defer cancel()
	changes, stop := r.slack.Changes()
	defer stop()
	for !cond() {
		select {
		case <-changes:
		case <-r.taken:
		case <-ctx.Done():
			r.t.Fatalf("waiting for %s: %v", what, ctx.Err())
		}
	}
}

// send sends n slash commands and n people's messages; it returns their
// envelopes' ids.
func (r *socketRig) send(n int, label string) []string {
	r.t.Helper()
	var ids []string
	for i := range n {
		env, _, err := r.slack.SendSlashCommand(r.t.Context(), slacktest.SlashCommand{
			Command: "/docs-agent", Text: fmt.Sprintf("%s %d", label, i), UserID: "U0ALICE", ChannelID: "C0GENERAL"})
		if err != nil {
			r.t.Fatal(err)
		}
		// Sent without waiting for its ack (a context already ended).
		sent, stop := context.WithCancel(r.t.Context())
		stop()
		_, eventID, err := r.slack.PostUserMessage(sent, slacktest.UserMessage{
			ChannelID: "C0GENERAL", UserID: "U0BOB", Text: fmt.Sprintf("%s %d", label, i)})
		if err != nil && !errors.Is(err, context.Canceled) {
			r.t.Fatal(err)
		}
		evEnv, ok := r.slack.EnvelopeOfEvent(eventID)
		if !ok {
			r.t.Fatalf("no envelope for event %s", eventID)
		}
		ids = append(ids, env, evEnv)
	}
	return ids
}

// TestSocketReplacedLosesNothing: Slack asks for a new connection
// (disconnect, each reason) or the connection drops, while envelopes wait
// for their acks: a new connection opens, the old one is closed, the acks
// held go out on the new one, and every envelope sent before and after is
// given to the handler once and acked once, with its payload.
func TestSocketReplacedLosesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		replace func(*slacktest.Server)
	}{
		{"disconnect refresh_requested", func(s *slacktest.Server) { s.Disconnect("refresh_requested") }},
		{"disconnect warning", func(s *slacktest.Server) { s.Disconnect("warning") }},
		{"disconnect link_disabled", func(s *slacktest.Server) { s.Disconnect("link_disabled") }},
		{"dropped", (*slacktest.Server).DropConnections},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newSocketRig(t)
			r.holding(true)
			before := r.send(3, "before")
			r.wait("the envelopes before in the handler", func() bool { return len(r.given()) == len(before) })
			tc.replace(r.slack)
			r.wait("a new connection in place of the old", func() bool { return r.slack.Connects() == 2 && r.slack.Connections() == 1 })
			r.holding(false)
			after := r.send(3, "after")
			all := append(before, after...)
			r.wait("every envelope acked", func() bool { return len(ackCounts(r.slack)) == len(all) })

			acks, given := ackCounts(r.slack), r.given()
			for _, id := range all {
				if acks[id] != 1 || given[id] != 1 {
					t.Errorf("envelope %s: given to the handler %d times, acked %d times; want once each", id, given[id], acks[id])
				}
			}
			if extra := slices.DeleteFunc(slices.Collect(maps.Keys(acks)), func(id string) bool { return slices.Contains(all, id) }); len(extra) > 0 {
				t.Errorf("acks of envelopes never sent: %v", extra)
			}
			for _, a := range r.slack.Acks() {
				if isCommand := slices.Index(all, a.EnvelopeID)%2 == 0; isCommand != (len(a.Payload) > 0) {
					t.Errorf("ack of %s with payload %s", a.EnvelopeID, a.Payload)
				}
			}
		})
	}
}

// ackCounts is how many times Slack got the ack of each envelope.
func ackCounts(s *slacktest.Server) map[string]int {
	n := map[string]int{}
	for _, a := range s.Acks() {
		n[a.EnvelopeID]++
	}
	return n
}

// TestSocketRefusedTokenEndsRun: Slack refusing the app-level token ends
// run with an error the bot reads as such (ErrAppToken), at the first
// attempt.
func TestSocketRefusedTokenEndsRun(t *testing.T) {
	t.Parallel()
	sl := slacktest.NewServer()
	t.Cleanup(sl.Close)
	api := slack.New(sl.BotToken(), slack.OptionAPIURL(sl.APIURL), slack.OptionAppLevelToken("xapp-revoked"))
	conn := newSocketConn(api, slog.New(slog.DiscardHandler))
	refused, attempts := 0, 0
	conn.hooks = socketHooks{
		connecting: func(int, int) { attempts++ }, connected: func(int) { t.Error("connected with a refused token") },
		failed: func(int, time.Duration, error) {}, refused: func(error) { refused++ }, envelope: func(*envelope) {},
	}
	err := conn.run(t.Context())
	if !refusedToken(err) || refused != 1 || attempts != 1 {
		t.Fatalf("run = %v (refused %d, attempts %d); want the token refused at the first attempt", err, refused, attempts)
	}
	if err := conn.acks.ack("e1", nil); err == nil {
		t.Error("an ack was taken after run returned")
	}
}
