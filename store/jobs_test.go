package store_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/docsbot/docsbot/store"
)

func TestLinkAndLookup(t *testing.T) {
	t.Parallel()
	created := time.UnixMilli(1732233445123)
	tests := []struct {
		name       string
		job        store.Job
		wantPrompt string
		wantStatus string
	}{
		{
			name:       "short prompt",
			job:        store.Job{ID: "a1", Thread: store.Thread{Team: "T1", Channel: "C1", TS: "1.1"}, Requester: "U1", Prompt: "fix typo", Status: "active"},
			wantPrompt: "fix typo",
			wantStatus: "active",
		},
		{
			name:       "empty status becomes active, created time kept",
			job:        store.Job{ID: "a2", Thread: store.Thread{Team: "T1", Channel: "C1", TS: "1.2"}, Requester: "U1", Prompt: "x", CreatedAt: created},
			wantPrompt: "x",
			wantStatus: "active",
		},
		{
			name:       "origin, seen, model, branch and project kept",
			job:        store.Job{ID: "a5", Thread: store.Thread{Team: "T1", Channel: "C1", TS: "1.5"}, Prompt: "x", Origin: "1.0", Seen: "1.2", Model: "claude-sonnet-4", Branch: "docs/quickstart", Project: "api"},
			wantPrompt: "x",
			wantStatus: "active",
		},
		{
			name:       "long ascii prompt truncated to 300 runes",
			job:        store.Job{ID: "a3", Thread: store.Thread{Team: "T1", Channel: "C1", TS: "1.3"}, Prompt: strings.Repeat("abcdefghij", 50), Status: "active"},
			wantPrompt: strings.Repeat("abcdefghij", 30),
			wantStatus: "active",
		},
		{
			name:       "multi-byte prompt truncated by runes",
			job:        store.Job{ID: "a4", Thread: store.Thread{Team: "T1", Channel: "C1", TS: "1.4"}, Prompt: strings.Repeat("ドキュメント更新😀", 40), Status: "queued"},
			wantPrompt: string([]rune(strings.Repeat("ドキュメント更新😀", 40))[:300]),
			wantStatus: "queued",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			ctx := t.Context()
			if err := s.Jobs().LinkJob(ctx, tt.job, time.Hour); err != nil {
				t.Fatalf("LinkJob: %v", err)
			}
			byThread, err := s.Jobs().JobByThread(ctx, tt.job.Thread)
			if err != nil {
				t.Fatalf("JobByThread: %v", err)
			}
			byID := mustJob(t, s, tt.job.ID)
			for _, j := range []*store.Job{byThread, byID} {
				if j.ID != tt.job.ID || j.Thread != tt.job.Thread || j.Requester != tt.job.Requester {
					t.Errorf("identity = %s %v %q, want %s %v %q", j.ID, j.Thread, j.Requester, tt.job.ID, tt.job.Thread, tt.job.Requester)
				}
				if j.Prompt != tt.wantPrompt {
					t.Errorf("Prompt = %q (%d runes), want %q", j.Prompt, utf8.RuneCountInString(j.Prompt), tt.wantPrompt)
				}
				if j.Status != tt.wantStatus {
					t.Errorf("Status = %q, want %q", j.Status, tt.wantStatus)
				}
				if j.Generation != 1 || j.Notified != 0 || j.NotifyAttempts != 0 || j.Polls != 0 || j.PRLink != "" {
					t.Errorf("counters = gen %d notified %d attempts %d polls %d pr %q, want 1 0 0 0 \"\"",
						j.Generation, j.Notified, j.NotifyAttempts, j.Polls, j.PRLink)
				}
				if !tt.job.CreatedAt.IsZero() && !j.CreatedAt.Equal(tt.job.CreatedAt) {
					t.Errorf("CreatedAt = %v, want %v", j.CreatedAt, tt.job.CreatedAt)
				}
				if j.Seen != tt.job.Seen {
					t.Errorf("Seen = %q, want %q", j.Seen, tt.job.Seen)
				}
				if j.Origin != tt.job.Origin || j.Model != tt.job.Model || j.Branch != tt.job.Branch || j.Project != tt.job.Project {
					t.Errorf("origin, model, branch, project = %q %q %q %q, want %q %q %q %q", j.Origin, j.Model, j.Branch, j.Project, tt.job.Origin, tt.job.Model, tt.job.Branch, tt.job.Project)
				}
				if !j.RunStarted.Equal(j.CreatedAt) {
					t.Errorf("RunStarted = %v, want CreatedAt %v for the first run", j.RunStarted, j.CreatedAt)
				}
				if j.CreatedAt.IsZero() || j.UpdatedAt.IsZero() {
					t.Errorf("times not set: created %v updated %v", j.CreatedAt, j.UpdatedAt)
				}
			}
			enc, err := rdb.ObjectEncoding(ctx, jobKey(s, tt.job)).Result()
			if err != nil {
				t.Fatalf("OBJECT ENCODING: %v", err)
			}
			if enc != "listpack" {
				t.Errorf("record encoding = %s, want listpack", enc)
			}
			if n := tracked(t, s); n != 1 {
				t.Errorf("Tracked = %d, want 1", n)
			}
			wait, ok, err := s.Jobs().NextDue(ctx)
			if err != nil || !ok || wait <= 59*time.Minute || wait > time.Hour {
				t.Errorf("NextDue = %v, %v, %v; want about 1h", wait, ok, err)
			}
		})
	}
}

