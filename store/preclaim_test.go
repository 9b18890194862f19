package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// startClaiming makes s a Store whose claim loop claims work with lease and
// has room for max pieces (its first ClaimWork, with nothing due).
func startClaiming(t *testing.T, s *store.Store, max int, lease time.Duration) {
	t.Helper()
	if got, err := s.Inbox().ClaimWork(t.Context(), max, lease); err != nil || len(got) != 0 {
		t.Fatalf("first ClaimWork = %v, %v; want nothing", got, err)
	}
}

// takeHeld waits until s's held work may be handed out (ClaimWait, which
// asks Redis nothing, says 0: handOutAfter passed) and claims.
func takeHeld(t *testing.T, s *store.Store, lease time.Duration) []store.Taken {
	t.Helper()
	redistest.Until(t, "held work to be ready", func() bool {
		d, _, err := s.Inbox().ClaimWait(t.Context())
		return err == nil && d == 0
	})
	return claimWork(t, s, lease)
}

// TestEnqueueClaimsForItsWriter: a Store whose claim loop has room queues
// new work claimed by itself (token 1, attempt 1) and hands it out at its
// next ClaimWork, with no claim script; no other Store can claim it
// meanwhile, and its fenced writes work as a claim's.
func TestEnqueueClaimsForItsWriter(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	other := newStore(t, store.WithPrefix(s.Prefix()))
	startClaiming(t, s, 10, time.Minute)
	w := work(1)
	enqueue(t, s, w)
	if got := claimWork(t, other, time.Minute); len(got) != 0 {
		t.Fatalf("another replica claimed %d pieces of work its writer holds", len(got))
	}
	got := takeHeld(t, s, time.Minute)
	if len(got) != 1 || got[0].Key != w.Key || got[0].Kind != w.Kind || string(got[0].Payload) != string(w.Payload) {
		t.Fatalf("ClaimWork = %+v, want just %+v", got, w)
	}
	if got[0].Token != 1 || got[0].Attempt != 1 || got[0].Marks != nil {
		t.Fatalf("held work: token %d, attempt %d, marks %v; want 1, 1, none", got[0].Token, got[0].Attempt, got[0].Marks)
	}
	if age := time.Since(got[0].Received); age < -time.Minute || age > time.Minute {
		t.Fatalf("Received = %v, %v from now", got[0].Received, age)
	}
	if again := claimWork(t, s, time.Minute); len(again) != 0 {
		t.Fatalf("held work handed out twice: %+v", again)
	}
	// A redelivery is dropped as before, and takes no place.
	if queued, err := s.Inbox().Enqueue(t.Context(), w, time.Hour); err != nil || queued {
		t.Fatalf("second Enqueue = %v, %v; want not queued", queued, err)
	}
	if err := s.Inbox().Mark(t.Context(), got[0], 0, map[string]string{"root": "1.2"}); err != nil {
		t.Fatalf("Mark of held work: %v", err)
	}
	if err := s.Inbox().Done(t.Context(), got[0]); err != nil {
		t.Fatalf("Done of held work: %v", err)
	}
	if n, err := s.Inbox().Queued(t.Context()); err != nil || n != 0 {
		t.Fatalf("Queued after Done = %d, %v; want 0", n, err)
	}
}

// TestHeldWorkComesBackWhenItsLeaseEnds: work held by a replica that never
// hands it out (it died) is claimed by another once the lease ends, as a
// second attempt; the first holder's writes are then stale.
func TestHeldWorkComesBackWhenItsLeaseEnds(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	other := newStore(t, store.WithPrefix(s.Prefix()))
	const lease = 300 * time.Millisecond
	startClaiming(t, s, 10, lease)
	w := work(2)
	enqueue(t, s, w)
	var got []store.Taken
	redistest.Until(t, "the held work's lease to end", func() bool {
		got = claimWork(t, other, time.Minute)
		return len(got) > 0
	})
	if len(got) != 1 || got[0].Key != w.Key || got[0].Attempt != 2 || got[0].Token != 2 {
		t.Fatalf("claimed after the lease = %+v; want %s, attempt 2, token 2", got, w.Key)
	}
	// The holder comes for it too late: a sixth of the lease has passed, so
	// it does not hand it out, and its own copy is stale.
	if late := claimWork(t, s, lease); len(late) != 0 {
		t.Fatalf("the holder handed out work held past its time: %+v", late)
	}
	held := got[0]
	held.Token, held.Attempt = 1, 1
	if err := s.Inbox().Mark(t.Context(), held, 0, map[string]string{"x": "1"}); !errors.Is(err, store.ErrStale) {
		t.Fatalf("Mark with the held token after another claim = %v, want ErrStale", err)
	}
}

