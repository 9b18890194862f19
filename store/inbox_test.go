package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// work returns a piece of work with its own key.
func work(i int) store.Work {
	return store.Work{Key: fmt.Sprintf("cmd:trigger-%d", i), Kind: "agent.start", Payload: fmt.Appendf(nil, `{"n":%d}`, i)}
}

// enqueue queues w and fails the test unless it was new.
func enqueue(t *testing.T, s *store.Store, w store.Work) {
	t.Helper()
	queued, err := s.Inbox().Enqueue(t.Context(), w, time.Hour)
	if err != nil || !queued {
		t.Fatalf("Enqueue(%s) = %v, %v; want queued", w.Key, queued, err)
	}
}

// claimWork claims all due work of s with lease.
func claimWork(t *testing.T, s *store.Store, lease time.Duration) []store.Taken {
	t.Helper()
	ts, err := s.Inbox().ClaimWork(t.Context(), 100, lease)
	if err != nil {
		t.Fatalf("ClaimWork: %v", err)
	}
	return ts
}

func TestEnqueueDropsRedeliveries(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	w := work(1)
	enqueue(t, s, w)
	for _, again := range []store.Work{w, {Key: w.Key, Kind: "other", Payload: []byte("x")}} {
		queued, err := s.Inbox().Enqueue(t.Context(), again, time.Hour)
		if err != nil || queued {
			t.Fatalf("second Enqueue(%s) = %v, %v; want not queued", again.Key, queued, err)
		}
	}
	got := claimWork(t, s, time.Minute)
	if len(got) != 1 || got[0].Key != w.Key || got[0].Kind != w.Kind || string(got[0].Payload) != string(w.Payload) {
		t.Fatalf("ClaimWork = %+v, want just %+v", got, w)
	}
	if got[0].Attempt != 1 || got[0].Token < 1 || got[0].Marks != nil {
		t.Fatalf("first claim: attempt %d, token %d, marks %v", got[0].Attempt, got[0].Token, got[0].Marks)
	}
	if age := time.Since(got[0].Received); age < -time.Minute || age > time.Minute {
		t.Fatalf("Received = %v, %v from now", got[0].Received, age)
	}

	// Done removes the work; the key is still remembered for the keep window.
	if err := s.Inbox().Done(t.Context(), got[0]); err != nil {
		t.Fatalf("Done: %v", err)
	}
	if n, err := s.Inbox().Queued(t.Context()); err != nil || n != 0 {
		t.Fatalf("Queued after Done = %d, %v; want 0", n, err)
	}
	if queued, err := s.Inbox().Enqueue(t.Context(), w, time.Hour); err != nil || queued {
		t.Fatalf("Enqueue after Done = %v, %v; want not queued", queued, err)
	}
	if ttl := pttl(t, s.WorkKeyOf(w.Key)); ttl <= 59*time.Minute || ttl > time.Hour {
		t.Fatalf("record TTL after Done = %v, want the keep window of 1h", ttl)
	}
}

// TestDoneKeepsNoPayload: the record Done leaves for the dedupe window holds
// neither the payload nor the checkpoints (a thread reply's text, an
// instruction), and still drops a redelivery.
func TestDoneKeepsNoPayload(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	const text = "words-nobody-else-may-read"
	w := store.Work{Key: "msg:T0001:C0001:1800000000.000001", Kind: "agent.reply", Payload: []byte(`{"text":"` + text + `"}`)}
	enqueue(t, s, w)
	got := claimWork(t, s, time.Minute)
	if len(got) != 1 {
		t.Fatalf("claimed %d pieces, want 1", len(got))
	}
	if err := s.Inbox().Mark(t.Context(), got[0], time.Minute, map[string]string{"retry": text, "sent": "1"}); err != nil {
		t.Fatalf("Mark: %v", err)
	}
	if err := s.Inbox().Done(t.Context(), got[0]); err != nil {
		t.Fatalf("Done: %v", err)
	}
	rec, err := rdb.Get(t.Context(), s.WorkKeyOf(w.Key)).Result()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rec, "done ") || !strings.HasSuffix(rec, " attempt 1 kind "+w.Kind) || strings.Contains(rec, text) {
		t.Errorf("record after Done %q: want its done time, attempt and kind, and nothing more", rec)
	}
	if err := s.Inbox().Mark(t.Context(), got[0], time.Minute, map[string]string{"late": "1"}); !errors.Is(err, store.ErrStale) {
		t.Errorf("Mark after Done: %v, want ErrStale", err)
	}
	if err := s.Inbox().Done(t.Context(), got[0]); err != nil {
		t.Errorf("Done again: %v, want nil (nothing changes)", err)
	}
	if queued, err := s.Inbox().Enqueue(t.Context(), w, time.Hour); err != nil || queued {
		t.Fatalf("Enqueue after Done = %v, %v; want not queued", queued, err)
	}
}