func TestLinkJobIdempotent(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	j := testJob(1)
	link(t, s, j)
	c := claimOne(t, s, j.ID, time.Minute)
	if err := s.Jobs().Reschedule(ctx, c, "active", time.Minute); err != nil {
		t.Fatalf("Reschedule: %v", err)
	}
	// A redelivered event links the same job again: nothing changes.
	link(t, s, j)
	got := mustJob(t, s, j.ID)
	if got.Polls != 1 || got.Generation != 1 {
		t.Fatalf("after second LinkJob: polls %d gen %d, want 1 1", got.Polls, got.Generation)
	}
	if err := s.Jobs().Reschedule(ctx, c, "active", time.Minute); err != nil {
		t.Fatalf("claim stale after idempotent LinkJob: %v", err)
	}
	if n := tracked(t, s); n != 1 {
		t.Fatalf("Tracked = %d, want 1", n)
	}
}

func TestLinkJobErrors(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	base := testJob(1)
	link(t, s, base)

	otherID := base
	otherID.ID = "job-other"
	otherThread := base
	otherThread.Thread.TS = "9999.000001"
	noID := base
	noID.ID = ""
	noTS := testJob(2)
	noTS.Thread.TS = ""

	tests := []struct {
		name     string
		job      store.Job
		conflict bool
	}{
		{"thread linked to another job", otherID, true},
		{"job linked to another thread", otherThread, true},
		{"empty id", noID, false},
		{"incomplete thread", noTS, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Jobs().LinkJob(ctx, tt.job, 0)
			if err == nil {
				t.Fatal("LinkJob succeeded")
			}
			if got := errors.Is(err, store.ErrConflict); got != tt.conflict {
				t.Fatalf("errors.Is(%v, ErrConflict) = %v, want %v", err, got, tt.conflict)
			}
		})
	}
	// The original link is untouched.
	got, err := s.Jobs().JobByThread(ctx, base.Thread)
	if err != nil || got.ID != base.ID {
		t.Fatalf("JobByThread = %v, %v; want %s", got, err, base.ID)
	}
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	link(t, s, testJob(1))
	c := claimOne(t, s, "job-1", time.Minute)
	if err := rdb.Del(ctx, jobKey(s, testJob(1))).Err(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		call func() error
	}{
		{"JobByThread", func() error {
			_, err := s.Jobs().JobByThread(ctx, store.Thread{Team: "T", Channel: "C", TS: "0"})
			return err
		}},
		{"JobByThread dangling link", func() error { _, err := s.Jobs().JobByThread(ctx, testJob(1).Thread); return err }},
		{"Job", func() error { _, err := s.Jobs().Job(ctx, "nope"); return err }},
		{"FollowUp", func() error { _, err := s.Jobs().FollowUp(ctx, store.Job{ID: "nope"}, "", 0); return err }},
		{"Reschedule", func() error { return s.Jobs().Reschedule(ctx, c, "active", 0) }},
		{"Finish", func() error { _, err := s.Jobs().Finish(ctx, c, "completed", "", time.Minute); return err }},
		{"MarkNotified", func() error { return s.Jobs().MarkNotified(ctx, c) }},
		{"Untrack", func() error { return s.Jobs().Untrack(ctx, c, "gone") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("err = %v, want ErrNotFound", err)
			}
		})
	}
}

