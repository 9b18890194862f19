package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Stats is what the load tool (docsbot-load) measures of the Redis docsbot
// uses: the poll lag, the server's memory, calls and CPU, and a job's
// memory. It reads and never writes.
type Stats struct{ s *Store }

// Stats returns the Store's measures.
func (s *Store) Stats() Stats { return Stats{s} }

// Lag returns how long the earliest scheduled job is past its due time, by
// the Redis clock (0 when it is not due yet), and ok=false when nothing is
// scheduled: the poll lag as seen from outside the replicas.
func (m Stats) Lag(ctx context.Context) (lag time.Duration, ok bool, err error) {
	s := m.s
	p, err := s.peekShards(ctx, s.schedKey)
	if err != nil {
		return 0, false, wrapErr(err, "store: lag")
	}
	first, ok := p.earliest()
	if !ok {
		return 0, false, nil
	}
	return time.Duration(max(p.now-first, 0)) * time.Millisecond, true, nil
}

// UsedMemory returns Redis's used_memory (INFO memory), in bytes: summed
// over the primaries of a cluster.
func (m Stats) UsedMemory(ctx context.Context) (int64, error) {
	ss, err := m.ServerStats(ctx)
	return ss.UsedMemory, err
}

// ServerStats is what INFO says about the Redis docsbot uses, summed over
// the primaries of a cluster: what the load tool measures.
type ServerStats struct {
	// Nodes is the number of servers summed (the primaries of a cluster).
	Nodes int
	// UsedMemory is used_memory, in bytes.
	UsedMemory int64
	// Calls is the sum of the calls of every command (INFO commandstats),
	// the commands that scripts run included.
	Calls int64
	// CPU is used_cpu_user plus used_cpu_sys.
	CPU time.Duration
	// ByCommand is the calls of each command, by its lower-case name
	// (cmdstat_<name>): Calls is their sum.
	ByCommand map[string]int64
}

// ServerStats reads INFO memory, commandstats and cpu of the server, or of
// every primary of a cluster, and sums them.
func (m Stats) ServerStats(ctx context.Context) (ServerStats, error) {
	s := m.s
	var (
		mu  sync.Mutex
		sum ServerStats
	)
	add := func(ctx context.Context, c redis.Cmdable) error {
		info, err := c.Info(ctx, "memory", "commandstats", "cpu").Result()
		if err != nil {
			return wrapErr(err, "store: INFO")
		}
		st, err := parseInfo(info)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		sum.Nodes++
		sum.UsedMemory += st.UsedMemory
		sum.Calls += st.Calls
		sum.CPU += st.CPU
		if sum.ByCommand == nil {
			sum.ByCommand = map[string]int64{}
		}
		for k, v := range st.ByCommand {
			sum.ByCommand[k] += v
		}
		return nil
	}
	var err error
	if cc, ok := s.rdb.(*redis.ClusterClient); ok {
		err = cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error { return add(ctx, node) })
	} else {
		err = add(ctx, s.rdb)
	}
	return sum, err
}

// parseInfo reads used_memory, the calls of every cmdstat_ line and the CPU
// seconds of an INFO reply.
func parseInfo(info string) (ServerStats, error) {
	st := ServerStats{ByCommand: map[string]int64{}}
	seen := false
	for line := range strings.SplitSeq(info, "\r\n") {
		name, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch {
		case name == "used_memory":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return st, fmt.Errorf("store: INFO memory: used_memory: %w", err)
			}
			st.UsedMemory, seen = n, true
		case name == "used_cpu_user" || name == "used_cpu_sys":
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return st, fmt.Errorf("store: INFO cpu: %s: %w", name, err)
			}
			st.CPU += time.Duration(f * float64(time.Second))
		case strings.HasPrefix(name, "cmdstat_"):
			calls, _, _ := strings.Cut(strings.TrimPrefix(v, "calls="), ",")
			n, err := strconv.ParseInt(calls, 10, 64)
			if err != nil {
				return st, fmt.Errorf("store: INFO commandstats: %s: %w", name, err)
			}
			st.Calls += n
			st.ByCommand[strings.TrimPrefix(name, "cmdstat_")] += n
		}
	}
	if !seen {
		return st, errors.New("store: INFO memory has no used_memory")
	}
	return st, nil
}

// JobMemory returns the average Redis memory of the given jobs (MEMORY USAGE
// of each record and thread link), plus each job's share of the schedule
// among tracked jobs.
func (m Stats) JobMemory(ctx context.Context, jobs []Job, tracked int64) (float64, error) {
	s := m.s
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
