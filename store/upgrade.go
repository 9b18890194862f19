package store

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// This file is the whole upgrade from the layout before the shards (one
// schedule and one inbox under the prefix): Upgrade, and the sweep that
// claims make while replicas of the earlier version may still write. It is
// removed, with the check of the old work key in Enqueue and docsbot
// migrate, in the release the package doc names ("Keys of the earlier
// layout").

// Keys of the layout before the schedule and inbox were sharded: one set
// each, records and links directly under the prefix.
func (s *Store) legacyJobKey(id string) string { return s.prefix + "job:" + id }
func (s *Store) legacySchedKey() string        { return s.prefix + "sched" }
func (s *Store) legacyInboxKey() string        { return s.prefix + "inbox" }
func (s *Store) legacyWorkKey(key string) string {
	return s.prefix + "in:" + key
}

// upgradedKey is set once an Upgrade went through every key: a Store's
// first sweep then need not scan again.
func (s *Store) upgradedKey() string { return s.prefix + "upgraded" }

// mayHaveLegacy reports whether keys of the earlier layout can exist: the
// earlier version ran on one server (or Sentinel), or on a cluster only with
// a hash-tagged prefix, which also keeps this version's keys in one slot, so
// scripts may touch old and new keys together. On a cluster with an untagged
// prefix the earlier version could not run, and nothing is looked for.
func (s *Store) mayHaveLegacy() bool {
	_, cluster := s.rdb.(*redis.ClusterClient)
	return !cluster || hasHashTag(s.prefix)
}

// Upgraded counts what an Upgrade moved into the shards.
type Upgraded struct {
	// Jobs is the number of job records moved, each with its thread link
	// and schedule entry: scheduled jobs, and reported ones kept for
	// follow-ups.
	Jobs int
	// Links is the number of thread links moved without a record beside
	// them (whose record had been moved or was gone).
	Links int
	// Work is the number of pieces of work moved: queued, or done and kept
	// to drop redeliveries.
	Work int
}

// Total is the number of keys moved.
func (u Upgraded) Total() int { return u.Jobs + u.Links + u.Work }

// Upgrade moves every key of the earlier layout into the shards: the old
// schedule and inbox, due or not (keeping due times, leases and tokens),
// then, found with SCAN, the records, links and work that no set names
// (jobs kept for follow-ups, work kept to drop redeliveries), keeping their
// expiry. Each move is one script, so Upgrade may run while replicas of
// either version claim, and again at any time: what is already moved is
// left alone, a key of both layouts keeps the new one. Where the earlier
// layout cannot exist (a cluster under a prefix without a hash tag) it does
// nothing. docsbot migrate runs it; a serving replica runs it before its
// first claim (see keepUpgraded).
func (s *Store) Upgrade(ctx context.Context) (Upgraded, error) {
	var up Upgraded
	if !s.mayHaveLegacy() {
		return up, nil
	}
	n, err := s.drainLegacyJobs(ctx)
	up.Jobs += n
	if err != nil {
		return up, wrapErr(err, "store: upgrade: the earlier schedule")
	}
	n, err = s.drainLegacyWork(ctx)
	up.Work += n
	if err != nil {
		return up, wrapErr(err, "store: upgrade: the earlier inbox")
	}
	if err := s.scanLegacy(ctx, &up); err != nil {
		return up, wrapErr(err, "store: upgrade: keys of the earlier layout")
	}
	if err := s.rdb.Set(ctx, s.upgradedKey(), "1", 0).Err(); err != nil {
		return up, wrapErr(err, "store: upgrade: mark done")
	}
	s.forgetHeads()
	return up, nil
}

// legacyBatch is how many entries of the earlier layout's sets one read
// takes.
const legacyBatch = 200

// drainLegacyJobs moves every job of the earlier layout's schedule (due or
// not) into its shard, and returns how many records it moved.
func (s *Store) drainLegacyJobs(ctx context.Context) (int, error) {
	moved := 0
	for {
		ids, err := s.rdb.ZRange(ctx, s.legacySchedKey(), 0, legacyBatch-1).Result()
		if err != nil || len(ids) == 0 {
			return moved, err
		}
		for _, id := range ids {
			ok, err := s.moveJob(ctx, id)
			if err != nil {
				return moved, err
			}
			if ok {
				moved++
			}
		}
	}
}

