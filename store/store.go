package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultPrefix is the prefix of every key unless WithPrefix sets another.
const DefaultPrefix = "docsbot:"

// Retention is how long a job's record and thread link are kept after its
// finish was reported or it was untracked.
const Retention = 30 * 24 * time.Hour

// ErrNotFound is returned when a job or a thread link does not exist (it may
// have expired).
var ErrNotFound = errors.New("store: not found")

// ErrStale is returned by a fenced write whose claim is no longer current:
// another replica claimed the job since, or a follow-up restarted it.
var ErrStale = errors.New("store: claim is no longer current")

// ErrInvalid marks a call the store refuses whatever the state of Redis (an
// empty id, a lease under 1ms): retrying it cannot help.
var ErrInvalid = errors.New("store: invalid argument")

// ErrConflict is returned by LinkJob when the thread is already linked to
// another job, or the job to another thread.
var ErrConflict = errors.New("store: thread or job already linked elsewhere")

// Store keeps docsbot's state in Redis. It is safe for concurrent use.
type Store struct {
	rdb      redis.UniversalClient
	owned    bool // Close closes rdb (Open made it)
	prefix   string
	sc       scripts
	topology Topology
	// acks and ackTimeout: see WithReplicaAcks.
	acks       int
	ackTimeout time.Duration
	// cursor rotates the shard a claim looks at first.
	cursor atomic.Uint32
	// heads is what this Store knows of the schedules' heads (heads.go).
	heads heads
	// pre holds work this Store queued claimed by itself (preclaim.go).
	pre preclaims
	// trims is when this Store last trimmed each job list (joblists.go).
	trims listTrims
	// log takes what the store notes but does not return (WithLogger).
	log *slog.Logger
	// settleLinger: see settle.go.
	settleLinger time.Duration
	// convUpdate is luaUpdateConversation (conversation.go).
	convUpdate *redis.Script
	// outcomeUpdate is luaUpdateOutcome (outcomes.go).
	outcomeUpdate *redis.Script
}

// Option configures a Store.
type Option func(*Store)

// WithPrefix sets the prefix of every key (default "docsbot:").
func WithPrefix(p string) Option {
	return func(s *Store) { s.prefix = p }
}

// WithLogger sets where the store logs the failures it does not return,
// such as a job list it could not update (default slog.Default()).
func WithLogger(log *slog.Logger) Option {
	return func(s *Store) { s.log = log }
}

// Open connects to the Redis at redisURL (one server by redis://, rediss://
// or unix://; Sentinel or Cluster by the URL forms of TopologyOf) and checks
// it answers PING. Errors never contain the URL's user name or password.
func Open(ctx context.Context, redisURL string, opts ...Option) (*Store, error) {
	red := redactURL(redisURL)
	rdb, err := newClient(redisURL)
	if err != nil {
		return nil, fmt.Errorf("store: parse redis URL %s: %w", red.URL, &kindError{kind: ErrBadURL, err: red.clean(err)})
	}
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		return nil, red.wrap("store: connect to "+red.URL, err)
	}
	topo := TopologyOf(redisURL)
	if topo == Sentinel {
		opts = append([]Option{WithReplicaAcks(1, 100*time.Millisecond)}, opts...)
	}
	s := newStore(rdb, opts...)
	s.owned, s.topology = true, topo
	return s, nil
}

// newStore returns a Store using rdb, which its caller keeps: Close does not
// close it.
func newStore(rdb redis.UniversalClient, opts ...Option) *Store {
	s := &Store{
		rdb:    rdb,
		prefix: DefaultPrefix,
		sc:     newScripts(),
		log:    slog.Default(),
	}
	s.heads.every = lookEvery
	s.settleLinger = settleLinger
	s.convUpdate = redis.NewScript(luaUpdateConversation)
	s.outcomeUpdate = redis.NewScript(luaUpdateOutcome)
	for k := range s.heads.changed {
		s.heads.changed[k] = make(chan struct{}, 1)
	}
	for _, opt := range opts {
		opt(s)
	}
	return s
}

// Close closes the Redis client if Open created it.
func (s *Store) Close() error {
	s.heads.closeWakeUps()
	if !s.owned {
		return nil
	}
	if err := s.rdb.Close(); err != nil {
		return wrapErr(err, "store: close")
	}
	return nil
}

// Ping checks that Redis answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		return wrapErr(err, "store: ping")
	}
	return nil
}

// millis converts d to whole milliseconds for a script argument, rounding a
// positive sub-millisecond duration up and a negative one to zero.
func millis(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	ms := d.Milliseconds()
	if time.Duration(ms)*time.Millisecond < d {
		ms++
	}
	return ms
}

// checkLease rejects leases too short to keep a claimed job from being due
// at once.
func checkLease(lease time.Duration) error {
	if lease < time.Millisecond {
		return fmt.Errorf("store: lease %v must be at least 1ms: %w", lease, ErrInvalid)
	}
	return nil
}
