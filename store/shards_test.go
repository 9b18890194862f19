package store_test

import (
	"context"
	"errors"
	"strconv"
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

// TestLegacyLayout checks a rolling update from the layout before sharding:
// the scheduled job and the queued work of the earlier version are counted,
// moved into their shards by the next claims and taken there; a retained
// job is found by its thread (and moved, keeping its expiry); a redelivery
// of work the earlier version recorded is dropped.
func TestLegacyLayout(t *testing.T) {
	t.Parallel()
	prefix := legacyPrefix(t)
	s := store.New(rdb, store.WithPrefix(prefix))
	ctx := t.Context()
	j, retained, w := testJob(1), testJob(2), work(1)
	writeLegacy(t, prefix, j, retained, w)

	if n := tracked(t, s); n != 1 {
		t.Fatalf("Tracked = %d, want the earlier layout's job counted", n)
	}
	if n, err := s.Queued(ctx); err != nil || n != 1 {
		t.Fatalf("Queued = %d, %v; want the earlier layout's work counted", n, err)
	}
	if queued, err := s.Enqueue(ctx, w, time.Hour); err != nil || queued {
		t.Fatalf("Enqueue of a redelivery = %v, %v; want it dropped", queued, err)
	}

	c := claimOne(t, s, j.ID, time.Minute)
	if c.Job.Thread != j.Thread || c.Job.Prompt != j.Prompt {
		t.Fatalf("claimed %+v, want the record of %s", c.Job, j.ID)
	}
	if err := s.Reschedule(ctx, c, "active", time.Hour); err != nil {
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

	got, err := s.JobByThread(ctx, retained.Thread)
	if err != nil || got.ID != retained.ID || got.Notified != 1 {
		t.Fatalf("JobByThread of a retained job = %+v, %v", got, err)
	}
	for _, k := range []string{jobKey(s, retained), threadKey(s, retained.Thread)} {
		if d := pttl(t, k); d <= 0 || d > time.Hour {
			t.Fatalf("PTTL %s = %v, want the expiry kept", k, d)
		}
	}
	if _, err := s.FollowUp(ctx, retained.ID, "", time.Hour); err != nil {
		t.Fatalf("FollowUp of the moved job: %v", err)
	}

	taken, err := s.ClaimWork(ctx, 10, time.Minute)
	if err != nil || len(taken) != 1 || taken[0].Key != w.Key || string(taken[0].Payload) != string(w.Payload) || taken[0].Attempt != 1 {
		t.Fatalf("ClaimWork = %+v, %v; want the earlier layout's work", taken, err)
	}
	if err := s.Done(ctx, taken[0]); err != nil {
		t.Fatalf("Done: %v", err)
	}
	if n, err := s.Queued(ctx); err != nil || n != 0 {
		t.Fatalf("Queued after Done = %d, %v", n, err)
	}
}

// TestShardsSpread checks that jobs and work spread over the shards, and
// that claims reach every shard: each job is claimed once, in due order
// within a shard, and a claim of max returns max while enough are due.
func TestShardsSpread(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	const jobs = 200
	for i := range jobs {
		link(t, s, testJob(i))
	}
	used := 0
	for _, k := range s.SchedKeys() {
		if rdb.ZCard(ctx, k).Val() > 0 {
			used++
		}
	}
	if used < store.Shards {
		t.Fatalf("%d jobs used %d of %d shards", jobs, used, store.Shards)
	}
	seen := map[string]bool{}
	for len(seen) < jobs {
		cs, err := s.Claim(ctx, 30, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if want := min(30, jobs-len(seen)); len(cs) != want {
			t.Fatalf("Claim(30) = %d jobs with %d due, want %d", len(cs), jobs-len(seen), want)
		}
		for _, c := range cs {
			if seen[c.JobID] {
				t.Fatalf("%s claimed twice", c.JobID)
			}
			seen[c.JobID] = true
		}
	}
	for i := range 50 {
		enqueue(t, s, work(i))
	}
	taken := claimWork(t, s, time.Hour)
	if len(taken) != 50 {
		t.Fatalf("ClaimWork = %d pieces, want 50", len(taken))
	}
}

// TestLinkConflictAcrossShards checks that a job already linked to a thread
// in one shard cannot be linked to a thread of another shard.
func TestLinkConflictAcrossShards(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	j := testJob(1)
	link(t, s, j)
	other := j
	for i := 0; ; i++ {
		other.Thread.TS = "1800000000." + strconv.Itoa(i)
		if s.SchedKeyOf(other.Thread) != s.SchedKeyOf(j.Thread) {
			break
		}
	}
	if err := s.LinkJob(t.Context(), other, 0); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("LinkJob to a thread of another shard = %v, want ErrConflict", err)
	}
	if _, err := s.JobByThread(context.Background(), other.Thread); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("JobByThread(other) = %v, want ErrNotFound", err)
	}
}

// TestNextDueAfterClaim checks NextDue right after a Claim that took
// everything due (answered from the claim's reading) and after this Store
// scheduled a job due now (read again).
func TestNextDueAfterClaim(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	link(t, s, testJob(1))
	if err := s.LinkJob(ctx, testJob(2), time.Hour); err != nil {
		t.Fatal(err)
	}
	claimOne(t, s, "job-1", 2*time.Hour)
	wait, ok, err := s.NextDue(ctx)
	if err != nil || !ok || wait < 59*time.Minute || wait > time.Hour {
		t.Fatalf("NextDue after the claim = %v, %v, %v; want job-2 in about an hour", wait, ok, err)
	}
	link(t, s, testJob(3))
	if wait, ok, err := s.NextDue(ctx); err != nil || !ok || wait != 0 {
		t.Fatalf("NextDue after linking a job due now = %v, %v, %v; want 0", wait, ok, err)
	}
}
