package store_test

import (
	"slices"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

// jobIDs lists the ids of jobs.
func jobIDs(js []store.Job) []string {
	out := make([]string, len(js))
	for i, j := range js {
		out[i] = j.ID
	}
	return out
}

func TestJobLists(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	base := time.UnixMilli(1732233445000)
	// Three jobs by U0001 in C0001, one by U0002 in C0002, oldest first.
	for i := range 4 {
		j := testJob(i)
		j.CreatedAt = base.Add(time.Duration(i) * time.Minute)
		if i == 3 {
			j.Requester, j.Thread.Channel = "U0002", "C0002"
		}
		if i == 2 {
			j.Root = "1732233999.000001"
		}
		due := time.Hour // only job-0 is due: the one finished below
		if i == 0 {
			due = 0
		}
		if err := s.Jobs().LinkJob(ctx, j, due); err != nil {
			t.Fatal(err)
		}
	}

	tests := []struct {
		name string
		got  func() ([]store.Job, error)
		want []string
	}{
		{"recent, newest first", func() ([]store.Job, error) { return s.Jobs().RecentJobs(ctx, "T0001", "U0001", 10) }, []string{"job-2", "job-1", "job-0"}},
		{"recent, capped", func() ([]store.Job, error) { return s.Jobs().RecentJobs(ctx, "T0001", "U0001", 2) }, []string{"job-2", "job-1"}},
		{"recent of another person", func() ([]store.Job, error) { return s.Jobs().RecentJobs(ctx, "T0001", "U0002", 10) }, []string{"job-3"}},
		{"recent in another team", func() ([]store.Job, error) { return s.Jobs().RecentJobs(ctx, "T0002", "U0001", 10) }, nil},
		{"running in a channel", func() ([]store.Job, error) { return s.Jobs().RunningJobs(ctx, "T0001", "C0001", 10) }, []string{"job-2", "job-1", "job-0"}},
	}
	for _, tt := range tests {
		got, err := tt.got()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !slices.Equal(jobIDs(got), tt.want) {
			t.Errorf("%s = %v, want %v", tt.name, jobIDs(got), tt.want)
		}
	}
	if j := mustJob(t, s, "job-2"); j.Root != "1732233999.000001" {
		t.Errorf("job-2's root = %q, want the one linked", j.Root)
	}

	// A finish takes the job off the channel's running list, not off the
	// person's recent jobs; a follow-up puts it back.
	c := claimOne(t, s, "job-0", time.Minute)
	if _, err := s.Jobs().Finish(ctx, c, "completed", "https://github.com/acme/docs/pull/1", time.Minute); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	running, err := s.Jobs().RunningJobs(ctx, "T0001", "C0001", 10)
	if err != nil || !slices.Equal(jobIDs(running), []string{"job-2", "job-1"}) {
		t.Errorf("running after a finish = %v, %v; want job-2, job-1", jobIDs(running), err)
	}
	recent, err := s.Jobs().RecentJobs(ctx, "T0001", "U0001", 10)
	if err != nil || len(recent) != 3 || recent[2].PRLink == "" || recent[2].Status != "completed" {
		t.Errorf("recent after a finish = %+v, %v; want 3 jobs, job-0 completed with its PR", recent, err)
	}
	// With the record in hand: its thread names the shard, and on one
	// server the script writes the lists (store.Job{ID: id} alone: after it).
	if _, err := s.Jobs().FollowUp(ctx, *mustJob(t, s, "job-0"), "", time.Hour); err != nil {
		t.Fatalf("FollowUp: %v", err)
	}
	running, err = s.Jobs().RunningJobs(ctx, "T0001", "C0001", 10)
	if err != nil || !slices.Equal(jobIDs(running), []string{"job-2", "job-1", "job-0"}) {
		t.Errorf("running after a follow-up = %v, %v; want all three", jobIDs(running), err)
	}
}

func TestRecentJobsKeepsTheLatest(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	base := time.UnixMilli(1732233445000)
	for i := range store.RecentKeep + 5 {
		j := testJob(i)
		j.CreatedAt = base.Add(time.Duration(i) * time.Second)
		link(t, s, j)
	}
	got, err := s.Jobs().RecentJobs(t.Context(), "T0001", "U0001", 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != store.RecentKeep || got[0].ID != testJob(store.RecentKeep+4).ID {
		t.Errorf("recent = %v, want the newest %d", jobIDs(got), store.RecentKeep)
	}
}

// TestJobListsTrimmedHourly: a replica trims a job list at its first write
// and then once an hour (listTrimEvery), its writes in between only adding
// to it; another replica trims it at its own first write; the readers give
// the newest ids, at most RecentKeep of a person's.
func TestJobListsTrimmedHourly(t *testing.T) {
	t.Parallel()
	prefix := testPrefix(t)
	s := store.New(rdb, store.WithPrefix(prefix))
	ctx := t.Context()
	base := time.UnixMilli(1732233445000)
	for i := range store.RecentKeep + 5 {
		j := testJob(i)
		j.CreatedAt = base.Add(time.Duration(i) * time.Second)
		link(t, s, j)
	}
	key := s.RecentKeyOf("T0001", "U0001")
	if n, err := rdb.ZCard(ctx, key).Result(); err != nil || n != store.RecentKeep+5 {
		t.Errorf("a person's list after %d links of one replica: %d, %v; want them all (trimmed at the first only)", store.RecentKeep+5, n, err)
	}
	if ttl := pttl(t, key); ttl <= 0 {
		t.Errorf("a person's list has no expiry (%v)", ttl)
	}
	got, err := s.Jobs().RecentJobs(ctx, "T0001", "U0001", 100)
	if err != nil || len(got) != store.RecentKeep || got[0].ID != testJob(store.RecentKeep+4).ID {
		t.Errorf("recent = %v, %v; want the newest %d", jobIDs(got), err, store.RecentKeep)
	}
	other := store.New(rdb, store.WithPrefix(prefix))
	j := testJob(store.RecentKeep + 5)
	j.CreatedAt = base.Add(time.Hour)
	link(t, other, j)
	if n, err := rdb.ZCard(ctx, key).Result(); err != nil || n != store.RecentKeep {
		t.Errorf("a person's list after another replica's first link: %d, %v; want %d", n, err, store.RecentKeep)
	}
}
