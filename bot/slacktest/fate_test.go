package slacktest

import (
	"context"
	"testing"
	"time"
)

// postUnwaited posts a message event without waiting for its ack and returns
// its event id.
func postUnwaited(t *testing.T, s *Server, text string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(testContext(t))
	cancel() // PostUserMessage delivers first, then waits: do not wait
	_, id, _ := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: text})
	if id == "" {
		t.Fatal("no event id")
	}
	return id
}

// waitFate waits until the event's fate satisfies cond.
func waitFate(t *testing.T, s *Server, id string, cond func(EventFate) bool) EventFate {
	t.Helper()
	var f EventFate
	err := s.WaitFor(testContext(t), func() bool {
		var ok bool
		f, ok = s.EventFate(id)
		return ok && cond(f)
	})
	if err != nil {
		t.Fatalf("event %s: fate %+v: %v", id, f, err)
	}
	return f
}

func TestEventFate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// redelivery is WithRedelivery's time; drops, how many times the
		// connections are dropped, each after the client saw the event.
		redelivery time.Duration
		drops      int
		ack        func(d delivery) bool
		want       EventFate
		deliveries int
	}{
		{
			name: "acked on a retry", redelivery: time.Minute, drops: 2,
			ack:  func(d delivery) bool { return d.attempt == 2 },
			want: EventFate{Acked: true, Attempt: 2}, deliveries: 3,
		},
		{
			name: "no ack after the last retry: given up", redelivery: 20 * time.Millisecond,
			ack:  func(delivery) bool { return false },
			want: EventFate{Attempt: maxRetries, GaveUp: true}, deliveries: 4,
		},
		{
			name: "the last retry's connection dropped: given up, the last try lost", redelivery: time.Minute, drops: 4,
			ack:  func(delivery) bool { return false },
			want: EventFate{Attempt: maxRetries, GaveUp: true, LastLost: true}, deliveries: 4,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t, WithRedelivery(tc.redelivery))
			var seen recorder[delivery]
			startClient(t, s, eventsRecorder(&seen, tc.ack))
			id := postUnwaited(t, s, "hello")
			for i := range tc.drops {
				waitLen(t, &seen, min(i+1, tc.deliveries))
				if err := s.WaitConnections(testContext(t), 1); err != nil {
					t.Fatal(err)
				}
				s.DropConnections()
			}
			got := waitFate(t, s, id, EventFate.Settled)
			if got != tc.want {
				t.Errorf("fate = %+v, want %+v", got, tc.want)
			}
			if n := len(waitLen(t, &seen, tc.deliveries)); n != tc.deliveries {
				t.Errorf("deliveries = %d, want %d", n, tc.deliveries)
			}
		})
	}
}

// TestDropConnectionsRetriesOnce: dropping every connection at once costs an
// event pending on one of them one retry, not one per connection closed.
func TestDropConnectionsRetriesOnce(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithRedelivery(time.Minute))
	var seen recorder[delivery]
	for range 3 {
		startClient(t, s, eventsRecorder(&seen, func(d delivery) bool { return d.attempt > 0 }))
	}
	if err := s.WaitConnections(testContext(t), 3); err != nil {
		t.Fatal(err)
	}
	id := postUnwaited(t, s, "hello")
	waitLen(t, &seen, 1)
	s.DropConnections()
	f := waitFate(t, s, id, EventFate.Settled)
	got := seen.all()
	if f != (EventFate{Acked: true, Attempt: 1}) || len(got) != 2 || got[1].attempt != 1 {
		t.Errorf("after one drop of 3 connections: fate %+v, deliveries %+v; want acked on retry_attempt 1", f, got)
	}
}
