package store

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// checkKeyTTL bounds the life of Check's probe key, should the delete fail.
const checkKeyTTL = 30 * time.Second

// Report is what Check found out about a Redis that works.
type Report struct {
	// Topology is the kind of deployment: standalone, sentinel or cluster.
	Topology Topology
	// Primary is the primary's address the sentinels name (Sentinel).
	Primary string
	// Primaries is the number of primaries (Cluster).
	Primaries int
	// MaxMemory and Policy are Redis's maxmemory and maxmemory-policy, ""
	// when CONFIG GET is refused (as managed services often do).
	MaxMemory, Policy string
}

// Evicts reports whether Redis may evict docsbot's keys when full: a memory
// limit with a policy other than noeviction.
func (r Report) Evicts() bool {
	return r.MaxMemory != "" && r.MaxMemory != "0" && r.Policy != "noeviction"
}

// CheckError says which step of Check failed. Err is classified (errors.Is
// with ErrUnreachable, ErrAuth, ErrNoPerm, ...) and carries no password.
type CheckError struct {
	// Step is what had worked and what failed, such as "PING ok, write refused".
	Step string
	Err  error
}

func (e *CheckError) Error() string { return e.Step + ": " + e.Err.Error() }
func (e *CheckError) Unwrap() error { return e.Err }

// ErrMismatch is the cause of a CheckError when the probe key was read back
// with another value: another program rewrites docsbot's keys.
var ErrMismatch = errors.New("the key written was read back with another value")

// Check connects to the Redis at redisURL as Open does and tries what
// docsbot needs with real commands: PING, then SET, GET and DEL of a probe
// key under prefix that expires by itself, and, when CONFIG GET is allowed,
// reads the memory policy. A URL that does not parse gives ErrBadURL; a
// failed step gives a *CheckError.
func Check(ctx context.Context, redisURL, prefix string) (Report, error) {
	red := redactURL(redisURL)
	rdb, err := newClient(redisURL)
	if err != nil {
		return Report{}, &kindError{kind: ErrBadURL, err: red.clean(err)}
	}
	defer rdb.Close()
	step := func(name string, err error) error {
		return &CheckError{Step: name, Err: red.clean(err)}
	}
	if err := rdb.Ping(ctx).Err(); err != nil {
		return Report{}, step("PING failed", err)
	}
	key, value := prefix+"doctor:"+rand.Text(), rand.Text()
	if err := rdb.Set(ctx, key, value, checkKeyTTL).Err(); err != nil {
		return Report{}, step("PING ok, write refused", err)
	}
	got, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return Report{}, step("PING ok, write ok, read back failed", err)
	}
	if err := rdb.Del(ctx, key).Err(); err != nil {
		return Report{}, step("PING ok, write ok, delete refused", err)
	}
	if got != value {
		return Report{}, &CheckError{Step: "PING ok, write ok", Err: ErrMismatch}
	}
	rep := Report{Topology: TopologyOf(redisURL)}
	switch c := rdb.(type) {
	case *redis.ClusterClient:
		var mu sync.Mutex
		_ = c.ForEachMaster(ctx, func(context.Context, *redis.Client) error {
			mu.Lock()
			rep.Primaries++
			mu.Unlock()
			return nil
		})
	case *redis.Client:
		if rep.Topology == Sentinel {
			rep.Primary = sentinelPrimary(ctx, redisURL)
		}
	}
	conf, err := rdb.ConfigGet(ctx, "maxmemory*").Result()
	if err != nil {
		return rep, nil
	}
	rep.MaxMemory, rep.Policy = conf["maxmemory"], conf["maxmemory-policy"]
	return rep, nil
}

// sentinelPrimary asks the sentinels of redisURL for the primary's address,
// "" if none answers.
func sentinelPrimary(ctx context.Context, redisURL string) string {
	o, err := redis.ParseFailoverURL(redisURL)
	if err != nil {
		return ""
	}
	for _, a := range o.SentinelAddrs {
		sc := redis.NewSentinelClient(&redis.Options{Addr: a, Username: o.SentinelUsername, Password: o.SentinelPassword, TLSConfig: o.TLSConfig})
		addr, err := sc.GetMasterAddrByName(ctx, o.MasterName).Result()
		sc.Close()
		if err == nil && len(addr) == 2 {
			return addr[0] + ":" + addr[1]
		}
	}
	return ""
}

// DeletePrefix deletes every key that starts with prefix, in batches (SCAN
// and UNLINK), and returns how many it deleted. The prefix must not be
// empty.
func (s *Store) DeletePrefix(ctx context.Context, prefix string) (int, error) {
	if prefix == "" {
		return 0, fmt.Errorf("store: delete prefix: empty prefix: %w", ErrInvalid)
	}
	// A cluster scans node by node: SCAN covers one node's keys.
	if cc, ok := s.rdb.(*redis.ClusterClient); ok {
		var mu sync.Mutex
		total := 0
		err := cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			n, err := deleteScanned(ctx, node, prefix)
			mu.Lock()
			total += n
			mu.Unlock()
			return err
		})
		return total, err
	}
	return deleteScanned(ctx, s.rdb, prefix)
}

// deleteScanned deletes the keys under prefix that SCAN finds on rdb.
func deleteScanned(ctx context.Context, rdb redis.Cmdable, prefix string) (int, error) {
	n := 0
	iter := rdb.Scan(ctx, 0, escapeGlob(prefix)+"*", 500).Iterator()
	batch := make([]string, 0, 500)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		// One key a command, pipelined: on a cluster the keys of a batch
		// may lie in different slots.
		pipe := rdb.Pipeline()
		for _, k := range batch {
			pipe.Unlink(ctx, k)
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return wrapErr(err, "store: delete prefix %q", prefix)
		}
		n += len(batch)
		batch = batch[:0]
		return nil
	}
	for iter.Next(ctx) {
		batch = append(batch, iter.Val())
		if len(batch) == cap(batch) {
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
	if err := iter.Err(); err != nil {
		return n, wrapErr(err, "store: delete prefix %q", prefix)
	}
	return n, flush()
}

// escapeGlob escapes the characters SCAN's MATCH pattern gives a meaning.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SetClientLogger sends the log lines of the Redis client library (go-redis
// logs pool and connection trouble through one process-wide logger) to log,
// at warning level, so that JSON logs stay JSON. Call it once, at start.
func SetClientLogger(log *slog.Logger) { redis.SetLogger(clientLog{log}) }

type clientLog struct{ log *slog.Logger }

func (l clientLog) Printf(ctx context.Context, format string, v ...any) {
	l.log.WarnContext(ctx, "redis client: "+fmt.Sprintf(format, v...))
}