func TestFollowUpAfterFinish(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	j := testJob(1)
	link(t, s, j)
	const pr = "https://github.com/example-organization/example-documentation-repository/pull/4242"

	// Generation 1 runs, finishes and is reported.
	c1 := claimOne(t, s, j.ID, time.Minute)
	if err := s.Jobs().Reschedule(ctx, c1, "active", 0); err != nil {
		t.Fatal(err)
	}
	c1 = claimOne(t, s, j.ID, time.Minute)
	if c1.Job.Polls != 2 {
		t.Fatalf("Polls = %d, want 2 (each claim counts)", c1.Job.Polls)
	}
	notify, err := s.Jobs().Finish(ctx, c1, "completed", pr, time.Minute)
	if err != nil || !notify {
		t.Fatalf("Finish = %v, %v; want true", notify, err)
	}
	if err := s.Jobs().MarkNotified(ctx, c1); err != nil {
		t.Fatal(err)
	}
	if pttl(t, jobKey(s, j)) <= 0 || pttl(t, threadKey(s, j.Thread)) <= 0 {
		t.Fatal("no expiry after the finish was reported")
	}

	// A follow-up restarts it.
	got, err := s.Jobs().FollowUp(ctx, j, "", 0)
	if err != nil {
		t.Fatalf("FollowUp: %v", err)
	}
	if got.Generation != 2 || got.Status != "active" || got.PRLink != "" || got.Polls != 0 ||
		got.NotifyAttempts != 0 || got.Notified != 1 || got.Prompt != j.Prompt || got.Thread != j.Thread {
		t.Fatalf("after FollowUp: %+v", got)
	}
	if !got.RunStarted.Equal(got.UpdatedAt) {
		t.Errorf("RunStarted = %v, want the follow-up's time %v", got.RunStarted, got.UpdatedAt)
	}
	if d := pttl(t, jobKey(s, j)); d != -1 {
		t.Errorf("record PTTL = %v, want none", d)
	}
	if d := pttl(t, threadKey(s, j.Thread)); d != -1 {
		t.Errorf("link PTTL = %v, want none", d)
	}
	if n := tracked(t, s); n != 1 {
		t.Fatalf("Tracked = %d, want 1", n)
	}
	if byThread, err := s.Jobs().JobByThread(ctx, j.Thread); err != nil || byThread.Generation != 2 {
		t.Fatalf("JobByThread = %v, %v", byThread, err)
	}

	// Generation 2 finishes and is reported once.
	c2 := claimOne(t, s, j.ID, time.Minute)
	if c2.Job.Generation != 2 {
		t.Fatalf("claimed generation %d, want 2", c2.Job.Generation)
	}
	notify, err = s.Jobs().Finish(ctx, c2, "completed", pr+"0", time.Minute)
	if err != nil || !notify {
		t.Fatalf("Finish gen 2 = %v, %v; want true", notify, err)
	}
	if err := s.Jobs().MarkNotified(ctx, c2); err != nil {
		t.Fatal(err)
	}
	notify, err = s.Jobs().Finish(ctx, c2, "completed", pr+"0", time.Minute)
	if err != nil || notify {
		t.Fatalf("second Finish gen 2 = %v, %v; want false", notify, err)
	}
	final := mustJob(t, s, j.ID)
	if final.Notified != 2 || final.NotifyAttempts != 1 || final.PRLink != pr+"0" {
		t.Fatalf("final: notified %d attempts %d pr %q", final.Notified, final.NotifyAttempts, final.PRLink)
	}
	if n := tracked(t, s); n != 0 {
		t.Fatalf("Tracked = %d, want 0", n)
	}
}

func TestFollowUpDuringClaim(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// stale is a write of the in-flight claim after the follow-up.
		stale func(ctx context.Context, s *store.Store, c store.Claim) error
	}{
		{"Reschedule", func(ctx context.Context, s *store.Store, c store.Claim) error {
			return s.Jobs().Reschedule(ctx, c, "active", time.Second)
		}},
		{"Finish", func(ctx context.Context, s *store.Store, c store.Claim) error {
			_, err := s.Jobs().Finish(ctx, c, "completed", "", time.Minute)
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
			j := testJob(1)
			link(t, s, j)
			c := claimOne(t, s, j.ID, time.Minute)
			if _, err := s.Jobs().FollowUp(t.Context(), j, "", time.Hour); err != nil {
				t.Fatal(err)
			}
			if err := tt.stale(t.Context(), s, c); !errors.Is(err, store.ErrStale) {
				t.Fatalf("write after follow-up: err = %v, want ErrStale", err)
			}
			got := mustJob(t, s, j.ID)
			if got.Status != "active" || got.Generation != 2 || !scheduled(t, s, j) {
				t.Fatalf("stale write changed the job: %+v", got)
			}
		})
	}
}

