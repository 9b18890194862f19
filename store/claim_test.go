package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

func TestClaimExclusive(t *testing.T) {
	t.Parallel()
	const jobs, replicas = 200, 4
	prefix := testPrefix(t)
	setup := store.New(rdb, store.WithPrefix(prefix))
	for i := range jobs {
		link(t, setup, testJob(i))
	}

	counts := claimConcurrently(t, prefix, replicas, func(s *store.Store) ([]string, error) {
		cs, err := s.Jobs().Claim(context.Background(), 7, time.Minute)
		return ids(cs), err
	})
	if len(counts) != jobs {
		t.Fatalf("claimed %d distinct jobs, want %d", len(counts), jobs)
	}
	for id, n := range counts {
		if n != 1 {
			t.Errorf("job %s claimed %d times within one lease", id, n)
		}
	}
	if n := tracked(t, setup); n != jobs {
		t.Errorf("Tracked = %d, want %d", n, jobs)
	}
	wait, ok, err := setup.Jobs().NextDue(t.Context())
	if err != nil || !ok || wait < 50*time.Second {
		t.Errorf("NextDue = %v, %v, %v; want about a lease", wait, ok, err)
	}
}

func TestClaimLimit(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	// job-0 and job-2 are due (a negative delay counts as now); job-1 is not
	// due for an hour.
	firstPoll := []time.Duration{0, time.Hour, -time.Second}
	for i, d := range firstPoll {
		if err := s.Jobs().LinkJob(ctx, testJob(i), d); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := s.Jobs().Claim(ctx, 1, time.Minute)
	if err != nil || len(cs) != 1 {
		t.Fatalf("Claim(1) = %v, %v", ids(cs), err)
	}
	rest, err := s.Jobs().Claim(ctx, 10, time.Minute)
	if err != nil || len(rest) != 1 {
		t.Fatalf("Claim(10) = %v, %v", ids(rest), err)
	}
	got := map[string]bool{cs[0].JobID: true, rest[0].JobID: true}
	if !got["job-0"] || !got["job-2"] {
		t.Fatalf("claimed %v and %v, want job-0 and job-2", ids(cs), ids(rest))
	}
	if cs, err := s.Jobs().Claim(ctx, 0, time.Minute); err != nil || len(cs) != 0 {
		t.Fatalf("Claim(0) = %v, %v", ids(cs), err)
	}
	if _, err := s.Jobs().Claim(ctx, 1, 0); err == nil {
		t.Fatal("Claim with a zero lease succeeded")
	}
}

func TestClaimEarliestFirst(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	for i := range 3 {
		link(t, s, testJob(i))
	}
	// Make job-1 the most overdue by rescheduling the others later.
	all, err := s.Jobs().Claim(ctx, 10, time.Minute)
	if err != nil || len(all) != 3 {
		t.Fatalf("Claim = %v, %v", ids(all), err)
	}
	for _, c := range all {
		in := time.Duration(0)
		if c.JobID != "job-1" {
			in = 30 * time.Millisecond
		}
		if err := s.Jobs().Reschedule(ctx, c, "active", in); err != nil {
			t.Fatal(err)
		}
	}
	first, err := s.Jobs().Claim(ctx, 1, time.Minute)
	if err != nil || len(first) != 1 || first[0].JobID != "job-1" {
		t.Fatalf("Claim(1) = %v, %v; want job-1", ids(first), err)
	}
}

func TestLeaseExpiry(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	j := testJob(1)
	link(t, s, j)
	// Long enough that the second claim comes within it on a busy machine.
	const lease = time.Second
	c1 := claimOne(t, s, j.ID, lease)
	if cs, err := s.Jobs().Claim(ctx, 10, lease); err != nil || len(cs) != 0 {
		t.Fatalf("second Claim within the lease = %v, %v; want none", ids(cs), err)
	}
	// The replica holding c1 "dies"; the job comes due when the lease runs out.
	var c2 store.Claim
	redistest.Until(t, "the job to be claimable again", func() bool {
		cs, err := s.Jobs().Claim(ctx, 10, time.Minute)
		if err != nil {
			t.Fatalf("Claim: %v", err)
		}
		if len(cs) == 1 {
			c2 = cs[0]
			return true
		}
		return false
	})
	if c2.JobID != j.ID || c2.Token <= c1.Token {
		t.Fatalf("re-claim = %s token %d, first token %d", c2.JobID, c2.Token, c1.Token)
	}
	if err := s.Jobs().Reschedule(ctx, c1, "active", 0); !errors.Is(err, store.ErrStale) {
		t.Fatalf("Reschedule with the expired claim: %v, want ErrStale", err)
	}
	if err := s.Jobs().Reschedule(ctx, c2, "active", time.Hour); err != nil {
		t.Fatalf("Reschedule with the current claim: %v", err)
	}
}

func TestFencingAfterReclaim(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		write func(ctx context.Context, s *store.Store, c store.Claim) error
	}{
		{"Reschedule", func(ctx context.Context, s *store.Store, c store.Claim) error {
			return s.Jobs().Reschedule(ctx, c, "active", 0)
		}},
		{"Finish", func(ctx context.Context, s *store.Store, c store.Claim) error {
			_, err := s.Jobs().Finish(ctx, c, "completed", "https://example.com/pr/1", time.Minute)
			return err
		}},
		{"Untrack", func(ctx context.Context, s *store.Store, c store.Claim) error {
			return s.Jobs().Untrack(ctx, c, "gone")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			ctx := t.Context()
			j := testJob(1)
			link(t, s, j)
			old := claimOne(t, s, j.ID, time.Millisecond)
			var cur store.Claim
			redistest.Until(t, "the re-claim", func() bool {
				cs, err := s.Jobs().Claim(ctx, 1, time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				if len(cs) == 1 {
					cur = cs[0]
				}
				return len(cs) == 1
			})
			if err := tt.write(ctx, s, old); !errors.Is(err, store.ErrStale) {
				t.Fatalf("write with the old claim: err = %v, want ErrStale", err)
			}
			got := mustJob(t, s, j.ID)
			if got.Status != "active" || got.PRLink != "" || got.Polls != 2 || !scheduled(t, s, j) { // two claims
				t.Fatalf("stale write changed the job: %+v", got)
			}
			if err := tt.write(ctx, s, cur); err != nil {
				t.Fatalf("write with the current claim: %v", err)
			}
		})
	}
}

func TestRelease(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	for i := range 4 {
		link(t, s, testJob(i))
	}
	cs, err := s.Jobs().Claim(ctx, 10, time.Hour)
	if err != nil || len(cs) != 4 {
		t.Fatalf("Claim = %v, %v", ids(cs), err)
	}
	if wait, ok, err := s.Jobs().NextDue(ctx); err != nil || !ok || wait < 59*time.Minute {
		t.Fatalf("NextDue = %v, %v, %v; want about the lease", wait, ok, err)
	}
	// job-3 was untracked with its claim: releasing must not bring it back.
	var untracked store.Claim
	for _, c := range cs {
		if c.JobID == "job-3" {
			untracked = c
		}
	}
	if err := s.Jobs().Untrack(ctx, untracked, "gone"); err != nil {
		t.Fatal(err)
	}
	if err := s.Jobs().Release(ctx, cs, 0); err != nil {
		t.Fatalf("Release: %v", err)
	}
	if err := s.Jobs().Release(ctx, nil, 0); err != nil {
		t.Fatalf("Release(nil): %v", err)
	}
	if wait, ok, err := s.Jobs().NextDue(ctx); err != nil || !ok || wait != 0 {
		t.Fatalf("NextDue after Release = %v, %v, %v; want 0, true", wait, ok, err)
	}
	again, err := s.Jobs().Claim(ctx, 10, time.Hour)
	if err != nil || len(again) != 3 {
		t.Fatalf("Claim after Release = %v, %v; want the 3 tracked jobs", ids(again), err)
	}
	for _, c := range cs {
		if c.JobID == "job-3" {
			continue
		}
		if err := s.Jobs().Reschedule(ctx, c, "active", 0); !errors.Is(err, store.ErrStale) {
			t.Errorf("late write of released claim %s: %v, want ErrStale", c.JobID, err)
		}
	}
	// Releasing claims that are no longer current changes nothing.
	if err := s.Jobs().Release(ctx, cs, 0); err != nil {
		t.Fatal(err)
	}
	if wait, ok, err := s.Jobs().NextDue(ctx); err != nil || !ok || wait < 59*time.Minute {
		t.Fatalf("NextDue after stale Release = %v, %v, %v", wait, ok, err)
	}
}

func TestNextDue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		firstPoll []time.Duration
		ok        bool
		min, max  time.Duration
	}{
		{"empty", nil, false, 0, 0},
		{"overdue", []time.Duration{-time.Minute}, true, 0, 0},
		{"earliest wins", []time.Duration{2 * time.Hour, time.Hour}, true, 59 * time.Minute, time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			for i, d := range tt.firstPoll {
				if err := s.Jobs().LinkJob(t.Context(), testJob(i), d); err != nil {
					t.Fatal(err)
				}
			}
			wait, ok, err := s.Jobs().NextDue(t.Context())
			if err != nil || ok != tt.ok || wait < tt.min || wait > tt.max {
				t.Fatalf("NextDue = %v, %v, %v; want ok=%v within [%v, %v]", wait, ok, err, tt.ok, tt.min, tt.max)
			}
		})
	}
}

