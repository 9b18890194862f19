package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// redisNow is the Redis clock.
func redisNow(t *testing.T) time.Time {
	t.Helper()
	now, err := rdb.Time(context.Background()).Result()
	if err != nil {
		t.Fatalf("TIME: %v", err)
	}
	return now
}

// readAll reads every record q selects with Each.
func readAll(t *testing.T, a *store.AuditLog, q store.AuditQuery) []store.AuditRecord {
	t.Helper()
	var out []store.AuditRecord
	if err := a.Each(t.Context(), q, func(r store.AuditRecord) error {
		out = append(out, r)
		return nil
	}); err != nil {
		t.Fatalf("Each(%+v): %v", q, err)
	}
	return out
}

func appendAudit(t *testing.T, a *store.AuditLog, r store.AuditRecord) string {
	t.Helper()
	id, err := a.Append(t.Context(), r)
	if err != nil {
		t.Fatalf("Append(%s): %v", r.Action, err)
	}
	return id
}

func TestAuditRecords(t *testing.T) {
	t.Parallel()
	const instruction = "Document the new `--dry-run` flag ✓"
	sum := sha256.Sum256([]byte(instruction))
	start := store.AuditRecord{
		Team: "T0001", Channel: "C0DOCS", User: "U0ALICE", Project: "docs",
		Action: store.AuditJobStart, Outcome: "ok", JobID: "job-1", Work: "cmd:3f2a", Instruction: instruction,
	}
	result := store.AuditRecord{
		Team: "T0001", Channel: "C0DOCS", User: "U0ALICE", Project: "docs",
		Action: store.AuditResult, Outcome: "completed", JobID: "job-1", Detail: "https://github.com/acme/docs/pull/7",
	}
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("keep text %t", keep), func(t *testing.T) {
			t.Parallel()
			a := newStore(t).AuditLog(store.AuditOptions{KeepText: keep})
			before := redisNow(t).Truncate(time.Millisecond)
			id1 := appendAudit(t, a, start)
			id2 := appendAudit(t, a, result)
			after := redisNow(t)

			got := readAll(t, a, store.AuditQuery{})
			if len(got) != 2 {
				t.Fatalf("read %d records, want 2", len(got))
			}
			want := start
			want.ID, want.At = id1, got[0].At
			want.InstructionSHA256, want.InstructionLen = hex.EncodeToString(sum[:]), 35
			if !keep {
				want.Instruction = ""
			}
			if got[0] != want {
				t.Errorf("start record\n got %+v\nwant %+v", got[0], want)
			}
			want = result
			want.ID, want.At = id2, got[1].At
			if got[1] != want {
				t.Errorf("result record\n got %+v\nwant %+v", got[1], want)
			}
			for _, r := range got {
				if r.At.Before(before) || r.At.After(after) {
					t.Errorf("record %s at %v, not between %v and %v on the Redis clock", r.ID, r.At, before, after)
				}
			}
		})
	}
}

func TestAuditFilters(t *testing.T) {
	t.Parallel()
	a := newStore(t).AuditLog(store.AuditOptions{})
	appendAudit(t, a, store.AuditRecord{Project: "docs", Action: store.AuditJobStart, User: "U1"})
	appendAudit(t, a, store.AuditRecord{Project: "api", Action: store.AuditRefusal, User: "U2"})
	// Wait until the Redis clock has passed the second record's millisecond,
	// so that Since can fall between the records.
	firstAt := readAll(t, a, store.AuditQuery{})[1].At
	redistest.Until(t, "the Redis clock to move on", func() bool { return redisNow(t).After(firstAt.Add(time.Millisecond)) })
	since := redisNow(t)
	appendAudit(t, a, store.AuditRecord{Project: "docs", Action: store.AuditFollowUp, User: "U1"})
	appendAudit(t, a, store.AuditRecord{Project: "api", Action: store.AuditJobStart, User: "U3"})

	tests := []struct {
		name  string
		q     store.AuditQuery
		users []string
	}{
		{"all", store.AuditQuery{}, []string{"U1", "U2", "U1", "U3"}},
		{"one project", store.AuditQuery{Project: "api"}, []string{"U2", "U3"}},
		{"since", store.AuditQuery{Since: since}, []string{"U1", "U3"}},
		{"since, one project", store.AuditQuery{Since: since, Project: "docs"}, []string{"U1"}},
		{"a project without records", store.AuditQuery{Project: "blog"}, nil},
		{"since in the future", store.AuditQuery{Since: since.Add(time.Hour)}, nil},
		{"small pages", store.AuditQuery{Project: "api", PageSize: 1}, []string{"U2", "U3"}},
	}
	for _, tt := range tests {
		var users []string
		for _, r := range readAll(t, a, tt.q) {
			users = append(users, r.User)
		}
		if fmt.Sprint(users) != fmt.Sprint(tt.users) {
			t.Errorf("%s: users %v, want %v", tt.name, users, tt.users)
		}
	}
	if err := a.Each(t.Context(), store.AuditQuery{PageSize: 1 << 20}, func(store.AuditRecord) error { return nil }); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("pages of a million: err = %v, want ErrInvalid", err)
	}
	if _, err := a.Append(t.Context(), store.AuditRecord{User: "U1"}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Append without an action: err = %v, want ErrInvalid", err)
	}
}