func TestFollowUpBeforeMarkNotified(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	j := testJob(1)
	link(t, s, j)
	c1 := claimOne(t, s, j.ID, time.Minute)
	if notify, err := s.Jobs().Finish(ctx, c1, "completed", "https://example.com/pr/1", time.Minute); err != nil || !notify {
		t.Fatalf("Finish = %v, %v", notify, err)
	}
	// The user replies while the first result is being posted.
	if _, err := s.Jobs().FollowUp(ctx, j, "", 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Jobs().MarkNotified(ctx, c1); err != nil {
		t.Fatalf("MarkNotified of a superseded claim: %v", err)
	}
	got := mustJob(t, s, j.ID)
	if got.Notified != 1 || got.Generation != 2 {
		t.Fatalf("notified %d generation %d, want 1 2", got.Notified, got.Generation)
	}
	if !scheduled(t, s, j) || pttl(t, jobKey(s, j)) != -1 {
		t.Fatal("MarkNotified of a superseded claim unscheduled or expired the restarted job")
	}
	c2 := claimOne(t, s, j.ID, time.Minute)
	if notify, err := s.Jobs().Finish(ctx, c2, "completed", "", time.Minute); err != nil || !notify {
		t.Fatalf("Finish gen 2 = %v, %v; want true", notify, err)
	}
}

// TestFollowUpKeyAppliesOnce: a follow-up repeated with its key (a retry
// after an error whose reply was lost, or an attempt after a crash) is
// counted once and leaves the claims and the schedule as they were.
func TestFollowUpKeyAppliesOnce(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	j := testJob(1)
	link(t, s, j)
	steps := []struct {
		key     string
		wantGen int64
		applied bool
	}{
		{"msg:T:C:1.1", 2, true},
		{"msg:T:C:1.1", 2, false},
		{"msg:T:C:1.1", 2, false},
		{"msg:T:C:1.2", 3, true},
		{"msg:T:C:1.2", 3, false},
		{"", 4, true}, // no key: always applied
		{"", 5, true},
	}
	for i, st := range steps {
		c := claimOne(t, s, j.ID, time.Minute)
		got, err := s.Jobs().FollowUp(ctx, j, st.key, 0)
		if err != nil {
			t.Fatalf("step %d: FollowUp(%q): %v", i, st.key, err)
		}
		if got.Generation != st.wantGen {
			t.Fatalf("step %d: FollowUp(%q) generation %d, want %d", i, st.key, got.Generation, st.wantGen)
		}
		if stored := mustJob(t, s, j.ID); stored.Generation != st.wantGen {
			t.Fatalf("step %d: stored generation %d, want %d", i, stored.Generation, st.wantGen)
		}
		// An applied follow-up makes the claim stale; a repeat does not.
		err = s.Jobs().Reschedule(ctx, c, "active", 0)
		if st.applied && !errors.Is(err, store.ErrStale) {
			t.Fatalf("step %d: claim after an applied follow-up: err = %v, want ErrStale", i, err)
		}
		if !st.applied && err != nil {
			t.Fatalf("step %d: claim after a repeated follow-up: err = %v, want it current", i, err)
		}
	}
}

// TestJobListFailureIsNotReturned: once the record changed, a job list that
// cannot be written (here a key of the wrong type) is logged, not returned,
// so that no caller retries a change already made.
func TestJobListFailureIsNotReturned(t *testing.T) {
	t.Parallel()
	var logs strings.Builder
	s := newStore(t, store.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	ctx := t.Context()
	j := testJob(1)
	if err := rdb.Set(ctx, s.Prefix()+"recent:"+j.Thread.Team+":"+j.Requester, "not a sorted set", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Jobs().LinkJob(ctx, j, 0); err != nil {
		t.Fatalf("LinkJob with a broken job list: %v", err)
	}
	got, err := s.Jobs().FollowUp(ctx, j, "msg:T:C:1.1", 0)
	if err != nil {
		t.Fatalf("FollowUp with a broken job list: %v", err)
	}
	if got.Generation != 2 {
		t.Fatalf("generation %d, want 2", got.Generation)
	}
	if n := strings.Count(logs.String(), "job lists missed a job"); n != 2 {
		t.Errorf("%d warnings logged, want 2 (LinkJob, FollowUp):\n%s", n, logs.String())
	}
}
