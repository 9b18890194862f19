package store

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Shards is the number of parts the poll schedule and the inbox are split
// into. Each part, with the records and thread links it schedules, lives
// under its own hash tag, so that on a Redis Cluster every script touches a
// single slot and the parts spread over the primaries. It is fixed: every
// replica of an installation must agree on it.
const Shards = 16

// shardTag is the hash tag of shard i, after the prefix: "{s7}:".
func shardTag(i int) string { return "{s" + strconv.Itoa(i) + "}:" }

// shardPrefix is the prefix of every key of shard i: "docsbot:{s7}:".
func (s *Store) shardPrefix(i int) string { return s.prefix + shardTag(i) }

// shardOf places a string (a thread, a work key) in a shard.
func shardOf(key string) int { return int(crc32.ChecksumIEEE([]byte(key)) % Shards) }

// threadShard is the shard of the jobs linked to thread t: the record, the
// link and the schedule entry of a job are all in its thread's shard.
func threadShard(t Thread) int { return shardOf(t.Team + ":" + t.Channel + ":" + t.TS) }

// Key names.
func (s *Store) jobKeyIn(i int, id string) string { return s.shardPrefix(i) + "job:" + id }
func (s *Store) schedKey(i int) string            { return s.shardPrefix(i) + "sched" }
func (s *Store) threadKey(t Thread) string {
	return s.shardPrefix(threadShard(t)) + "thread:" + t.Team + ":" + t.Channel + ":" + t.TS
}

// hasHashTag reports whether key has a hash tag: a "{" followed, later, by
// a "}" with something in between. Redis Cluster then places the key by
// the first such tag alone.
func hasHashTag(key string) bool {
	open := strings.IndexByte(key, '{')
	if open < 0 {
		return false
	}
	end := strings.IndexByte(key[open+1:], '}')
	return end > 0
}

// Keys of the layout before the schedule and inbox were sharded: one set
// each, records and links directly under the prefix.
func (s *Store) legacyJobKey(id string) string { return s.prefix + "job:" + id }
func (s *Store) legacySchedKey() string        { return s.prefix + "sched" }
func (s *Store) legacyInboxKey() string        { return s.prefix + "inbox" }
func (s *Store) legacyWorkKey(key string) string {
	return s.prefix + "in:" + key
}

// mayHaveLegacy reports whether keys of the earlier layout can exist: the
// earlier version ran on one server (or Sentinel), or on a cluster only with
// a hash-tagged prefix, which also keeps this version's keys in one slot, so
// scripts may touch old and new keys together. On a cluster with an untagged
// prefix the earlier version could not run, and nothing is looked for.
func (s *Store) mayHaveLegacy() bool {
	_, cluster := s.rdb.(*redis.ClusterClient)
	return !cluster || hasHashTag(s.prefix)
}

// peek is the Redis clock and, per shard of a schedule, the earliest due
// time (math.MaxInt64 when the shard is empty), read in one pipeline; legacy
// is how many entries the set of the earlier layout still holds.
type peek struct {
	now    int64
	first  [Shards]int64
	legacy int64
}

// earliest returns the smallest due time of all shards.
func (p *peek) earliest() (int64, bool) {
	m := int64(math.MaxInt64)
	for _, f := range p.first {
		m = min(m, f)
	}
	return m, m != math.MaxInt64
}

// peekShards reads the head of each shard of a schedule (key(i)) and the
// Redis clock.
func (s *Store) peekShards(ctx context.Context, key func(int) string, legacyKey string) (*peek, error) {
	pipe := s.rdb.Pipeline()
	heads := make([]*redis.ZSliceCmd, Shards)
	for i := range heads {
		heads[i] = pipe.ZRangeWithScores(ctx, key(i), 0, 0)
	}
	now := pipe.Time(ctx)
	var old *redis.IntCmd
	if s.mayHaveLegacy() {
		old = pipe.ZCard(ctx, legacyKey)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, err
	}
	p := &peek{now: now.Val().UnixMilli()}
	for i, h := range heads {
		p.first[i] = math.MaxInt64
		if z := h.Val(); len(z) > 0 {
			p.first[i] = int64(z[0].Score)
		}
	}
	if old != nil {
		p.legacy = old.Val()
	}
	return p, nil
}