func TestEnqueueKeepsRecordUntilDone(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	w := work(2)
	enqueue(t, s, w)
	// However long it waits, queued work does not expire.
	if ttl := pttl(t, s.WorkKeyOf(w.Key)); ttl != -1 {
		t.Fatalf("TTL of queued work = %v, want none", ttl)
	}
}

func TestClaimWorkExclusive(t *testing.T) {
	t.Parallel()
	const pieces, replicas = 150, 4
	prefix := testPrefix(t)
	setup := store.New(rdb, store.WithPrefix(prefix))
	for i := range pieces {
		enqueue(t, setup, work(i))
	}
	counts := claimConcurrently(t, prefix, replicas, func(s *store.Store) ([]string, error) {
		ts, err := s.Inbox().ClaimWork(context.Background(), 5, time.Minute)
		keys := make([]string, len(ts))
		for i, tk := range ts {
			keys[i] = tk.Key
		}
		return keys, err
	})
	if len(counts) != pieces {
		t.Fatalf("claimed %d distinct pieces, want %d", len(counts), pieces)
	}
	for k, n := range counts {
		if n != 1 {
			t.Fatalf("%s claimed %d times", k, n)
		}
	}
}

func TestWorkComesBackWhenTheLeaseEnds(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	w := work(3)
	enqueue(t, s, w)
	first := claimWork(t, s, 50*time.Millisecond)
	if len(first) != 1 {
		t.Fatalf("claimed %d, want 1", len(first))
	}
	// The first owner records a checkpoint, then dies.
	if err := s.Inbox().Mark(t.Context(), first[0], 0, map[string]string{"root": "1732233445.000100"}); err != nil {
		t.Fatalf("Mark: %v", err)
	}
	var second []store.Taken
	redistest.Until(t, "the work to come due again", func() bool {
		second = claimWork(t, s, time.Minute)
		return len(second) == 1
	})
	got := second[0]
	if got.Attempt != 2 || got.Token <= first[0].Token || got.Marks["root"] != "1732233445.000100" {
		t.Fatalf("second claim: attempt %d, token %d (first %d), marks %v", got.Attempt, got.Token, first[0].Token, got.Marks)
	}
	// The first owner's late writes are refused.
	for name, write := range map[string]func() error{
		"Mark":  func() error { return s.Inbox().Mark(t.Context(), first[0], time.Minute, map[string]string{"x": "y"}) },
		"Defer": func() error { return s.Inbox().Defer(t.Context(), first[0], 0) },
		"Done":  func() error { return s.Inbox().Done(t.Context(), first[0]) },
	} {
		if err := write(); !errors.Is(err, store.ErrStale) {
			t.Errorf("%s with the old claim = %v, want ErrStale", name, err)
		}
	}
	if n, _ := s.Inbox().Queued(t.Context()); n != 1 {
		t.Fatalf("Queued = %d after stale writes, want 1", n)
	}
	if err := s.Inbox().Done(t.Context(), got); err != nil {
		t.Fatalf("Done by the current owner: %v", err)
	}
}

func TestMarkExtendsTheLease(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	enqueue(t, s, work(4))
	taken := claimWork(t, s, time.Millisecond)
	if err := s.Inbox().Mark(t.Context(), taken[0], time.Hour, nil); err != nil {
		t.Fatalf("Mark: %v", err)
	}
	time.Sleep(5 * time.Millisecond) // past the first lease
	if again := claimWork(t, s, time.Minute); len(again) != 0 {
		t.Fatalf("claimed %d pieces while the extended lease holds", len(again))
	}
}

func TestDeferAndRelease(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	enqueue(t, s, work(5))
	enqueue(t, s, work(6))
	taken := claimWork(t, s, time.Hour)
	if len(taken) != 2 {
		t.Fatalf("claimed %d, want 2", len(taken))
	}
	// Deferred by 0 it is due at once; released, it is due at once with a new token.
	if err := s.Inbox().Defer(t.Context(), taken[0], 0); err != nil {
		t.Fatalf("Defer: %v", err)
	}
	if err := s.Inbox().ReleaseWork(t.Context(), taken[1:], 0); err != nil {
		t.Fatalf("ReleaseWork: %v", err)
	}
	if err := s.Inbox().Done(t.Context(), taken[1]); !errors.Is(err, store.ErrStale) {
		t.Fatalf("Done after release = %v, want ErrStale", err)
	}
	again := claimWork(t, s, time.Hour)
	if len(again) != 2 {
		t.Fatalf("claimed %d after defer and release, want 2", len(again))
	}
	// A piece that was done is not deferred: it is not brought back.
	if err := s.Inbox().Done(t.Context(), again[0]); err != nil {
		t.Fatalf("Done: %v", err)
	}
	if err := s.Inbox().Defer(t.Context(), again[0], 0); !errors.Is(err, store.ErrStale) {
		t.Fatalf("Defer after Done: %v, want ErrStale", err)
	}
	if n, _ := s.Inbox().Queued(t.Context()); n != 1 {
		t.Fatalf("Queued = %d, want 1", n)
	}
	// Released after a wait (a request cut short may still land), it is
	// not claimable before, and its token moved on at once.
	if err := s.Inbox().ReleaseWork(t.Context(), again[1:], time.Hour); err != nil {
		t.Fatalf("ReleaseWork(1h): %v", err)
	}
	if err := s.Inbox().Done(t.Context(), again[1]); !errors.Is(err, store.ErrStale) {
		t.Fatalf("Done after a release with a wait = %v, want ErrStale", err)
	}
	if later := claimWork(t, s, time.Hour); len(later) != 0 {
		t.Fatalf("claimed %d before the release's wait ended, want 0", len(later))
	}
}