// TestAuditPaging: Each reads the trail a page at a time, every record once
// and in order, whether the last page is short, ends exactly at the end of
// the trail (an empty page follows) or holds one record, and stops at the
// callback's first error.
func TestAuditPaging(t *testing.T) {
	t.Parallel()
	a := newStore(t).AuditLog(store.AuditOptions{})
	var ids []string
	for i := range 25 {
		ids = append(ids, appendAudit(t, a, store.AuditRecord{Project: "docs", Action: store.AuditJobStart, JobID: fmt.Sprint("job-", i)}))
	}
	for _, size := range []int{7, 25, 1} {
		var got []string
		for _, r := range readAll(t, a, store.AuditQuery{PageSize: size}) {
			got = append(got, r.ID)
		}
		if fmt.Sprint(got) != fmt.Sprint(ids) {
			t.Errorf("pages of %d: ids\n got %v\nwant %v", size, got, ids)
		}
	}
	stop := errors.New("stop")
	n := 0
	err := a.Each(t.Context(), store.AuditQuery{PageSize: 3}, func(store.AuditRecord) error {
		n++
		if n == 5 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 5 {
		t.Errorf("Each stopped after %d records with %v, want 5 and the callback's error", n, err)
	}
}

func TestAuditTrimsByAge(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	a := s.AuditLog(store.AuditOptions{Retention: 24 * time.Hour})
	key := s.Prefix() + "audit"
	ctx := t.Context()
	// 300 records from long ago, as if written years back.
	for i := range 300 {
		err := rdb.XAdd(ctx, &redis.XAddArgs{Stream: key, ID: fmt.Sprintf("%d-0", 1000+i), Values: []any{"a", store.AuditJobStart, "p", "docs"}}).Err()
		if err != nil {
			t.Fatalf("XADD: %v", err)
		}
	}
	if got := readAll(t, a, store.AuditQuery{}); len(got) != 0 {
		t.Fatalf("read %d records older than the retention, want none", len(got))
	}
	id := appendAudit(t, a, store.AuditRecord{Project: "docs", Action: store.AuditJobStart})
	// Appending drops whole stream nodes (at most 100 entries each) that
	// are older than the retention: at most one node of old records stays.
	n, err := rdb.XLen(ctx, key).Result()
	if err != nil {
		t.Fatalf("XLEN: %v", err)
	}
	if n > 101 {
		t.Fatalf("after an append the stream holds %d entries, want at most 101", n)
	}
	removed, err := a.Trim(ctx)
	if err != nil {
		t.Fatalf("Trim: %v", err)
	}
	if removed != n-1 {
		t.Errorf("Trim removed %d, want %d", removed, n-1)
	}
	if got := readAll(t, a, store.AuditQuery{}); len(got) != 1 || got[0].ID != id {
		t.Fatalf("after Trim: %v, want just %s", got, id)
	}
	if n, err := rdb.XLen(ctx, key).Result(); err != nil || n != 1 {
		t.Fatalf("after Trim the stream holds %d entries (%v), want 1", n, err)
	}
}

func TestLastProject(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	if got, err := s.Choices().LastProject(ctx, "T1", "U1"); err != nil || got != "" {
		t.Fatalf("LastProject before a choice = %q, %v; want \"\"", got, err)
	}
	for _, name := range []string{"docs", "api"} {
		if err := s.Choices().SetLastProject(ctx, "T1", "U1", name); err != nil {
			t.Fatalf("SetLastProject: %v", err)
		}
		if got, err := s.Choices().LastProject(ctx, "T1", "U1"); err != nil || got != name {
			t.Fatalf("LastProject = %q, %v; want %q", got, err, name)
		}
	}
	if got, _ := s.Choices().LastProject(ctx, "T2", "U1"); got != "" {
		t.Errorf("another workspace's person has choice %q", got)
	}
	if d := pttl(t, s.Prefix()+"choice:T1:U1"); d <= store.ChoiceRetention-time.Hour || d > store.ChoiceRetention {
		t.Errorf("choice expires in %v, want about %v", d, store.ChoiceRetention)
	}
	if err := s.Choices().SetLastProject(ctx, "T1", "", "docs"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("SetLastProject without a user: err = %v, want ErrInvalid", err)
	}
	if _, err := s.Choices().LastProject(ctx, "", "U1"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("LastProject without a team: err = %v, want ErrInvalid", err)
	}
}

// TestAuditWithDone: records given to Done are appended with the end of the
// work, once: not by a Done whose token is stale, not again by a repeated
// Done. On a cluster they are appended before it, at least once.
func TestAuditWithDone(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	a := s.AuditLog(store.AuditOptions{KeepText: true})
	const instruction = "Document the CLI"
	entry := func(action string) store.AuditEntry {
		t.Helper()
		e, err := a.Entry(store.AuditRecord{Team: "T1", Channel: "C1", User: "U1", Action: action, Outcome: "ok",
			JobID: "job-7", Work: "cmd:with-done", Instruction: instruction})
		if err != nil {
			t.Fatalf("Entry: %v", err)
		}
		return e
	}
	if _, err := a.Entry(store.AuditRecord{Team: "T1"}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Entry without an action: %v, want ErrInvalid", err)
	}
	w := store.Work{Key: "cmd:with-done", Kind: "agent.start", Payload: []byte(`{}`)}
	enqueue(t, s, w)
	first := claimWork(t, s, time.Millisecond)
	if len(first) != 1 {
		t.Fatalf("claimed %d pieces, want 1", len(first))
	}
	var second []store.Taken
	redistest.Until(t, "the lease to end and the work to be claimed again", func() bool {
		second = claimWork(t, s, time.Minute)
		return len(second) == 1
	})

	if err := s.Inbox().Done(t.Context(), first[0], entry(store.AuditJobStart)); !errors.Is(err, store.ErrStale) {
		t.Fatalf("Done with a stale token: %v, want ErrStale", err)
	}
	stale := readAll(t, a, store.AuditQuery{})
	if topology == "cluster" {
		// The trail is in another slot: the records go first, at least
		// once, whatever the script then says.
		if len(stale) != 1 {
			t.Fatalf("a stale Done on a cluster appended %d records, want the one given", len(stale))
		}
		return
	}
	if len(stale) != 0 {
		t.Fatalf("a stale Done appended %+v", stale)
	}
	for range 2 {
		if err := s.Inbox().Done(t.Context(), second[0], entry(store.AuditJobStart), entry(store.AuditResult)); err != nil {
			t.Fatalf("Done: %v", err)
		}
	}
	recs := readAll(t, a, store.AuditQuery{})
	if len(recs) != 2 {
		t.Fatalf("%d records after Done twice: %+v, want the two given, once", len(recs), recs)
	}
	for i, action := range []string{store.AuditJobStart, store.AuditResult} {
		r := recs[i]
		if r.Action != action || r.Work != w.Key || r.JobID != "job-7" || r.Instruction != instruction || r.At.IsZero() {
			t.Errorf("record %d = %+v, want %s of %s", i, r, action, w.Key)
		}
	}
}
