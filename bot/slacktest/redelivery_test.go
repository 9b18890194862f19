package slacktest

import (
	"context"
	"errors"
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
			name:        "retries stop at retry_attempt 3",
			redelivery:  20 * time.Millisecond,
			ack:         func(_ *Server, d delivery) bool { return d.attempt >= 3 },
			wantAttempt: []int{0, 1, 2, 3},
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
			got := waitLen(t, &seen, len(tc.wantAttempt))
			for i, d := range got {
				wantReason := ""
				if i > 0 {
					wantReason = "timeout"
				}
				if d.attempt != tc.wantAttempt[i] || d.reason != wantReason || d.eventID != eventID || d.envelopeID != got[0].envelopeID {
					t.Errorf("delivery %d = %+v, want attempt %d reason %q event %s envelope %s", i, d, tc.wantAttempt[i], wantReason, eventID, got[0].envelopeID)
				}
			}
		})
	}
}

func TestRetriesStopAfterThree(t *testing.T) {
	t.Parallel()
	const after = 20 * time.Millisecond
	s := newTestServer(t, WithRedelivery(after))
	var seen recorder[delivery]
	startClient(t, s, eventsRecorder(&seen, func(delivery) bool { return false }))
	ctx, cancel := context.WithCancel(testContext(t))
	done := make(chan error, 1)
	go func() {
		_, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "anyone?"})
		done <- err
	}()
	waitLen(t, &seen, 4)
	// Ten more timeout periods: a fifth delivery would have happened by now.
	time.Sleep(10 * after)
	if n := seen.len(); n != 4 {
		t.Errorf("deliveries = %d, want 4 (attempts 0..3)", n)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("PostUserMessage without an ack = %v, want context.Canceled", err)
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
	if err := s.Redeliver(ctx, "no-such-envelope"); err == nil {
		t.Error("Redeliver of an unknown envelope succeeded")
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
	if _, _, err := s.SendSlashCommand(testContext(t), SlashCommand{Command: "/docs-agent", UserID: "U0ALICE", ChannelID: "C0GENERAL"}); err != nil {
		t.Fatal(err)
	}
	waitLen(t, &slash, 1)
	// Ten timeout periods: an events_api envelope would have been resent three times.
	time.Sleep(10 * after)
	if n := slash.len(); n != 1 {
		t.Errorf("slash command delivered %d times, want once", n)
	}
}
