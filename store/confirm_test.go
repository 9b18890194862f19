package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestConfirmNotAsked checks that a store asked for no replica acks (one
// server and Cluster, as Open makes them) neither waits nor writes its
// confirm counter, and Enqueue works as ever, in every topology.
func TestConfirmNotAsked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts []store.Option
	}{
		{"no option", nil},
		{"zero replicas", []store.Option{store.WithReplicaAcks(0, time.Second)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			s := newStore(t, tt.opts...)
			if n, err := s.Confirm(ctx); n != 0 || err != nil {
				t.Fatalf("Confirm = %d, %v; want 0, nil", n, err)
			}
			enqueue(t, s, work(1))
			if queued, err := s.Inbox().Enqueue(ctx, work(1), time.Hour); queued || err != nil {
				t.Fatalf("Enqueue again = %v, %v; want false, nil", queued, err)
			}
			if n, err := rdb.Exists(ctx, s.ConfirmKey()).Result(); n != 0 || err != nil {
				t.Fatalf("EXISTS %s = %d, %v; want no counter", s.ConfirmKey(), n, err)
			}
		})
	}
}

// TestConfirmSharedSentinel asks the shared Sentinel deployment's two
// replicas to confirm a write made on a client of its own, with a wait long
// enough for a loaded machine.
func TestConfirmSharedSentinel(t *testing.T) {
	if topology != "sentinel" {
		t.Skipf("needs the replicas of %s=sentinel", envTopology)
	}
	t.Parallel()
	ctx := t.Context()
	s := newStore(t, store.WithReplicaAcks(2, 10*time.Second))
	writer := newClient()
	defer writer.Close()
	if err := writer.Set(ctx, s.Prefix()+"probe", "1", time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Confirm(ctx); n != 2 || err != nil {
		t.Fatalf("Confirm = %d, %v; want 2 replicas", n, err)
	}
	enqueue(t, s, work(1))
	if queued, err := s.Inbox().Enqueue(ctx, work(1), time.Hour); queued || err != nil {
		t.Fatalf("Enqueue again = %v, %v; want false, nil", queued, err)
	}
}

// TestConfirmSentinel runs confirm and Enqueue against a Sentinel
// deployment of its own, as Open configures it (one replica, 100 ms), whose
// replicas it freezes so that they acknowledge nothing:
//
//   - confirm speaks for a write made on another connection: it reports no
//     replica while they are frozen, and once they run again the replicas
//     it reports have that write;
//   - Enqueue fails with ErrUnconfirmed (Temporary) while they are frozen,
//     its record standing on the primary, and a retry once they run again
//     finds the work seen and confirmed.
func TestConfirmSentinel(t *testing.T) {
	d := ownSentinel(t, "starts six redis-server processes")
	ctx := t.Context()
	s := openStore(t, d.URL)
	writer := d.Nodes[0].Client()
	t.Cleanup(func() { _ = writer.Close() })
	const probe = "docsbot:probe"

	// The replicas acknowledge everything written so far: what they do
	// not acknowledge below was written after they froze.
	if err := writer.Set(ctx, "docsbot:settled", "1", time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := writer.Do(ctx, "WAIT", 2, 10000).Int(); n != 2 || err != nil {
		t.Fatalf("WAIT for both replicas = %d, %v", n, err)
	}
	// The primary counts a replica silent for min-replicas-max-lag (5 s) as
	// gone and then refuses every write (NOREPLICAS): on a loaded machine
	// the frozen replicas can pass that before the writes below. This test
	// is about WAIT going unanswered, so the primary keeps them for a minute.
	if err := writer.ConfigSet(ctx, "min-replicas-max-lag", "60").Err(); err != nil {
		t.Fatal(err)
	}
	replicas := d.Nodes[1:]
	for _, r := range replicas {
		if err := r.Freeze(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = r.Thaw() }) // before Close
	}
	if err := writer.Set(ctx, probe, "1", time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Confirm(ctx); n != 0 || err != nil {
		t.Fatalf("Confirm with the replicas frozen = %d, %v; want 0, nil", n, err)
	}
	w := work(1)
	queued, err := s.Inbox().Enqueue(ctx, w, time.Hour)
	if !errors.Is(err, store.ErrUnconfirmed) || !store.Temporary(err) || !queued {
		t.Fatalf("Enqueue with the replicas frozen = %v, %v; want true (written), ErrUnconfirmed, temporary", queued, err)
	}
	if n, err := writer.Exists(ctx, s.WorkKeyOf(w.Key)).Result(); n != 1 || err != nil {
		t.Fatalf("the record on the primary: EXISTS = %d, %v; want 1", n, err)
	}

	for _, r := range replicas {
		if err := r.Thaw(); err != nil {
			t.Fatal(err)
		}
	}
	var confirmed int
	redistest.Until(t, "a replica to confirm", func() bool {
		n, err := s.Confirm(ctx)
		if err != nil {
			t.Fatalf("Confirm: %v", err)
		}
		confirmed = n
		return n >= 1
	})
	have := 0
	for _, r := range replicas {
		c := r.Client()
		n, err := c.Exists(ctx, probe).Result()
		c.Close()
		if err != nil {
			t.Fatalf("EXISTS on replica %s: %v", r.Addr, err)
		}
		have += int(n)
	}
	if have < confirmed {
		t.Fatalf("Confirm reported %d replicas, but %d have the write made before it", confirmed, have)
	}

	redistest.Until(t, "Enqueue again to be confirmed", func() bool {
		queued, err = s.Inbox().Enqueue(ctx, w, time.Hour)
		if err != nil && !errors.Is(err, store.ErrUnconfirmed) {
			t.Fatalf("Enqueue again: %v", err)
		}
		return err == nil
	})
	if queued {
		t.Fatal("Enqueue again queued the work a second time; want it seen")
	}
	if taken, err := s.Inbox().ClaimWork(ctx, 10, time.Minute); err != nil || len(taken) != 1 || taken[0].Key != w.Key {
		t.Fatalf("ClaimWork = %v, %v; want just %s", taken, err, w.Key)
	}
}

// TestEnqueueUnconfirmedReportsQueued: on a primary without replicas,
// Enqueue fails with ErrUnconfirmed, and its queued result still says
// whether this call wrote the record: true the first time, false (seen)
// the next.
func TestEnqueueUnconfirmedReportsQueued(t *testing.T) {
	standaloneOnly(t)
	t.Parallel()
	client := ownRedis(t).Client()
	t.Cleanup(func() { _ = client.Close() })
	s := store.New(client, store.WithReplicaAcks(1, 10*time.Millisecond))
	tests := []struct {
		name       string
		wantQueued bool
	}{
		{"new work", true},
		{"work seen before", false},
	}
	for _, tt := range tests {
		queued, err := s.Inbox().Enqueue(t.Context(), work(1), time.Hour)
		if queued != tt.wantQueued || !errors.Is(err, store.ErrUnconfirmed) {
			t.Errorf("%s: Enqueue without replicas = %v, %v; want %v, ErrUnconfirmed", tt.name, queued, err, tt.wantQueued)
		}
	}
}
