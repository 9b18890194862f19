package store_test

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/docsbot/docsbot/store"
)

// writeLegacy writes keys as the version before the sharded layout did:
// one schedule and one inbox under the prefix, records and links beside
// them. j is scheduled due now; retained is finished and reported, its
// record and link expiring; w waits in the inbox.
func writeLegacy(t *testing.T, prefix string, j, retained store.Job, w store.Work) {
	t.Helper()
	ctx := t.Context()
	now := time.Now().UnixMilli()
	pipe := rdb.TxPipeline()
	for _, job := range []store.Job{j, retained} {
		th := job.Thread
		pipe.HSet(ctx, prefix+"job:"+job.ID, "t", th.Team, "c", th.Channel, "s", th.TS, "r", job.Requester,
			"p0", job.Prompt, "st", job.Status, "g", 1, "n", 0, "na", 0, "pl", 0, "tk", 0, "ca", now, "ua", now)
		pipe.Set(ctx, prefix+"thread:"+th.Team+":"+th.Channel+":"+th.TS, job.ID, 0)
	}
	pipe.ZAdd(ctx, prefix+"sched", redis.Z{Score: float64(now - 1000), Member: j.ID})
	pipe.HSet(ctx, prefix+"job:"+retained.ID, "n", 1, "st", "completed")
	pipe.PExpire(ctx, prefix+"job:"+retained.ID, time.Hour)
	th := retained.Thread
	pipe.PExpire(ctx, prefix+"thread:"+th.Team+":"+th.Channel+":"+th.TS, time.Hour)
	pipe.HSet(ctx, prefix+"in:"+w.Key, "k", w.Kind, "d", w.Payload, "rt", now, "kp", 3600000, "tk", 0, "at", 0)
	pipe.ZAdd(ctx, prefix+"inbox", redis.Z{Score: float64(now), Member: w.Key})
	if _, err := pipe.Exec(ctx); err != nil {
		t.Fatalf("writing the earlier layout: %v", err)
	}
}

// legacyPrefix is a prefix under which the earlier layout can exist: any on
// one server or Sentinel, a hash-tagged one on a cluster (the only kind the
// earlier version ran with there).
func legacyPrefix(t *testing.T) string {
	p := testPrefix(t)
	if topology == "cluster" {
		return "{" + p[:len(p)-1] + "}:"
	}
	return p
}