// TestEnqueueWithoutRoomLeavesWorkUnclaimed: a Store that never claimed
// work, or whose claim loop has no free worker left, queues work for anyone.
func TestEnqueueWithoutRoomLeavesWorkUnclaimed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, s *store.Store)
	}{
		{"never claimed", func(*testing.T, *store.Store) {}},
		{"no free worker", func(t *testing.T, s *store.Store) {
			startClaiming(t, s, 1, time.Minute)
			enqueue(t, s, work(100)) // held: the one free worker taken
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			other := newStore(t, store.WithPrefix(s.Prefix()))
			tc.setup(t, s)
			w := work(3)
			enqueue(t, s, w)
			got := claimWork(t, other, time.Minute)
			if len(got) != 1 || got[0].Key != w.Key || got[0].Attempt != 1 {
				t.Fatalf("another replica claimed %+v; want %s at its first attempt", got, w.Key)
			}
		})
	}
}

// TestReleaseWorkHandsBackHeldWork: a stopping replica hands back the work
// it holds with the work in flight: due at once, its token moved on.
func TestReleaseWorkHandsBackHeldWork(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	other := newStore(t, store.WithPrefix(s.Prefix()))
	startClaiming(t, s, 10, time.Minute)
	w := work(5)
	enqueue(t, s, w)
	if err := s.Inbox().ReleaseWork(t.Context(), nil, 0); err != nil {
		t.Fatalf("ReleaseWork: %v", err)
	}
	got := claimWork(t, other, time.Minute)
	if len(got) != 1 || got[0].Key != w.Key || got[0].Attempt != 2 {
		t.Fatalf("claimed after the release = %+v; want %s at attempt 2", got, w.Key)
	}
	if late := claimWork(t, s, time.Minute); len(late) != 0 {
		t.Fatalf("released work handed out by its holder: %+v", late)
	}
}

// TestStopClaimingHandsOverQueuedWork: once a Store's claim loop stops
// (a shutdown), the work it holds claimed for the loop and the work queued
// after, while its socket still takes envelopes, are another replica's at
// once, not after the lease (issue 40: a rolling update made them wait 30 s).
func TestStopClaimingHandsOverQueuedWork(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	other := newStore(t, store.WithPrefix(s.Prefix()))
	startClaiming(t, s, 10, time.Minute)
	held, after := work(6), work(7)
	enqueue(t, s, held)
	if err := s.Inbox().StopClaiming(t.Context()); err != nil {
		t.Fatalf("StopClaiming: %v", err)
	}
	enqueue(t, s, after)
	got := claimWork(t, other, time.Minute)
	keys := map[string]int{}
	for _, g := range got {
		keys[g.Key] = g.Attempt
	}
	if len(got) != 2 || keys[held.Key] != 2 || keys[after.Key] != 1 {
		t.Fatalf("claimed by another replica = %+v; want %s at attempt 2 and %s at attempt 1", got, held.Key, after.Key)
	}
	// Work queued by the stopped Store wakes the others' claim loops.
	woken := other.Inbox().Changed()
	drain(woken)
	enqueue(t, s, work(8))
	select {
	case <-woken:
	case <-time.After(30 * time.Second): // a guard, far above a publish's
		t.Fatal("no wake-up for work queued by a stopped Store")
	}
}