func TestInboxRefusesInvalidArguments(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	for name, err := range map[string]error{
		"empty key":  func() error { _, err := s.Inbox().Enqueue(t.Context(), store.Work{Kind: "k"}, time.Hour); return err }(),
		"empty kind": func() error { _, err := s.Inbox().Enqueue(t.Context(), store.Work{Key: "k"}, time.Hour); return err }(),
		"short keep": func() error { _, err := s.Inbox().Enqueue(t.Context(), work(7), time.Millisecond); return err }(),
		"no lease":   func() error { _, err := s.Inbox().ClaimWork(t.Context(), 1, 0); return err }(),
	} {
		if !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", name, err)
		}
	}
}

// TestRestoreWritesBackWhatAFailoverLost: a record gone while its holder
// works (a failover that promoted a replica the record never reached)
// answers the holder's writes ErrNotFound; Restore writes it back as the
// holder knows it, claimed by that holder: its writes go on, and the next
// claim, once the lease ends, finds its kind, payload, attempts and marks.
// Restore writes nothing over a record that stands, done or not.
func TestRestoreWritesBackWhatAFailoverLost(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	w := work(70)
	enqueue(t, s, w)
	held := claimWork(t, s, time.Minute)
	if len(held) != 1 {
		t.Fatalf("claimed %d, want 1", len(held))
	}
	h := held[0]
	if err := s.Inbox().Mark(ctx, h, 0, map[string]string{"root": "1732233445.000700"}); err != nil {
		t.Fatal(err)
	}
	if err := rdb.Del(ctx, s.WorkKeyOf(w.Key)).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Inbox().Mark(ctx, h, 0, map[string]string{"posted": "1"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Mark on a lost record = %v, want ErrNotFound", err)
	}
	marks := map[string]string{"root": "1732233445.000700"}
	restored, err := s.Inbox().Restore(ctx, h, time.Hour, 20*time.Millisecond, marks)
	if err != nil || !restored {
		t.Fatalf("Restore = %v, %v; want written", restored, err)
	}
	if again, err := s.Inbox().Restore(ctx, h, time.Hour, time.Minute, nil); err != nil || again {
		t.Fatalf("Restore over a standing record = %v, %v; want nothing written", again, err)
	}
	if err := s.Inbox().Mark(ctx, h, 0, map[string]string{"posted": "1"}); err != nil {
		t.Fatalf("the holder's Mark after Restore: %v", err)
	}
	var next []store.Taken
	redistest.Until(t, "the restored work to come due after its lease", func() bool {
		next = claimWork(t, s, time.Minute)
		return len(next) == 1
	})
	got := next[0]
	if got.Key != w.Key || got.Kind != w.Kind || string(got.Payload) != string(w.Payload) || got.Attempt != 2 || got.Token <= h.Token ||
		got.Marks["root"] != "1732233445.000700" || got.Marks["posted"] != "1" {
		t.Fatalf("claimed after Restore: %+v; want %s again, attempt 2, a newer token than %d, both marks", got, w.Key, h.Token)
	}
	if err := s.Inbox().Mark(ctx, h, 0, nil); !errors.Is(err, store.ErrStale) {
		t.Fatalf("the old holder's write after the new claim = %v, want ErrStale", err)
	}
	if err := s.Inbox().Done(ctx, got); err != nil {
		t.Fatal(err)
	}
	if again, err := s.Inbox().Restore(ctx, got, time.Hour, time.Minute, nil); err != nil || again {
		t.Fatalf("Restore over a done record = %v, %v; want nothing written", again, err)
	}
	if queued, err := s.Inbox().Enqueue(ctx, w, time.Hour); err != nil || queued {
		t.Fatalf("Enqueue after Done = %v, %v; want seen before", queued, err)
	}
}