// schedule names one sharded schedule: the poll schedule or the inbox.
type schedule struct {
	key    func(shard int) string
	legacy string                          // the set of the earlier layout
	drain  func(ctx context.Context) error // moves entries of legacy into the shards
	record string                          // the records' key, after the shard's prefix
}

// claimDue claims up to limit due entries of sc: it peeks at every shard in
// one pipeline (moving entries of the earlier layout first, if any), then
// runs the claim script on the shards with due entries, starting at a
// rotating shard, until it has limit. It returns the script's entries and
// how long until the next entry is due afterwards (-1: none), in ms.
func (s *Store) claimDue(ctx context.Context, sc schedule, limit int, lease time.Duration, count string) ([]any, int64, error) {
	p, err := s.peekShards(ctx, sc.key, sc.legacy)
	if err != nil {
		return nil, 0, err
	}
	if p.legacy > 0 {
		if err := sc.drain(ctx); err != nil {
			return nil, 0, fmt.Errorf("moving entries of the earlier layout: %w", err)
		}
		if p, err = s.peekShards(ctx, sc.key, sc.legacy); err != nil {
			return nil, 0, err
		}
	}
	var items []any
	for _, i := range s.dueOrder(p) {
		res, err := s.sc.claim.Run(ctx, s.rdb, []string{sc.key(i)},
			s.shardPrefix(i), s.shardPrefix(i)+sc.record, limit-len(items), millis(lease), count).Slice()
		if err != nil {
			return nil, 0, err
		}
		if len(res) != 3 {
			return nil, 0, fmt.Errorf("unexpected claim reply %v", res)
		}
		got, _ := res[0].([]any)
		items = append(items, got...)
		next, _ := res[1].(int64)
		p.now, _ = res[2].(int64)
		p.first[i] = math.MaxInt64
		if next >= 0 {
			p.first[i] = next
		}
		if len(items) >= limit {
			break
		}
	}
	first, ok := p.earliest()
	if !ok {
		return items, -1, nil
	}
	return items, max(first-p.now, 0), nil
}

// hintFresh is how long NextDue trusts what the last Claim read.
const hintFresh = 50 * time.Millisecond

// dropHint forgets what the last Claim read: this Store changed the
// schedule since.
func (s *Store) dropHint() {
	s.hint.Lock()
	s.hint.at = time.Time{}
	s.hint.gen++
	s.hint.Unlock()
}

// dueOrder lists the shards with something due, starting after a rotating
// cursor so that replicas and calls spread over the shards.
func (s *Store) dueOrder(p *peek) []int {
	start := int(s.cursor.Add(1) % Shards)
	var out []int
	for k := range Shards {
		i := (start + k) % Shards
		if p.first[i] <= p.now {
			out = append(out, i)
		}
	}
	return out
}

// countShards sums ZCARD over the shards of a schedule (and the earlier
// layout's set, while it may hold entries).
func (s *Store) countShards(ctx context.Context, key func(int) string, legacyKey string) (int64, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.IntCmd, 0, Shards+1)
	for i := range Shards {
		cmds = append(cmds, pipe.ZCard(ctx, key(i)))
	}
	if s.mayHaveLegacy() {
		cmds = append(cmds, pipe.ZCard(ctx, legacyKey))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, err
	}
	var n int64
	for _, c := range cmds {
		n += c.Val()
	}
	return n, nil
}

// findJob returns the shard holding job id's record, or -1. A record of the
// earlier layout is moved into its shard first.
func (s *Store) findJob(ctx context.Context, id string) (int, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.IntCmd, Shards)
	for i := range cmds {
		cmds[i] = pipe.Exists(ctx, s.jobKeyIn(i, id))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return -1, err
	}
	for i, c := range cmds {
		if c.Val() == 1 {
			return i, nil
		}
	}
	if !s.mayHaveLegacy() {
		return -1, nil
	}
	return s.moveJob(ctx, id)
}