// drainLegacyWork moves every piece of work of the earlier layout's inbox
// into its shard, and returns how many it moved.
func (s *Store) drainLegacyWork(ctx context.Context) (int, error) {
	moved := 0
	for {
		keys, err := s.rdb.ZRange(ctx, s.legacyInboxKey(), 0, legacyBatch-1).Result()
		if err != nil || len(keys) == 0 {
			return moved, err
		}
		for _, k := range keys {
			ok, err := s.moveWork(ctx, k)
			if err != nil {
				return moved, err
			}
			if ok {
				moved++
			}
		}
	}
}

// scanLegacy moves the records, links and work of the earlier layout that
// SCAN finds under the prefix: on a cluster, on every primary (the keys are
// all in the prefix's slot, but SCAN covers one node).
func (s *Store) scanLegacy(ctx context.Context, up *Upgraded) error {
	var mu sync.Mutex
	scan := func(ctx context.Context, c redis.Cmdable) error {
		// One pass for the three kinds (job:, thread:, in:); the pattern
		// only keeps the other keys off the wire, each key is checked below.
		iter := c.Scan(ctx, 0, escapeGlob(s.prefix)+"[jti][ohn]*", 1000).Iterator()
		for iter.Next(ctx) {
			rest := strings.TrimPrefix(iter.Val(), s.prefix)
			var n *int
			var ok bool
			var err error
			if id, isJob := strings.CutPrefix(rest, "job:"); isJob {
				n = &up.Jobs
				ok, err = s.moveJob(ctx, id)
			} else if t, isLink := legacyThread(rest); isLink {
				n = &up.Links
				var withJob bool
				if withJob, ok, err = s.moveLink(ctx, t); withJob {
					n = &up.Jobs
				}
			} else if key, isWork := strings.CutPrefix(rest, "in:"); isWork {
				n = &up.Work
				ok, err = s.moveWork(ctx, key)
			} else {
				continue
			}
			if err != nil {
				return err
			}
			if ok {
				mu.Lock()
				*n++
				mu.Unlock()
			}
		}
		return iter.Err()
	}
	if cc, ok := s.rdb.(*redis.ClusterClient); ok {
		return cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error { return scan(ctx, node) })
	}
	return scan(ctx, s.rdb)
}

// legacyThread reads the thread of a link key of the earlier layout (after
// the prefix): "thread:<team>:<channel>:<ts>".
func legacyThread(rest string) (Thread, bool) {
	v, ok := strings.CutPrefix(rest, "thread:")
	if !ok {
		return Thread{}, false
	}
	parts := strings.SplitN(v, ":", 3)
	if len(parts) != 3 {
		return Thread{}, false
	}
	t := Thread{Team: parts[0], Channel: parts[1], TS: parts[2]}
	return t, t.valid()
}

// moveJob moves job id of the earlier layout (record, thread link, schedule
// entry) into its thread's shard, in one script, and reports whether there
// was a record to move. A schedule entry without a record is dropped, and
// so is a record that names no thread: nothing can reach it.
func (s *Store) moveJob(ctx context.Context, id string) (bool, error) {
	f, err := s.rdb.HMGet(ctx, s.legacyJobKey(id), fTeam, fChannel, fTS).Result()
	if err != nil {
		return false, err
	}
	keys := []string{s.legacyJobKey(id), s.legacySchedKey()}
	newPrefix := ""
	if t, ok := threadOf(f); ok {
		i := threadShard(t)
		keys, newPrefix = append(keys, s.jobKeyIn(i, id), s.schedKey(i)), s.shardPrefix(i)
	}
	n, err := s.sc.moveJob.Run(ctx, s.rdb, keys, s.prefix, newPrefix, id).Int()
	return n == 1, err
}

