package slacktest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// delivery is one events_api envelope as the client saw it.
type delivery struct {
	envelopeID string
	attempt    int
	reason     string
	eventID    string
}

func eventsRecorder(r *recorder[delivery], ack func(d delivery) bool) handler {
	return func(sm *socketmode.Client, e socketmode.Event) {
		if e.Type != socketmode.EventTypeEventsAPI {
			return
		}
		outer := e.Data.(slackevents.EventsAPIEvent).Data.(*slackevents.EventsAPICallbackEvent)
		d := delivery{e.Request.EnvelopeID, e.Request.RetryAttempt, e.Request.RetryReason, outer.EventID}
		r.add(d)
		if ack(d) {
			_ = sm.Ack(*e.Request)
		}
	}
}

func TestRedelivery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		redelivery time.Duration
		// ack decides whether the client acks a delivery; s lets it act on the server.
		ack         func(s *Server, d delivery) bool
		wantAttempt []int
	}{
		{
			name:        "unacked event is resent after the timeout",
			redelivery:  50 * time.Millisecond,
			ack:         func(_ *Server, d delivery) bool { return d.attempt >= 1 },
			wantAttempt: []int{0, 1},
		},
		{
			name:       "event pending on a dropped connection goes to the next one",
			redelivery: time.Minute,
			ack: func(s *Server, d delivery) bool {
				if d.attempt == 0 {
					s.DropConnections()
					return false
				}
				return true
			},
			wantAttempt: []int{0, 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t, WithRedelivery(tc.redelivery))
			var seen recorder[delivery]
			startClient(t, s, eventsRecorder(&seen, func(d delivery) bool { return tc.ack(s, d) }))
			_, eventID, err := s.PostUserMessage(testContext(t), UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "hello"})
			if err != nil {
				t.Fatal(err)
			}
			// An ack slowed by a loaded machine may let the timer send the
			// event once more: such extra deliveries must be the next
			// attempts of the same envelope.
			got := waitLen(t, &seen, len(tc.wantAttempt))
			last := len(tc.wantAttempt) - 1
			for i, d := range got {
				wantAttempt := tc.wantAttempt[min(i, last)] + max(i-last, 0)
				wantReason := ""
				if i > 0 {
					wantReason = "timeout"
				}
				if d.attempt != wantAttempt || d.reason != wantReason || d.eventID != eventID || d.envelopeID != got[0].envelopeID {
					t.Errorf("delivery %d = %+v, want attempt %d reason %q event %s envelope %s", i, d, wantAttempt, wantReason, eventID, got[0].envelopeID)
				}
			}
		})
	}
}

// envelopeState is the delivery state of an envelope, read under the lock.
func envelopeState(t *testing.T, s *Server, id string) (attempt int, timerArmed bool) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.envs[id]
	if !ok {
		t.Fatalf("envelope %s unknown to the server", id)
	}
	return e.attempt, e.timer != nil
}

func TestRetriesStopAfterThree(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithRedelivery(20*time.Millisecond))
	var seen recorder[delivery]
	startClient(t, s, eventsRecorder(&seen, func(delivery) bool { return false }))
	ctx, cancel := context.WithCancel(testContext(t))
	done := make(chan error, 1)
	go func() {
		_, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "anyone?"})
		done <- err
	}()
	got := waitLen(t, &seen, 4)
	for i, d := range got {
		wantReason := ""
		if i > 0 {
			wantReason = "timeout"
		}
		if d.attempt != i || d.reason != wantReason || d.envelopeID != got[0].envelopeID {
			t.Errorf("delivery %d = %+v, want attempt %d reason %q envelope %s", i, d, i, wantReason, got[0].envelopeID)
		}
	}
	// The fourth sending was the last: Slack gives up on it, and no timer
	// is left to send a fifth.
	f := waitFate(t, s, got[0].eventID, func(f EventFate) bool { return f.GaveUp })
	if attempt, armed := envelopeState(t, s, got[0].envelopeID); attempt != maxRetries || armed || f.Acked || f.LastLost {
		t.Errorf("after retry_attempt %d: attempt %d, timer armed %v, fate %+v; want %d, no timer, given up with the connection open", maxRetries, attempt, armed, f, maxRetries)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("PostUserMessage without an ack = %v, want context.Canceled", err)
	}
	if n := seen.len(); n != 4 {
		t.Errorf("deliveries = %d, want 4 (attempts 0..3)", n)
	}
}