// drain empties a wake-up channel.
func drain(c <-chan struct{}) {
	for {
		select {
		case <-c:
		default:
			return
		}
	}
}

// TestWorkCommands pins the Redis commands of a slash command's inbox
// path (INFO commandstats, those scripts call included): Enqueue claimed by
// its writer 5, handing it out 0, a checkpoint 3, Done 4 and 5 with an
// audit record (one XADD in its script); and on one server LinkJob 13 (the
// job lists in its script: 2 sent), an audit record 1.
func TestWorkCommands(t *testing.T) {
	own := ownRedis(t)
	s := openStore(t, own.URL)
	ctx := t.Context()
	startClaiming(t, s, 10, time.Minute)
	// Load the scripts (EVAL after EVALSHA's NOSCRIPT).
	enqueue(t, s, work(0))
	warm := takeHeld(t, s, time.Minute)
	if err := s.Inbox().Mark(ctx, warm[0], 0, map[string]string{"a": "1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Inbox().Done(ctx, warm[0]); err != nil {
		t.Fatal(err)
	}

	if n := commandsOf(t, s, func() error { enqueue(t, s, work(1)); return nil }); n != 5 {
		t.Errorf("Enqueue: %d commands, want 5", n)
	}
	var got []store.Taken
	redistest.Until(t, "held work to be ready", func() bool { d, _, _ := s.Inbox().ClaimWait(ctx); return d == 0 })
	if n := commandsOf(t, s, func() error { got = claimWork(t, s, time.Minute); return nil }); n != 0 || len(got) != 1 {
		t.Fatalf("ClaimWork of held work: %d commands, %d pieces; want 0, 1", n, len(got))
	}
	if n := commandsOf(t, s, func() error {
		return s.Inbox().Mark(ctx, got[0], 0, map[string]string{"root": "1.2", "intent": "ab"})
	}); n != 3 {
		t.Errorf("Mark of a checkpoint: %d commands, want 3", n)
	}
	if n := commandsOf(t, s, func() error { return s.Inbox().Done(ctx, got[0]) }); n != 4 {
		t.Errorf("Done: %d commands, want 4", n)
	}
	enqueue(t, s, work(2))
	redistest.Until(t, "held work to be ready", func() bool { d, _, _ := s.Inbox().ClaimWait(ctx); return d == 0 })
	got = claimWork(t, s, time.Minute)
	entry, err := s.AuditLog(store.AuditOptions{}).Entry(store.AuditRecord{Action: store.AuditJobStart, Work: got[0].Key})
	if err != nil || len(got) != 1 {
		t.Fatalf("Entry: %v; claimed %d", err, len(got))
	}
	if n := commandsOf(t, s, func() error { return s.Inbox().Done(ctx, got[0], entry) }); n != 5 {
		t.Errorf("Done with an audit record: %d commands, want 5", n)
	}
	if err := s.Jobs().LinkJob(ctx, testJob(0), 0); err != nil { // loads the script
		t.Fatal(err)
	}
	// A Store that claims jobs sends no wake-up for its own links.
	if _, err := s.Jobs().Claim(ctx, 10, time.Minute); err != nil {
		t.Fatal(err)
	}
	// The job lists were trimmed by the first link: this one only adds
	// to them (listTrimEvery).
	if n := commandsOf(t, s, func() error { return s.Jobs().LinkJob(ctx, testJob(1), time.Hour) }); n != 13 {
		t.Errorf("LinkJob of a new job: %d commands, want 13", n)
	}
	if jobs, err := s.Jobs().RecentJobs(ctx, testJob(1).Thread.Team, testJob(1).Requester, 5); err != nil || len(jobs) != 2 {
		t.Errorf("recent jobs after two links = %d, %v; want 2", len(jobs), err)
	}
	audit := s.AuditLog(store.AuditOptions{})
	if n := commandsOf(t, s, func() error {
		_, err := audit.Append(ctx, store.AuditRecord{Action: store.AuditJobStart, Work: "cmd:1"})
		return err
	}); n != 1 {
		t.Errorf("an audit record: %d commands, want 1", n)
	}
}