func TestClaimDropsOrphans(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	for i := range 3 {
		link(t, s, testJob(i))
	}
	// job-1's record vanished (deleted by an operator, or expired).
	if err := rdb.Del(ctx, jobKey(s, testJob(1))).Err(); err != nil {
		t.Fatal(err)
	}
	cs, err := s.Jobs().Claim(ctx, 2, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].JobID == "job-1" || cs[1].JobID == "job-1" {
		t.Fatalf("Claim(2) = %v, want job-0 and job-2", ids(cs))
	}
	if n := tracked(t, s); n != 2 {
		t.Fatalf("Tracked = %d, want 2", n)
	}
	if err := rdb.ZScore(ctx, s.SchedKeyOf(testJob(1).Thread), "job-1").Err(); !errors.Is(err, redis.Nil) {
		t.Fatalf("orphan still scheduled: %v", err)
	}
}

// TestClaimReportsLateness checks that a claim says how long after its due
// time it was taken: the poll lag the bot reports.
func TestClaimReportsLateness(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	link(t, s, testJob(0)) // due at once
	const waited = 40 * time.Millisecond
	time.Sleep(waited)
	cs, err := s.Jobs().Claim(ctx, 1, time.Minute)
	if err != nil || len(cs) != 1 {
		t.Fatalf("Claim = %v, %v", ids(cs), err)
	}
	if cs[0].Late < waited {
		t.Errorf("Late = %v, want at least the %v the job waited past its due time", cs[0].Late, waited)
	}
}

