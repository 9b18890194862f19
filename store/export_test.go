package store

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// New returns a Store on a client the tests made, for a topology of their
// choice; the tests keep the client (Close does not close it). docsbot
// itself opens its Store with Open.
func New(rdb redis.UniversalClient, opts ...Option) *Store { return newStore(rdb, opts...) }

// Keys, as the package doc describes them, for tests that look at Redis
// directly.
func (s *Store) Prefix() string                       { return s.prefix }
func (s *Store) JobKeyOf(id string, t Thread) string  { return s.jobKeyIn(threadShard(t), id) }
func (s *Store) ThreadKeyOf(t Thread) string          { return s.threadKey(t) }
func (s *Store) SchedKeyOf(t Thread) string           { return s.schedKey(threadShard(t)) }
func (s *Store) WorkKeyOf(key string) string          { return s.workKeyIn(shardOf(key), key) }
func (s *Store) RecentKeyOf(team, user string) string { return s.recentKey(team, user) }
func (s *Store) SchedKeys() []string {
	out := make([]string, Shards)
	for i := range out {
		out[i] = s.schedKey(i)
	}
	return out
}

// WithSettleLinger sets how long a Reschedule waits for the other jobs of
// its claim (settleLinger).
func WithSettleLinger(d time.Duration) Option {
	return func(s *Store) { s.settleLinger = d }
}

// WithLookEvery sets how often a claiming Store reads every shard
// (lookEvery).
func WithLookEvery(d time.Duration) Option {
	return func(s *Store) { s.heads.every = d }
}

// ForgetHeads makes the next claim read every shard: for tests that write
// the schedule behind the Store's back.
func (s *Store) ForgetHeads() {
	h := &s.heads
	h.mu.Lock()
	h.looked = time.Time{}
	h.mu.Unlock()
	for k := range schedCount {
		h.signal(k)
	}
}

// Confirm is confirm: how many replicas have every write made so far.
func (s *Store) Confirm(ctx context.Context) (int, error) { return s.confirm(ctx) }

// ConfirmKey is the counter confirm increments.
func (s *Store) ConfirmKey() string { return s.confirmKey() }

// NextDue returns how long until the earliest scheduled job is due, by the
// Redis clock (0 when it is overdue), and ok=false when nothing is
// scheduled: what the schedule says, for tests of what writes it.
func (js Jobs) NextDue(ctx context.Context) (wait time.Duration, ok bool, err error) {
	s := js.s
	p, err := s.peekShards(ctx, s.schedKey)
	if err != nil {
		return 0, false, err
	}
	first, ok := p.earliest()
	if !ok {
		return 0, false, nil
	}
	return time.Duration(max(first-p.now, 0)) * time.Millisecond, true, nil
}

// FailureKinds are the kinds of the table of failures, in its order.
func FailureKinds() []error {
	var out []error
	for _, f := range failures() {
		out = append(out, f.kind)
	}
	return out
}
