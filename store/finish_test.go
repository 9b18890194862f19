package store_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

func TestFinishNotifiesOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status string
		pr     string
	}{
		{"completed with a short link", "completed", "https://example.com/pr/1"},
		{"completed with a long link", "completed", "https://github.com/example-organization/example-documentation-repository/pull/123456"},
		{"failed without a link", "failed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			ctx := t.Context()
			j := testJob(1)
			link(t, s, j)
			c := claimOne(t, s, j.ID, time.Minute)
			notify, err := s.Jobs().Finish(ctx, c, tt.status, tt.pr, time.Minute)
			if err != nil || !notify {
				t.Fatalf("Finish = %v, %v; want true", notify, err)
			}
			got := mustJob(t, s, j.ID)
			if got.Status != tt.status || got.PRLink != tt.pr || got.NotifyAttempts != 1 || got.Notified != 0 {
				t.Fatalf("after Finish: status %q pr %q attempts %d notified %d",
					got.Status, got.PRLink, got.NotifyAttempts, got.Notified)
			}
			// Until MarkNotified, the job stays scheduled a lease ahead.
			if !scheduled(t, s, j) || pttl(t, jobKey(s, j)) != -1 {
				t.Fatal("job unscheduled or expiring before its finish was reported")
			}
			if enc, err := rdb.ObjectEncoding(ctx, jobKey(s, j)).Result(); err != nil || enc != "listpack" {
				t.Errorf("record encoding = %q, %v; want listpack", enc, err)
			}
			if err := s.Jobs().MarkNotified(ctx, c); err != nil {
				t.Fatalf("MarkNotified: %v", err)
			}
			if n := tracked(t, s); n != 0 {
				t.Errorf("Tracked = %d, want 0", n)
			}
			for _, key := range []string{jobKey(s, j), threadKey(s, j.Thread)} {
				if d := pttl(t, key); d <= 0 || d > store.Retention {
					t.Errorf("PTTL %s = %v, want within the retention", key, d)
				}
			}
			got = mustJob(t, s, j.ID)
			if got.Notified != 1 {
				t.Errorf("Notified = %d, want 1", got.Notified)
			}
			// A repeated Finish for the same generation does not notify.
			notify, err = s.Jobs().Finish(ctx, c, tt.status, tt.pr, time.Minute)
			if err != nil || notify {
				t.Fatalf("second Finish = %v, %v; want false", notify, err)
			}
			if cs, err := s.Jobs().Claim(ctx, 10, time.Minute); err != nil || len(cs) != 0 {
				t.Fatalf("Claim after the report = %v, %v; want none", ids(cs), err)
			}
		})
	}
}

