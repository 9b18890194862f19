package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

// TestRescheduleTogether: the reschedules of jobs claimed by one script are
// written together once every job of the claim has settled, by a Reschedule
// or by another write (settle.go's table); each gets its own result.
func TestRescheduleTogether(t *testing.T) {
	s := newStore(t, store.WithSettleLinger(time.Hour)) // only the jobs' ends write
	ctx := t.Context()
	shard := s.SchedKeyOf(testJob(0).Thread)
	var jobs []store.Job
	for i := 0; len(jobs) < 4; i++ {
		if j := testJob(i); s.SchedKeyOf(j.Thread) == shard {
			link(t, s, j)
			jobs = append(jobs, j)
		}
	}
	cs, err := s.Jobs().Claim(ctx, 10, time.Minute)
	if err != nil || len(cs) != 4 {
		t.Fatalf("claim: %d claims, %v; want 4", len(cs), err)
	}
	byID := map[string]store.Claim{}
	for _, c := range cs {
		byID[c.JobID] = c
	}
	stale, finished, running, active := byID[jobs[0].ID], byID[jobs[1].ID], byID[jobs[2].ID], byID[jobs[3].ID]
	if _, err := s.Jobs().FollowUp(ctx, store.Job{ID: stale.JobID}, "", time.Hour); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 30*time.Second) // a batch that never writes fails here
	defer cancel()
	results := make(chan error, 3)
	for _, r := range []struct {
		c      store.Claim
		status string
	}{{stale, "active"}, {running, "running"}, {active, "active"}} {
		go func() {
			err := s.Jobs().Reschedule(wait, r.c, r.status, time.Hour)
			if err != nil && !(r.c.JobID == stale.JobID && errors.Is(err, store.ErrStale)) {
				err = errors.Join(errors.New(r.c.JobID), err)
			} else {
				err = nil
			}
			results <- err
		}()
	}
	if _, err := s.Jobs().Finish(ctx, finished, "completed", "", time.Minute); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := <-results; err != nil {
			t.Errorf("reschedule: %v", err)
		}
	}
	if got := mustJob(t, s, running.JobID); got.Status != "running" || got.Polls != 1 {
		t.Errorf("rescheduled job: status %q, polls %d; want running, 1", got.Status, got.Polls)
	}
	if got := mustJob(t, s, stale.JobID); got.Generation != 2 || got.Polls != 0 {
		t.Errorf("followed-up job: generation %d, polls %d; want 2, 0 (the stale reschedule wrote nothing)", got.Generation, got.Polls)
	}
}

// TestRescheduleAlone: a job whose claim-mates never settle is rescheduled
// after the linger, on its own.
func TestRescheduleAlone(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	shard := s.SchedKeyOf(testJob(0).Thread)
	for i, linked := 0, 0; linked < 2; i++ {
		if j := testJob(i); s.SchedKeyOf(j.Thread) == shard {
			link(t, s, j)
			linked++
		}
	}
	cs, err := s.Jobs().Claim(ctx, 10, time.Minute)
	if err != nil || len(cs) != 2 {
		t.Fatalf("claim: %d claims, %v; want 2", len(cs), err)
	}
	if err := s.Jobs().Reschedule(ctx, cs[0], "running", time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := mustJob(t, s, cs[0].JobID); got.Status != "running" {
		t.Errorf("status %q, want running", got.Status)
	}
}