// legacyBatch is how many entries of the earlier layout's sets one claim
// moves into the shards.
const legacyBatch = 200

// drainLegacyJobs moves up to legacyBatch jobs of the earlier layout's
// schedule (due or not) into their shards.
func (s *Store) drainLegacyJobs(ctx context.Context) error {
	ids, err := s.rdb.ZRange(ctx, s.legacySchedKey(), 0, legacyBatch-1).Result()
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := s.moveJob(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// moveJob moves job id of the earlier layout (record, thread link, schedule
// entry) into its thread's shard, in one script, and returns the shard, or
// -1 when there was no record (its schedule entry is then dropped).
func (s *Store) moveJob(ctx context.Context, id string) (int, error) {
	f, err := s.rdb.HMGet(ctx, s.legacyJobKey(id), fTeam, fChannel, fTS).Result()
	if err != nil {
		return -1, err
	}
	i := -1
	if t, ok := threadOf(f); ok {
		i = threadShard(t)
	}
	newJob, newSched, newPrefix := "", "", ""
	if i >= 0 {
		newJob, newSched, newPrefix = s.jobKeyIn(i, id), s.schedKey(i), s.shardPrefix(i)
	}
	keys := []string{s.legacyJobKey(id), s.legacySchedKey()}
	if i >= 0 {
		keys = append(keys, newJob, newSched)
	}
	if err := s.sc.moveJob.Run(ctx, s.rdb, keys, s.prefix, newPrefix, id).Err(); err != nil {
		return -1, err
	}
	return i, nil
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

// drainLegacyWork moves up to legacyBatch pieces of work of the earlier
// layout's inbox into their shards.
func (s *Store) drainLegacyWork(ctx context.Context) error {
	keys, err := s.rdb.ZRange(ctx, s.legacyInboxKey(), 0, legacyBatch-1).Result()
	if err != nil {
		return err
	}
	for _, k := range keys {
		i := shardOf(k)
		err := s.sc.moveWork.Run(ctx, s.rdb,
			[]string{s.legacyWorkKey(k), s.legacyInboxKey(), s.workKeyIn(i, k), s.inboxKey(i)}, k).Err()
		if err != nil {
			return err
		}
	}
	return nil
}

// legacyLink returns the job id of thread t's link in the earlier layout.
func (s *Store) legacyLink(ctx context.Context, t Thread) (string, bool, error) {
	id, err := s.rdb.Get(ctx, s.prefix+"thread:"+t.Team+":"+t.Channel+":"+t.TS).Result()
	if errors.Is(err, redis.Nil) {
		return "", false, nil
	}
	return id, err == nil, err
}

// luaMoveJob: KEYS old record, old schedule[, new record, new schedule];
// ARGV old prefix, new shard prefix, id. Renames the record and its thread
// link into the shard (keeping their expiry) and moves the schedule entry.
// Only run where old and new keys may be touched together (see
// mayHaveLegacy).
const luaMoveJob = `
local oj, osch, nj, ns = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local oldP, newP, id = ARGV[1], ARGV[2], ARGV[3]
local due = redis.call('ZSCORE', osch, id)
redis.call('ZREM', osch, id)
if not nj or redis.call('EXISTS', oj) == 0 then return 0 end
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
// Renames a piece of work of the earlier layout into its shard and moves its
// inbox entry.
const luaMoveWork = `
local ow, oi, nw, ni, key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1]
local due = redis.call('ZSCORE', oi, key)
redis.call('ZREM', oi, key)
if redis.call('EXISTS', ow) == 1 and redis.call('EXISTS', nw) == 0 then
  redis.call('RENAME', ow, nw)
end
if due and redis.call('EXISTS', nw) == 1 then redis.call('ZADD', ni, 'NX', due, key) end
return 0
`