func TestCrashBetweenFinishAndMarkNotified(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	j := testJob(1)
	link(t, s, j)
	const lease = 50 * time.Millisecond
	const pr = "https://example.com/pr/7"

	c1 := claimOne(t, s, j.ID, time.Minute)
	notify, err := s.Jobs().Finish(ctx, c1, "completed", pr, lease)
	if err != nil || !notify {
		t.Fatalf("Finish = %v, %v; want true", notify, err)
	}
	// The replica dies before MarkNotified; another one claims the job once
	// the lease runs out.
	var c2 store.Claim
	redistest.Until(t, "the re-claim after the lease", func() bool {
		cs, err := s.Jobs().Claim(ctx, 10, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 1 {
			c2 = cs[0]
		}
		return len(cs) == 1
	})
	if c2.Job.NotifyAttempts != 1 || c2.Job.Status != "completed" || c2.Job.PRLink != pr {
		t.Fatalf("re-claimed snapshot: attempts %d status %q pr %q", c2.Job.NotifyAttempts, c2.Job.Status, c2.Job.PRLink)
	}
	notify, err = s.Jobs().Finish(ctx, c2, "completed", pr, time.Minute)
	if err != nil || !notify {
		t.Fatalf("Finish after the re-claim = %v, %v; want true", notify, err)
	}
	if got := mustJob(t, s, j.ID); got.NotifyAttempts != 2 {
		t.Fatalf("NotifyAttempts = %d, want 2", got.NotifyAttempts)
	}
	// The dead replica's claim can no longer report.
	if err := s.Jobs().MarkNotified(ctx, c1); err != nil {
		t.Fatalf("MarkNotified with the stale claim: %v", err)
	}
	if !scheduled(t, s, j) {
		t.Fatal("stale MarkNotified unscheduled the job")
	}
	if err := s.Jobs().MarkNotified(ctx, c2); err != nil {
		t.Fatal(err)
	}
	if scheduled(t, s, j) || pttl(t, jobKey(s, j)) <= 0 {
		t.Fatal("job still tracked after MarkNotified")
	}
}

func TestUntrack(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	j := testJob(1)
	link(t, s, j)
	c := claimOne(t, s, j.ID, time.Minute)
	if err := s.Jobs().Untrack(ctx, c, "gone"); err != nil {
		t.Fatal(err)
	}
	got := mustJob(t, s, j.ID)
	if got.Status != "gone" || scheduled(t, s, j) {
		t.Fatalf("after Untrack: status %q scheduled %v", got.Status, scheduled(t, s, j))
	}
	if pttl(t, jobKey(s, j)) <= 0 || pttl(t, threadKey(s, j.Thread)) <= 0 {
		t.Fatal("no expiry after Untrack")
	}
}

// TestRetentionExpiry checks that a reported job's record and thread link
// expire together after the retention period, and that the store then no
// longer knows the job. Redis's clock cannot be moved a month on: the test
// checks that both keys carry the retention, then brings forward only
// expiries that are set (PEXPIRE XX) and looks at what their end leaves.
func TestRetentionExpiry(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	j := testJob(1)
	link(t, s, j)
	c := claimOne(t, s, j.ID, time.Minute)
	if notify, err := s.Jobs().Finish(ctx, c, "completed", "", time.Minute); err != nil || !notify {
		t.Fatalf("Finish = %v, %v", notify, err)
	}
	if err := s.Jobs().MarkNotified(ctx, c); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{jobKey(s, j), threadKey(s, j.Thread)} {
		if d := pttl(t, key); d <= store.Retention-time.Minute || d > store.Retention {
			t.Fatalf("PTTL %s = %v, want the retention, %v", key, d, store.Retention)
		}
		if set, err := rdb.Do(ctx, "PEXPIRE", key, 1, "XX").Bool(); err != nil || !set {
			t.Fatalf("PEXPIRE %s 1 XX = %v, %v", key, set, err)
		}
	}
	redistest.Until(t, "record and link to expire", func() bool {
		_, errJob := s.Jobs().Job(ctx, j.ID)
		_, errThread := s.Jobs().JobByThread(ctx, j.Thread)
		return errors.Is(errJob, store.ErrNotFound) && errors.Is(errThread, store.ErrNotFound)
	})
	if _, err := s.Jobs().FollowUp(ctx, j, "", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("FollowUp of an expired job: %v, want ErrNotFound", err)
	}
}

func TestTrackedCounts(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	steps := []struct {
		name string
		do   func() error
		want int64
		// scheduled lists the jobs in the schedule afterwards (Scheduled).
		scheduled string
	}{
		{"empty", func() error { return nil }, 0, ""},
		{"link three", func() error {
			for i := range 3 {
				if err := s.Jobs().LinkJob(ctx, testJob(i), 0); err != nil {
					return err
				}
			}
			return nil
		}, 3, "012"},
		{"finish one, not yet reported", func() error {
			return withClaim(ctx, s, testJob(0), func(c store.Claim) error {
				_, err := s.Jobs().Finish(ctx, c, "completed", "", time.Minute)
				return err
			})
		}, 3, "012"},
		{"report it", func() error {
			return withClaim(ctx, s, testJob(1), func(c store.Claim) error {
				if _, err := s.Jobs().Finish(ctx, c, "completed", "", time.Minute); err != nil {
					return err
				}
				return s.Jobs().MarkNotified(ctx, c)
			})
		}, 2, "02"},
		{"untrack one", func() error {
			return withClaim(ctx, s, testJob(2), func(c store.Claim) error { return s.Jobs().Untrack(ctx, c, "gone") })
		}, 1, "0"},
		{"follow up the reported one", func() error {
			_, err := s.Jobs().FollowUp(ctx, store.Job{ID: "job-1"}, "", time.Hour)
			return err
		}, 2, "01"},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if n := tracked(t, s); n != st.want {
			t.Fatalf("%s: Tracked = %d, want %d", st.name, n, st.want)
		}
		for i := range 3 {
			id := testJob(i).ID
			got, err := s.Jobs().Scheduled(ctx, id)
			if want := strings.Contains(st.scheduled, strconv.Itoa(i)); err != nil || got != want {
				t.Errorf("%s: Scheduled(%s) = %t, %v; want %t", st.name, id, got, err, want)
			}
		}
	}
}

// withClaim makes job j due, claims it and runs fn with the claim.
func withClaim(ctx context.Context, s *store.Store, j store.Job, fn func(store.Claim) error) error {
	id := j.ID
	if err := rdb.ZAdd(ctx, s.SchedKeyOf(j.Thread), redis.Z{Score: 0, Member: id}).Err(); err != nil {
		return err
	}
	s.ForgetHeads()
	cs, err := s.Jobs().Claim(ctx, 100, time.Minute)
	if err != nil {
		return err
	}
	for _, c := range cs {
		if c.JobID == id {
			return fn(c)
		}
	}
	return errors.New("job " + id + " not claimed")
}
