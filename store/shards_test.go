package store_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

// TestShardsSpread checks that jobs and work spread over the shards, and
// that claims reach every shard: each job is claimed once, in due order
// within a shard, and a claim of max returns max while enough are due.
func TestShardsSpread(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	const jobs = 200
	for i := range jobs {
		link(t, s, testJob(i))
	}
	used := 0
	for _, k := range s.SchedKeys() {
		if rdb.ZCard(ctx, k).Val() > 0 {
			used++
		}
	}
	if used < store.Shards {
		t.Fatalf("%d jobs used %d of %d shards", jobs, used, store.Shards)
	}
	seen := map[string]bool{}
	for len(seen) < jobs {
		cs, err := s.Jobs().Claim(ctx, 30, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if want := min(30, jobs-len(seen)); len(cs) != want {
			t.Fatalf("Claim(30) = %d jobs with %d due, want %d", len(cs), jobs-len(seen), want)
		}
		for _, c := range cs {
			if seen[c.JobID] {
				t.Fatalf("%s claimed twice", c.JobID)
			}
			seen[c.JobID] = true
		}
	}
	for i := range 50 {
		enqueue(t, s, work(i))
	}
	taken := claimWork(t, s, time.Hour)
	if len(taken) != 50 {
		t.Fatalf("ClaimWork = %d pieces, want 50", len(taken))
	}
}

// TestLinkConflictAcrossShards checks that a job already linked to a thread
// in one shard cannot be linked to a thread of another shard.
func TestLinkConflictAcrossShards(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	j := testJob(1)
	link(t, s, j)
	other := j
	for i := 0; ; i++ {
		other.Thread.TS = "1800000000." + strconv.Itoa(i)
		if s.SchedKeyOf(other.Thread) != s.SchedKeyOf(j.Thread) {
			break
		}
	}
	if err := s.Jobs().LinkJob(t.Context(), other, 0); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("LinkJob to a thread of another shard = %v, want ErrConflict", err)
	}
	if _, err := s.Jobs().JobByThread(context.Background(), other.Thread); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("JobByThread(other) = %v, want ErrNotFound", err)
	}
}

// TestNextDueAfterClaim checks NextDue right after a Claim that took
// everything due (answered from the claim's reading) and after this Store
// scheduled a job due now (read again).
func TestNextDueAfterClaim(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	link(t, s, testJob(1))
	if err := s.Jobs().LinkJob(ctx, testJob(2), time.Hour); err != nil {
		t.Fatal(err)
	}
	claimOne(t, s, "job-1", 2*time.Hour)
	wait, ok, err := s.Jobs().NextDue(ctx)
	if err != nil || !ok || wait < 59*time.Minute || wait > time.Hour {
		t.Fatalf("NextDue after the claim = %v, %v, %v; want job-2 in about an hour", wait, ok, err)
	}
	link(t, s, testJob(3))
	if wait, ok, err := s.Jobs().NextDue(ctx); err != nil || !ok || wait != 0 {
		t.Fatalf("NextDue after linking a job due now = %v, %v, %v; want 0", wait, ok, err)
	}
}
