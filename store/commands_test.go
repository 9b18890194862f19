package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

// commandsOf counts the Redis commands fn sends (INFO commandstats, the
// commands scripts run included; the counting INFO left out), on a server
// of the test's own.
func commandsOf(t *testing.T, s *store.Store, fn func() error) int64 {
	t.Helper()
	ctx := t.Context()
	calls := func() int64 {
		st, err := s.Stats().ServerStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st.Calls - st.ByCommand["info"]
	}
	before := calls()
	if err := fn(); err != nil {
		t.Fatal(err)
	}
	return calls() - before
}

// TestClaimCommands pins the Redis commands of the claim loop (store/doc.go,
// "Claiming at rest"): none for a claim with nothing due, 4+2k for a claim
// of k jobs of one shard, 2+k for their reschedules written together (one
// HSET more per status changed), 3 for the reschedule of a job claimed alone
// (4 for a Claim made by hand, which holds no Redis clock).
func TestClaimCommands(t *testing.T) {
	own := ownRedis(t)
	s, err := store.Open(t.Context(), own.URL, store.WithLookEvery(time.Hour),
		store.WithSettleLinger(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	ctx := t.Context()
	// The first claim reads every shard; the first run of each script
	// loads it (EVAL after EVALSHA's NOSCRIPT).
	if err := s.Jobs().LinkJob(ctx, testJob(1), 0); err != nil {
		t.Fatal(err)
	}
	warm, err := s.Jobs().Claim(ctx, 10, time.Minute)
	if err != nil || len(warm) != 1 {
		t.Fatalf("warm-up claim = %v, %v", warm, err)
	}
	if err := s.Jobs().Reschedule(ctx, warm[0], "active", time.Hour); err != nil {
		t.Fatal(err)
	}
	if n := commandsOf(t, s, func() error { _, err := s.Jobs().Claim(ctx, 10, time.Minute); return err }); n != 0 {
		t.Errorf("a claim at rest sent %d commands, want 0", n)
	}
	if err := s.Jobs().LinkJob(ctx, testJob(0), 0); err != nil {
		t.Fatal(err)
	}
	var cs []store.Claim
	n := commandsOf(t, s, func() error {
		var err error
		cs, err = s.Jobs().Claim(ctx, 10, time.Minute)
		return err
	})
	if len(cs) != 1 || n != 6 {
		t.Fatalf("claim of one job: %d claims, %d commands; want 1 claim, 6 commands", len(cs), n)
	}
	if n := commandsOf(t, s, func() error { return s.Jobs().Reschedule(ctx, cs[0], "active", time.Hour) }); n != 3 {
		t.Errorf("reschedule: %d commands, want 3", n)
	}
	if n := commandsOf(t, s, func() error { _, err := s.Jobs().Claim(ctx, 10, time.Minute); return err }); n != 0 {
		t.Errorf("a claim with nothing due sent %d commands, want 0", n)
	}

	// k jobs due in one shard: one script to claim them, one to reschedule.
	const k = 3
	shard := s.SchedKeyOf(testJob(2).Thread)
	for i, linked := 2, 0; linked < k; i++ {
		if j := testJob(i); s.SchedKeyOf(j.Thread) == shard {
			if err := s.Jobs().LinkJob(ctx, j, 0); err != nil {
				t.Fatal(err)
			}
			linked++
		}
	}
	n = commandsOf(t, s, func() error {
		var err error
		cs, err = s.Jobs().Claim(ctx, 10, time.Minute)
		return err
	})
	if len(cs) != k || n != 4+2*k {
		t.Fatalf("claim of %d jobs of one shard: %d claims, %d commands; want %d claims, %d commands", k, len(cs), n, k, 4+2*k)
	}
	n = commandsOf(t, s, func() error {
		errs := make(chan error, k)
		for i, c := range cs {
			status := "active"
			if i == 0 {
				status = "running"
			}
			go func() { errs <- s.Jobs().Reschedule(ctx, c, status, time.Hour) }()
		}
		for range k {
			if err := <-errs; err != nil {
				return err
			}
		}
		return nil
	})
	if n != 2+k+1 {
		t.Errorf("reschedules of %d jobs claimed together, one status changed: %d commands, want %d", k, n, 2+k+1)
	}
	byHand := store.Claim{JobID: cs[1].JobID, Token: cs[1].Token, Job: cs[1].Job}
	if n := commandsOf(t, s, func() error { return s.Jobs().Reschedule(ctx, byHand, "active", time.Hour) }); n != 4 {
		t.Errorf("reschedule of a Claim made by hand: %d commands, want 4", n)
	}
}

// TestLinkCommands: linking a new job is one round trip on one server: the
// link script looks for its id in the other shards with one EXISTS of 15
// keys (a cluster asks before, in a pipeline; this server is none); an id
// recorded in another shard is still a conflict.
func TestLinkCommands(t *testing.T) {
	own := ownRedis(t)
	s := openStore(t, own.URL)
	ctx := t.Context()
	count := func(cmd string) int64 {
		st, err := s.Stats().ServerStats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st.ByCommand[cmd]
	}
	if err := s.Jobs().LinkJob(ctx, testJob(0), 0); err != nil { // the script loaded
		t.Fatal(err)
	}
	exists, evalsha := count("exists"), count("evalsha")
	if err := s.Jobs().LinkJob(ctx, testJob(1), 0); err != nil {
		t.Fatal(err)
	}
	// Both in the link script: one for the other shards, one for its own.
	if n := count("exists") - exists; n != 2 {
		t.Errorf("LinkJob of a new job ran %d EXISTS, want 2", n)
	}
	if n := count("evalsha") - evalsha; n != 1 {
		t.Errorf("LinkJob of a new job ran %d scripts, want 1", n)
	}
	other := testJob(2)
	other.ID = testJob(1).ID
	for i := 3; s.SchedKeyOf(other.Thread) == s.SchedKeyOf(testJob(1).Thread); i++ {
		other.Thread = testJob(i).Thread
	}
	if err := s.Jobs().LinkJob(ctx, other, 0); !errors.Is(err, store.ErrConflict) {
		t.Errorf("the same job linked to a thread of another shard = %v, want ErrConflict", err)
	}
}

// TestWakeUp: a job linked by a Store that does not claim (a tool) wakes a
// claiming Store, whose next claim takes it without reading every shard.
func TestWakeUp(t *testing.T) {
	own := ownRedis(t)
	ctx := t.Context()
	s, err := store.Open(ctx, own.URL, store.WithLookEvery(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	tool := openStore(t, own.URL)
	if _, err := s.Jobs().Claim(ctx, 10, time.Minute); err != nil {
		t.Fatal(err)
	}
	changed := s.Jobs().Changed()
	if err := tool.Jobs().LinkJob(ctx, testJob(0), 0); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	select {
	case <-changed:
	case <-wctx.Done():
		t.Fatal("no wake-up for a job another Store linked")
	}
	cs, err := s.Jobs().Claim(ctx, 10, time.Minute)
	if err != nil || len(cs) != 1 || cs[0].JobID != testJob(0).ID {
		t.Fatalf("claim after the wake-up = %v, %v; want %s", cs, err, testJob(0).ID)
	}
}

// TestFollowUpCommands pins the Redis commands of a follow-up's store path
// on one server (INFO commandstats, those scripts call included): the
// thread's job 2 (the link and the record in the thread's shard, no search
// of the 16 shards) and FollowUp 13 with the job's thread (its script: one
// HMGET, the clock, the PR link's chunks, one HSET, PERSIST, the link, the
// schedule, the two job lists with their expiry, trimmed by the links
// before, the record back); the same follow-up again 3 (its key seen: the
// record back).
func TestFollowUpCommands(t *testing.T) {
	own := ownRedis(t)
	s := openStore(t, own.URL)
	ctx := t.Context()
	for i := range 2 {
		if err := s.Jobs().LinkJob(ctx, testJob(i), time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	// Load the script (EVAL after EVALSHA's NOSCRIPT).
	if _, err := s.Jobs().FollowUp(ctx, testJob(0), "msg:0", time.Hour); err != nil {
		t.Fatal(err)
	}
	// A Store that claims jobs sends no wake-up for its own polls.
	if _, err := s.Jobs().Claim(ctx, 10, time.Minute); err != nil {
		t.Fatal(err)
	}
	j := testJob(1)
	var got *store.Job
	if n := commandsOf(t, s, func() (err error) { got, err = s.Jobs().JobByThread(ctx, j.Thread); return err }); n != 2 {
		t.Errorf("JobByThread: %d commands, want 2", n)
	}
	var after *store.Job
	if n := commandsOf(t, s, func() (err error) { after, err = s.Jobs().FollowUp(ctx, *got, "msg:1", time.Hour); return err }); n != 13 {
		t.Errorf("FollowUp: %d commands, want 13", n)
	}
	if after.Generation != 2 || after.Status != "active" {
		t.Errorf("after FollowUp: generation %d, status %q; want 2, active", after.Generation, after.Status)
	}
	if n := commandsOf(t, s, func() error { _, err := s.Jobs().FollowUp(ctx, *got, "msg:1", time.Hour); return err }); n != 3 {
		t.Errorf("FollowUp again: %d commands, want 3", n)
	}
	running, err := s.Jobs().RunningJobs(ctx, j.Thread.Team, j.Thread.Channel, 5)
	if err != nil || len(running) != 2 {
		t.Errorf("RunningJobs after the follow-ups: %d, %v; want both jobs", len(running), err)
	}
}
