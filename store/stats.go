package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Lag returns how long the earliest scheduled job is past its due time, by
// the Redis clock (0 when it is not due yet), and ok=false when nothing is
// scheduled: the poll lag as seen from outside the replicas.
func (s *Store) Lag(ctx context.Context) (lag time.Duration, ok bool, err error) {
	p, err := s.peekShards(ctx, s.schedKey, s.legacySchedKey())
	if err != nil {
		return 0, false, wrapErr(err, "store: lag")
	}
	first, ok := p.earliest()
	if !ok {
		return 0, false, nil
	}
	return time.Duration(max(p.now-first, 0)) * time.Millisecond, true, nil
}

// UsedMemory returns Redis's used_memory (INFO memory), in bytes.
func (s *Store) UsedMemory(ctx context.Context) (int64, error) {
	info, err := s.rdb.Info(ctx, "memory").Result()
	if err != nil {
		return 0, wrapErr(err, "store: INFO memory")
	}
	for line := range strings.SplitSeq(info, "\r\n") {
		if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return 0, fmt.Errorf("store: INFO memory: used_memory: %w", err)
			}
			return n, nil
		}
	}
	return 0, errors.New("store: INFO memory has no used_memory")
}

// JobMemory returns the average Redis memory of the given jobs (MEMORY USAGE
// of each record and thread link), plus each job's share of the schedule
// among tracked jobs.
func (s *Store) JobMemory(ctx context.Context, jobs []Job, tracked int64) (float64, error) {
	if len(jobs) == 0 || tracked <= 0 {
		return 0, nil
	}
	var sum int64
	for _, j := range jobs {
		for _, k := range []string{s.jobKeyIn(threadShard(j.Thread), j.ID), s.threadKey(j.Thread)} {
			b, err := s.rdb.MemoryUsage(ctx, k, 0).Result()
			if err != nil {
				return 0, wrapErr(err, "store: MEMORY USAGE %s", k)
			}
			sum += b
		}
	}
	var sched int64
	for i := range Shards {
		b, err := s.rdb.MemoryUsage(ctx, s.schedKey(i), 0).Result()
		if errors.Is(err, redis.Nil) {
			continue // an empty shard
		}
		if err != nil {
			return 0, wrapErr(err, "store: MEMORY USAGE of the schedule")
		}
		sched += b
	}
	return float64(sum)/float64(len(jobs)) + float64(sched)/float64(tracked), nil
}
