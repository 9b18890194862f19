package store

import (
	"context"
	"fmt"
	"hash/crc32"
	"math"
	"strconv"
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

// peek is the Redis clock and, per shard of a schedule, the earliest due
// time (math.MaxInt64 when the shard is empty), read in one pipeline.
type peek struct {
	now   int64
	first [Shards]int64
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
func (s *Store) peekShards(ctx context.Context, key func(int) string) (*peek, error) {
	pipe := s.rdb.Pipeline()
	heads := make([]*redis.ZSliceCmd, Shards)
	for i := range heads {
		heads[i] = pipe.ZRangeWithScores(ctx, key(i), 0, 0)
	}
	now := pipe.Time(ctx)
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
	return p, nil
}

// claimed is one entry of a claim script's reply, with the script's clock.
type claimed struct {
	v     any
	clock clock
	batch *settleBatch // the jobs' reschedules written together (settle.go)
}

// clock is the Redis clock read by a claim script (unix ms) and when its
// reply came, on this replica's monotonic clock: now reads the Redis clock
// later without asking Redis (see "Claiming at rest" in doc.go).
type clock struct {
	redis int64
	at    time.Time
}

// now is the Redis clock (unix ms) by c, at most the reply's way late; 0
// when c holds nothing (the script then reads TIME).
func (c clock) now() int64 {
	if c.at.IsZero() {
		return 0
	}
	return c.redis + time.Since(c.at).Milliseconds()
}

// schedule names one sharded schedule: the poll schedule or the inbox.
type schedule struct {
	kind   int // schedJobs or schedWork
	key    func(shard int) string
	record string // the records' key, after the shard's prefix
	count  string // the record's field counting its claims: "pl" or "at"
}

// claimDue claims up to limit due entries of sc: it runs the claim script on
// the shards whose head is due by what this Store knows (heads.go; every
// shard is read first when that is lookEvery old), starting at a rotating
// shard, until it has limit. It returns the script's entries.
func (s *Store) claimDue(ctx context.Context, sc schedule, limit int, lease time.Duration) ([]claimed, error) {
	s.heads.claiming[sc.kind].Store(true)
	if err := s.lookIfStale(ctx); err != nil {
		return nil, err
	}
	var items []claimed
	for _, i := range s.dueShards(sc.kind) {
		res, err := s.sc.claim.Run(ctx, s.rdb, []string{sc.key(i)},
			s.shardPrefix(i), s.shardPrefix(i)+sc.record, limit-len(items), millis(lease), sc.count).Slice()
		if err != nil {
			return nil, err
		}
		if len(res) != 3 {
			return nil, fmt.Errorf("unexpected claim reply %v", res)
		}
		got, _ := res[0].([]any)
		next, _ := res[1].(int64)
		now, _ := res[2].(int64)
		at := time.Now()
		var b *settleBatch
		if sc.kind == schedJobs && len(got) > 1 {
			b = s.newSettleBatch(i, len(got))
		}
		for _, v := range got {
			items = append(items, claimed{v: v, clock: clock{redis: now, at: at}, batch: b})
		}
		s.setHead(sc.kind, i, next, now, at)
		if len(items) >= limit {
			break
		}
	}
	return items, nil
}

// countShards sums ZCARD over the shards of a schedule.
func (s *Store) countShards(ctx context.Context, key func(int) string) (int64, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.IntCmd, 0, Shards)
	for i := range Shards {
		cmds = append(cmds, pipe.ZCard(ctx, key(i)))
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

// linkedElsewhere reports whether job id has a record in a shard other than
// i, on a cluster, which cannot take one command over keys of several slots
// (findJob's pipeline); on one server the link script looks itself.
func (s *Store) linkedElsewhere(ctx context.Context, id string, i int) (bool, error) {
	at, err := s.findJob(ctx, id)
	return at >= 0 && at != i, err
}

// findJob returns the shard holding job id's record, or -1.
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
	return -1, nil
}