// TestLegacyLayout checks an update from the layout before sharding: after
// Upgrade (which docsbot migrate and a replica's first claim run), the
// scheduled job and the queued work of the earlier version are counted,
// claimed and taken from their shards; a retained job is found by its
// thread (moved, keeping its expiry); a redelivery of work the earlier
// version recorded is dropped; nothing of the earlier layout is left.
func TestLegacyLayout(t *testing.T) {
	t.Parallel()
	prefix := legacyPrefix(t)
	s := store.New(rdb, store.WithPrefix(prefix))
	ctx := t.Context()
	j, retained, w := testJob(1), testJob(2), work(1)
	writeLegacy(t, prefix, j, retained, w)
	if up, err := s.Upgrade(ctx); err != nil || up != (store.Upgraded{Jobs: 2, Work: 1}) {
		t.Fatalf("Upgrade = %+v, %v; want 2 jobs and 1 piece of work moved", up, err)
	}

	if n := tracked(t, s); n != 1 {
		t.Fatalf("Tracked = %d, want the earlier layout's job counted", n)
	}
	if n, err := s.Inbox().Queued(ctx); err != nil || n != 1 {
		t.Fatalf("Queued = %d, %v; want the earlier layout's work counted", n, err)
	}
	if queued, err := s.Inbox().Enqueue(ctx, w, time.Hour); err != nil || queued {
		t.Fatalf("Enqueue of a redelivery = %v, %v; want it dropped", queued, err)
	}

	c := claimOne(t, s, j.ID, time.Minute)
	if c.Job.Thread != j.Thread || c.Job.Prompt != j.Prompt {
		t.Fatalf("claimed %+v, want the record of %s", c.Job, j.ID)
	}
	if err := s.Jobs().Reschedule(ctx, c, "active", time.Hour); err != nil {
		t.Fatalf("Reschedule of a moved job: %v", err)
	}
	if !scheduled(t, s, j) || pttl(t, jobKey(s, j)) != -1 {
		t.Fatal("the moved job is not in its shard's schedule")
	}
	for _, k := range []string{prefix + "job:" + j.ID, prefix + "sched"} {
		if rdb.Exists(ctx, k).Val() != 0 {
			t.Fatalf("%s of the earlier layout is still there", k)
		}
	}

	got, err := s.Jobs().JobByThread(ctx, retained.Thread)
	if err != nil || got.ID != retained.ID || got.Notified != 1 {
		t.Fatalf("JobByThread of a retained job = %+v, %v", got, err)
	}
	for _, k := range []string{jobKey(s, retained), threadKey(s, retained.Thread)} {
		if d := pttl(t, k); d <= 0 || d > time.Hour {
			t.Fatalf("PTTL %s = %v, want the expiry kept", k, d)
		}
	}
	if _, err := s.Jobs().FollowUp(ctx, retained.ID, "", time.Hour); err != nil {
		t.Fatalf("FollowUp of the moved job: %v", err)
	}

	taken, err := s.Inbox().ClaimWork(ctx, 10, time.Minute)
	if err != nil || len(taken) != 1 || taken[0].Key != w.Key || string(taken[0].Payload) != string(w.Payload) || taken[0].Attempt != 1 {
		t.Fatalf("ClaimWork = %+v, %v; want the earlier layout's work", taken, err)
	}
	if err := s.Inbox().Done(ctx, taken[0]); err != nil {
		t.Fatalf("Done: %v", err)
	}
	if n, err := s.Inbox().Queued(ctx); err != nil || n != 0 {
		t.Fatalf("Queued after Done = %d, %v", n, err)
	}
}

// noLegacyKeys fails the test if any key of the earlier layout is left
// under prefix.
func noLegacyKeys(t *testing.T, prefix string, keys ...string) {
	t.Helper()
	for _, k := range append([]string{"sched", "inbox"}, keys...) {
		if rdb.Exists(t.Context(), prefix+k).Val() != 0 {
			t.Errorf("%s of the earlier layout is still there", prefix+k)
		}
	}
}

// legacyKeysOf are the keys writeLegacy writes, after the prefix.
func legacyKeysOf(w store.Work, jobs ...store.Job) []string {
	out := []string{"in:" + w.Key}
	for _, j := range jobs {
		th := j.Thread
		out = append(out, "job:"+j.ID, "thread:"+th.Team+":"+th.Channel+":"+th.TS)
	}
	return out
}

// TestUpgradeOnClaims checks the two ways claims meet the earlier layout:
// a replica's first claim moves all of it before it takes anything, and,
// in a rolling update, replicas of the earlier version that still start
// jobs, queue work and report jobs under the old keys after a replica's
// first claim upgraded are moved by the sweeps of later claims (the sets
// at once, the rest by the scan that seeing the sets in use brings). Either
// way the claim takes the old job, a reply in a retained job's thread finds
// it, and the old work is taken.
func TestUpgradeOnClaims(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts []store.Option
		// upgradedFirst: a first claim ran (and upgraded nothing) before the
		// earlier version wrote.
		upgradedFirst bool
	}{
		{name: "at the first claim"},
		{name: "while earlier replicas write", opts: []store.Option{store.WithSweep(0, 0)}, upgradedFirst: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			prefix := legacyPrefix(t)
			s := store.New(rdb, append([]store.Option{store.WithPrefix(prefix)}, tt.opts...)...)
			ctx := t.Context()
			if tt.upgradedFirst {
				if cs, err := s.Jobs().Claim(ctx, 10, time.Minute); err != nil || len(cs) != 0 {
					t.Fatalf("first Claim = %v, %v; want nothing", ids(cs), err)
				}
			}
			j, retained, w := testJob(1), testJob(2), work(1)
			writeLegacy(t, prefix, j, retained, w)

			claimOne(t, s, j.ID, time.Minute)
			noLegacyKeys(t, prefix, legacyKeysOf(w, j, retained)...)
			if got, err := s.Jobs().JobByThread(ctx, retained.Thread); err != nil || got.ID != retained.ID {
				t.Fatalf("JobByThread of a retained job = %+v, %v", got, err)
			}
			if taken := claimWork(t, s, time.Minute); len(taken) != 1 || taken[0].Key != w.Key {
				t.Fatalf("ClaimWork = %+v; want the earlier layout's work", taken)
			}
		})
	}
}