// threadOf reads an HMGET of the thread fields.
func threadOf(f []any) (Thread, bool) {
	var t Thread
	var ok1, ok2, ok3 bool
	if len(f) == 3 {
		t.Team, ok1 = f[0].(string)
		t.Channel, ok2 = f[1].(string)
		t.TS, ok3 = f[2].(string)
	}
	return t, ok1 && ok2 && ok3 && t.valid()
}

// moveWork moves a piece of work of the earlier layout (record and inbox
// entry) into its shard, and reports whether there was a record to move.
func (s *Store) moveWork(ctx context.Context, key string) (bool, error) {
	i := shardOf(key)
	n, err := s.sc.moveWork.Run(ctx, s.rdb,
		[]string{s.legacyWorkKey(key), s.legacyInboxKey(), s.workKeyIn(i, key), s.inboxKey(i)}, key).Int()
	return n == 1, err
}

// moveLink moves a thread link of the earlier layout into its shard: with
// its job (withJob) when the job's record is still in the earlier layout
// too, else alone. It reports whether it moved something.
func (s *Store) moveLink(ctx context.Context, t Thread) (withJob, moved bool, err error) {
	old := s.prefix + "thread:" + t.Team + ":" + t.Channel + ":" + t.TS
	id, err := s.rdb.Get(ctx, old).Result()
	if errors.Is(err, redis.Nil) {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	n, err := s.rdb.Exists(ctx, s.legacyJobKey(id)).Result()
	if err != nil {
		return false, false, err
	}
	if n == 1 {
		moved, err := s.moveJob(ctx, id)
		return true, moved, err
	}
	n, err = s.sc.moveKey.Run(ctx, s.rdb, []string{old, s.threadKey(t)}).Int64()
	return false, n == 1, err
}

// luaMoveJob: KEYS old record, old schedule[, new record, new schedule];
// ARGV old prefix, new shard prefix, id. Renames the record and its thread
// link into the shard (keeping their expiry) and moves the schedule entry;
// without new keys (the record names no thread) it drops both. Returns 1
// if a record was moved. Only run where old and new keys may be touched
// together (see mayHaveLegacy).
const luaMoveJob = `
local oj, osch, nj, ns = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local oldP, newP, id = ARGV[1], ARGV[2], ARGV[3]
local due = redis.call('ZSCORE', osch, id)
redis.call('ZREM', osch, id)
if redis.call('EXISTS', oj) == 0 then return 0 end
if not nj then
  redis.call('DEL', oj)
  return 0
end
local f = redis.call('HMGET', oj, 't', 'c', 's')
if redis.call('EXISTS', nj) == 0 then
  redis.call('RENAME', oj, nj)
else
  redis.call('DEL', oj)
end
if f[1] and f[2] and f[3] then
  local l = 'thread:' .. f[1] .. ':' .. f[2] .. ':' .. f[3]
  if redis.call('EXISTS', oldP .. l) == 1 then
    if redis.call('EXISTS', newP .. l) == 0 then
      redis.call('RENAME', oldP .. l, newP .. l)
    else
      redis.call('DEL', oldP .. l)
    end
  end
end
if due then redis.call('ZADD', ns, 'NX', due, id) end
return 1
`

// luaMoveWork: KEYS old work, old inbox, new work, new inbox; ARGV key.
// Renames a piece of work of the earlier layout into its shard (keeping its
// expiry; a record already there wins) and moves its inbox entry. Returns 1
// if a record was moved.
const luaMoveWork = `
local ow, oi, nw, ni, key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1]
local due = redis.call('ZSCORE', oi, key)
redis.call('ZREM', oi, key)
local moved = 0
if redis.call('EXISTS', ow) == 1 then
  if redis.call('EXISTS', nw) == 0 then
    redis.call('RENAME', ow, nw)
    moved = 1
  else
    redis.call('DEL', ow)
  end
end
if due and redis.call('EXISTS', nw) == 1 then redis.call('ZADD', ni, 'NX', due, key) end
return moved
`

// luaMoveKey: KEYS old, new. Renames old to new (keeping its expiry), or
// drops it when new exists. Returns 1 if it renamed.
const luaMoveKey = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('RENAME', KEYS[1], KEYS[2])
return 1
`

// How often a Store sweeps the earlier layout's sets, and how soon after it
// saw them in use it scans for the rest again (see keepUpgraded).
const (
	sweepEvery  = 5 * time.Second
	rescanAfter = time.Minute
)

// sweeper is a Store's part of the upgrade: whether its first sweep ended,
// and when it sweeps next. Claim and ClaimWork sweep: the one that takes mu
// sweeps and the others go on without waiting, except for the first sweep,
// which every claim waits for.
type sweeper struct {
	mu      sync.Mutex
	started atomic.Bool // the first sweep ended (whatever its outcome)
	next    time.Time   // when the next sweep is due
	scanned time.Time   // when this Store's last Upgrade ended
	seen    bool        // the old sets held entries since that Upgrade
	// every and rescan are sweepEvery and rescanAfter (tests shorten them).
	every, rescan time.Duration
}

// keepUpgraded is what a claim does for the upgrade. The first claim of a
// Store runs Upgrade, unless one already went through every key
// (upgradedKey), and every claim waits for it, so that no handler looks
// for a job before its record is moved. After it, every sweepEvery one
// claim reads the length of the old schedule and inbox (one pipeline) and
// moves what replicas of the earlier version put there since; once it saw
// entries, it runs Upgrade again rescanAfter after the last one, for the
// records those replicas finished with meanwhile (a job reported, work
// done), until a whole interval passes with nothing seen. Any other claim
// costs a lock tried. A failure is logged, not returned: the claim goes
// on, and the sweep is tried again after rescanAfter.
func (s *Store) keepUpgraded(ctx context.Context) {
	if !s.mayHaveLegacy() {
		return
	}
	u := &s.upgrade
	if !u.started.Load() {
		u.mu.Lock()
	} else if !u.mu.TryLock() {
		return
	}
	defer u.mu.Unlock()
	now := time.Now()
	if u.started.Load() && now.Before(u.next) {
		return
	}
	err := s.sweep(ctx, now)
	u.next = now.Add(u.every)
	if err != nil {
		u.next = now.Add(u.rescan)
		if ctx.Err() == nil {
			s.log.Warn("moving keys of the earlier layout failed; claims go on, and it is tried again", "err", err, "in", u.rescan)
		}
	}
	u.started.Store(true)
}

// sweep is one sweep of keepUpgraded, under u.mu.
func (s *Store) sweep(ctx context.Context, now time.Time) error {
	u := &s.upgrade
	if !u.started.Load() {
		done, err := s.rdb.Exists(ctx, s.upgradedKey()).Result()
		if err != nil {
			return wrapErr(err, "store: upgrade: read the mark")
		}
		if done == 0 {
			return s.upgradeNow(ctx, now)
		}
		u.scanned = now
	}
	pipe := s.rdb.Pipeline()
	jobs := pipe.ZCard(ctx, s.legacySchedKey())
	work := pipe.ZCard(ctx, s.legacyInboxKey())
	if _, err := pipe.Exec(ctx); err != nil {
		return wrapErr(err, "store: upgrade: the earlier sets")
	}
	if jobs.Val() > 0 || work.Val() > 0 {
		u.seen = true
		if _, err := s.drainLegacyJobs(ctx); err != nil {
			return wrapErr(err, "store: upgrade: the earlier schedule")
		}
		if _, err := s.drainLegacyWork(ctx); err != nil {
			return wrapErr(err, "store: upgrade: the earlier inbox")
		}
		s.forgetHeads()
	}
	if u.seen && now.Sub(u.scanned) >= u.rescan {
		return s.upgradeNow(ctx, now)
	}
	return nil
}

// upgradeNow runs Upgrade for a sweep and logs what it moved.
func (s *Store) upgradeNow(ctx context.Context, now time.Time) error {
	up, err := s.Upgrade(ctx)
	if up.Total() > 0 {
		s.log.Info("moved keys of the earlier layout into the shards", "jobs", up.Jobs, "links", up.Links, "work", up.Work)
	}
	if err != nil {
		return err
	}
	s.upgrade.scanned, s.upgrade.seen = now, false
	return nil
}