func TestRedeliverExplicit(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithRedelivery(0))
	var seen recorder[delivery]
	startClient(t, s, eventsRecorder(&seen, func(delivery) bool { return true }))
	ctx := testContext(t)
	_, eventID, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	envelopeID := s.Acks()[0].EnvelopeID
	for attempt := 1; attempt <= 2; attempt++ {
		if err := s.Redeliver(ctx, envelopeID); err != nil {
			t.Fatal(err)
		}
		d := waitLen(t, &seen, attempt+1)[attempt]
		if d.attempt != attempt || d.reason != "timeout" || d.eventID != eventID || d.envelopeID != envelopeID {
			t.Errorf("redelivery %d = %+v", attempt, d)
		}
	}
	if n := len(s.Acks()); n != 3 {
		t.Errorf("acks = %d, want 3", n)
	}
	if err := s.Redeliver(ctx, "no-such-envelope"); !errors.Is(err, ErrUnknownEnvelope) {
		t.Errorf("Redeliver of an unknown envelope = %v, want ErrUnknownEnvelope", err)
	}
}

func TestSlashCommandsAreNotResent(t *testing.T) {
	t.Parallel()
	const after = 20 * time.Millisecond
	s := newTestServer(t, WithRedelivery(after))
	var slash recorder[string]
	startClient(t, s, func(sm *socketmode.Client, e socketmode.Event) {
		if e.Type == socketmode.EventTypeSlashCommand {
			slash.add(e.Request.EnvelopeID)
		}
	})
	id, _, err := s.SendSlashCommand(testContext(t), SlashCommand{Command: "/docs-agent", UserID: "U0ALICE", ChannelID: "C0GENERAL"})
	if err != nil {
		t.Fatal(err)
	}
	if got := waitLen(t, &slash, 1); got[0] != id {
		t.Fatalf("the client got envelope %s, want %s", got[0], id)
	}
	// Unacknowledged, yet no redelivery is armed: an events_api envelope
	// would have its timer running now.
	if attempt, armed := envelopeState(t, s, id); attempt != 0 || armed {
		t.Errorf("unacknowledged slash command: attempt %d, timer armed %v; want 0 and no timer", attempt, armed)
	}
}

func TestOldAcknowledgedEnvelopesAreForgotten(t *testing.T) {
	t.Parallel()
	const history = 3
	s := newTestServer(t, func(c *config) { c.envelopes = history })
	// The client acknowledges events, never slash commands.
	startClient(t, s, func(sm *socketmode.Client, e socketmode.Event) {
		if e.Type == socketmode.EventTypeEventsAPI {
			_ = sm.Ack(*e.Request)
		}
	})
	ctx := testContext(t)
	if err := s.WaitConnections(ctx, 1); err != nil {
		t.Fatal(err)
	}
	slash, _, err := s.SendSlashCommand(ctx, SlashCommand{Command: "/docs-agent", UserID: "U0ALICE", ChannelID: "C0GENERAL"})
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	for i := range 10 {
		_, id, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: fmt.Sprintf("message %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, id)
	}
	s.mu.Lock()
	kept, slashKept := len(s.envs), s.envs[slash] != nil
	s.mu.Unlock()
	if kept > history+1 || !slashKept {
		t.Errorf("the server keeps %d envelopes (history %d), the unacknowledged slash command kept: %v", kept, history, slashKept)
	}
	if _, ok := s.EnvelopeOfEvent(events[0]); ok {
		t.Error("the oldest acknowledged event's envelope is still known")
	}
	last, ok := s.EnvelopeOfEvent(events[len(events)-1])
	if !ok {
		t.Fatal("the newest event's envelope is forgotten")
	}
	if err := s.Redeliver(ctx, last); err != nil {
		t.Errorf("Redeliver of the newest envelope: %v", err)
	}
	if n := len(s.Acks()); n != len(events)+1 {
		t.Errorf("acks = %d, want %d: forgetting envelopes must not forget acks", n, len(events)+1)
	}
}
