package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// TestSentinelFailover runs the inbox through Sentinel: work queued before
// the primary is SIGKILLed is still there after the sentinels promote the
// replica, and the store works on the new primary, through the same URL.
func TestSentinelFailover(t *testing.T) {
	d := ownSentinel(t, "starts five redis-server processes and waits for a failover")
	ctx := t.Context()
	s, err := store.Open(ctx, d.URL)
	if err != nil {
		t.Fatalf("Open(%s): %v", d.URL, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if got := s.Topology(); got != store.Sentinel {
		t.Fatalf("Topology = %s, want sentinel", got)
	}
	for i := range 20 {
		enqueue(t, s, work(i))
	}
	// The writes reached the replica before the primary dies (a real
	// deployment asks WAIT for that; this test waits for the offset).
	if err := waitReplicated(ctx, d); err != nil {
		t.Fatal(err)
	}

	old, err := d.Primary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := store.Check(ctx, d.URL, "docsbot:"); err != nil || rep.Topology != store.Sentinel || rep.Primary != old {
		t.Fatalf("Check through the sentinels = %+v, %v; want sentinel with primary %s", rep, err, old)
	}
	if err := d.Nodes[0].Kill(); err != nil {
		t.Fatal(err)
	}
	now, err := d.WaitFailover(old, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("failover %s -> %s", old, now)
	// The old primary comes back; the sentinels make it a replica.
	if err := d.Nodes[0].Start(); err != nil {
		t.Fatal(err)
	}

	// The store reconnects to the new primary by itself; calls made during
	// the failover fail with a temporary error.
	var queued int64
	redistest.Until(t, "the store to work on the new primary", func() bool {
		n, err := s.Inbox().Queued(ctx)
		if err != nil && !store.Temporary(err) {
			t.Fatalf("Queued during the failover: %v (not temporary)", err)
		}
		queued = n
		return err == nil
	})
	if queued != 20 {
		t.Fatalf("Queued after the failover = %d, want the 20 pieces of work", queued)
	}
	began := time.Now()
	for {
		_, err := s.Inbox().Enqueue(ctx, work(100), time.Hour)
		if err == nil {
			break
		}
		if !store.Temporary(err) {
			t.Fatalf("Enqueue after the failover: %v (not temporary)", err)
		}
		if time.Since(began) > 45*time.Second {
			t.Fatalf("writes not taken 45 s after the old primary came back: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("writes taken again %v after the failover", time.Since(began).Round(time.Millisecond))
	taken, err := s.Inbox().ClaimWork(ctx, 100, time.Minute)
	if err != nil || len(taken) != 21 {
		t.Fatalf("ClaimWork after the failover = %d, %v; want 21", len(taken), err)
	}
}

// waitReplicated waits until the replica has the primary's replication offset.
func waitReplicated(ctx context.Context, d *redistest.Sentinels) error {
	p, r := d.Nodes[0].Client(), d.Nodes[1].Client()
	defer p.Close()
	defer r.Close()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		n, err := p.Do(ctx, "WAIT", 1, 1000).Int64()
		if err == nil && n >= 1 {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return errors.New(fmt.Sprint("the replica did not confirm the writes"))
}