// TestReleaseAfter hands claims back due later, as a shutdown that cut a
// request short does: nothing is claimable before the wait, and late
// writes of the released claims are stale at once.
func TestReleaseAfter(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newStore(t)
	link(t, s, testJob(1))
	cs, err := s.Jobs().Claim(ctx, 10, time.Hour)
	if err != nil || len(cs) != 1 {
		t.Fatalf("Claim = %v, %v", ids(cs), err)
	}
	if err := s.Jobs().Release(ctx, cs, time.Hour); err != nil {
		t.Fatalf("Release: %v", err)
	}
	if wait, ok, err := s.Jobs().NextDue(ctx); err != nil || !ok || wait < 59*time.Minute || wait > time.Hour {
		t.Fatalf("NextDue after Release(1h) = %v, %v, %v; want about an hour", wait, ok, err)
	}
	if again, err := s.Jobs().Claim(ctx, 10, time.Hour); err != nil || len(again) != 0 {
		t.Fatalf("Claim before the wait = %v, %v; want none", ids(again), err)
	}
	if err := s.Jobs().Reschedule(ctx, cs[0], "active", 0); !errors.Is(err, store.ErrStale) {
		t.Errorf("late write of the released claim: %v, want ErrStale", err)
	}
}

// TestRescheduleByClaimClock: a Reschedule reads no TIME but takes the
// claim's Redis clock on by this replica's: the job comes due `in` after a
// time between the claim and the reschedule, by the Redis clock.
func TestRescheduleByClaimClock(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	j := testJob(1)
	link(t, s, j)
	redisMs := func() int64 {
		now, err := rdb.Time(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		return now.UnixMilli()
	}
	before := redisMs()
	c := claimOne(t, s, j.ID, time.Minute)
	const in = time.Hour
	if err := s.Jobs().Reschedule(ctx, c, "active", in); err != nil {
		t.Fatal(err)
	}
	after := redisMs()
	due, err := rdb.ZScore(ctx, s.SchedKeyOf(j.Thread), j.ID).Result()
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := before+in.Milliseconds(), after+in.Milliseconds(); int64(due) < lo || int64(due) > hi {
		t.Errorf("due at %d, want within [%d, %d]", int64(due), lo, hi)
	}
	if got := mustJob(t, s, j.ID); got.Polls != 1 {
		t.Errorf("polls %d after the reschedule, want 1", got.Polls)
	}
}