// TestUpgradeMovesEverything checks what Upgrade counts and keeps: a link
// whose record is gone moves alone, done work moves with its expiry, a key
// of both layouts keeps the new one, and a second Upgrade finds nothing.
func TestUpgradeMovesEverything(t *testing.T) {
	t.Parallel()
	prefix := legacyPrefix(t)
	s := store.New(rdb, store.WithPrefix(prefix))
	ctx := t.Context()
	j, retained, w := testJob(1), testJob(2), work(1)
	writeLegacy(t, prefix, j, retained, w)
	orphan := testJob(3).Thread
	done, both := work(2), work(3)
	enqueue(t, s, both)
	pipe := rdb.TxPipeline()
	pipe.Set(ctx, prefix+"thread:"+orphan.Team+":"+orphan.Channel+":"+orphan.TS, "job-gone", time.Hour)
	pipe.HSet(ctx, prefix+"in:"+done.Key, "k", done.Kind, "d", done.Payload, "tk", 1, "at", 1, "dn", 1)
	pipe.PExpire(ctx, prefix+"in:"+done.Key, time.Hour)
	pipe.HSet(ctx, prefix+"in:"+both.Key, "k", "old.kind", "tk", 7)
	if _, err := pipe.Exec(ctx); err != nil {
		t.Fatal(err)
	}

	if up, err := s.Upgrade(ctx); err != nil || up != (store.Upgraded{Jobs: 2, Links: 1, Work: 2}) {
		t.Fatalf("Upgrade = %+v, %v; want 2 jobs, 1 link and 2 pieces of work moved", up, err)
	}
	noLegacyKeys(t, prefix, append(legacyKeysOf(w, j, retained), "in:"+done.Key, "in:"+both.Key,
		"thread:"+orphan.Team+":"+orphan.Channel+":"+orphan.TS)...)
	if d := pttl(t, s.WorkKeyOf(done.Key)); d <= 0 || d > time.Hour {
		t.Fatalf("PTTL of the moved done work = %v, want its expiry kept", d)
	}
	if k := rdb.HGet(ctx, s.WorkKeyOf(both.Key), "k").Val(); k != both.Kind {
		t.Fatalf("work in both layouts has kind %q, want the new record's %q", k, both.Kind)
	}
	if d := pttl(t, threadKey(s, orphan)); d <= 0 || d > time.Hour {
		t.Fatalf("PTTL of the moved link = %v, want its expiry kept", d)
	}
	if up, err := s.Upgrade(ctx); err != nil || up.Total() != 0 {
		t.Fatalf("second Upgrade = %+v, %v; want nothing moved", up, err)
	}
}

// TestUpgradeNothingToDo checks that on a cluster under a prefix without a
// hash tag, where the earlier version could not run, Upgrade looks for
// nothing.
func TestUpgradeNothingToDo(t *testing.T) {
	t.Parallel()
	if topology != "cluster" {
		t.Skip("the earlier layout can exist on one server and Sentinel")
	}
	s := newStore(t)
	if up, err := s.Upgrade(t.Context()); err != nil || up.Total() != 0 {
		t.Fatalf("Upgrade = %+v, %v; want nothing", up, err)
	}
}
