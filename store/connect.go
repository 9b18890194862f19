package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"
)

// Topology is the kind of Redis deployment a URL names.
type Topology string

// The deployments Open connects to.
const (
	Standalone Topology = "standalone"
	Sentinel   Topology = "sentinel"
	Cluster    Topology = "cluster"
)

// TopologyOf tells which deployment redisURL names, as Open reads it:
//
//	redis://host:6379/0, rediss://..., unix:///path.sock      one server
//	redis://s1:26379?addr=s2:26379&addr=s3:26379&master_name=mymaster
//	                                                          Sentinel (the hosts are sentinels)
//	redis://n1:6379?addr=n2:6379&addr=n3:6379                 Cluster (the hosts are seed nodes)
//
// The query options are go-redis's (redis.ParseURL, ParseFailoverURL,
// ParseClusterURL).
func TopologyOf(redisURL string) Topology {
	u, err := url.Parse(redisURL)
	if err != nil {
		return Standalone
	}
	q := u.Query()
	switch {
	case q.Has("master_name"):
		return Sentinel
	case q.Has("addr") && u.Scheme != "unix":
		return Cluster
	}
	return Standalone
}

// newClient builds the go-redis client for redisURL with go-redis's own
// parser for its topology. Its calls end at their context's deadline
// (ContextTimeoutEnabled), not only at the socket timeouts: the bot bounds
// the write before a Slack acknowledgement by its own budget, which a
// stalled Redis must not stretch past Slack's 3 seconds.
func newClient(redisURL string) (redis.UniversalClient, error) {
	switch TopologyOf(redisURL) {
	case Sentinel:
		o, err := redis.ParseFailoverURL(redisURL)
		if err != nil {
			return nil, err
		}
		o.ContextTimeoutEnabled = true
		leanBuffers(&o.ReadBufferSize, &o.WriteBufferSize, &o.PipelineReadBufferSize, &o.PipelineWriteBufferSize)
		return redis.NewFailoverClient(o), nil
	case Cluster:
		o, err := redis.ParseClusterURL(redisURL)
		if err != nil {
			return nil, err
		}
		o.ContextTimeoutEnabled = true
		// A cluster client has a pipeline pool only when its buffers are
		// sized: leave them unset, so that it has none.
		leanBuffers(&o.ReadBufferSize, &o.WriteBufferSize)
		return redis.NewClusterClient(o), nil
	}
	o, err := redis.ParseURL(redisURL)
	if err != nil {
		return nil, err
	}
	o.ContextTimeoutEnabled = true
	leanBuffers(&o.ReadBufferSize, &o.WriteBufferSize, &o.PipelineReadBufferSize, &o.PipelineWriteBufferSize)
	return redis.NewClient(o), nil
}

// bufferSize is the read and write buffer of each Redis connection, the
// pipelines' included, unless the URL sets one (read_buffer_size, ...).
// go-redis's defaults (32 KiB, 128 KiB for pipelines) are for large values;
// docsbot's commands and replies are a few kilobytes at most (a claim's
// records, a cached analytics answer read in several fills), and a replica
// keeps a dozen connections open: the defaults held about 1 MB of every
// replica's heap (BENCHMARKS.md, "At the floor").
const bufferSize = 8 << 10

// leanBuffers sets each size still unset to bufferSize.
func leanBuffers(sizes ...*int) {
	for _, n := range sizes {
		if *n == 0 {
			*n = bufferSize
		}
	}
}

// Topology is the kind of deployment the store is connected to, as Open
// read it from the URL.
func (s *Store) Topology() Topology {
	if s.topology == "" {
		return Standalone
	}
	return s.topology
}

// WithReplicaAcks makes the writes that must survive a failover wait until
// n replicas confirm them (Redis WAIT), for at most timeout (which must stay
// well under the client's read timeout, 3 s by default). Open sets 1 replica
// and 100 ms for a Sentinel URL; it is meant for one server with replicas or
// Sentinel, not a cluster (a cluster's WAIT speaks for one primary only).
//
// Enqueue, which records work before Slack is acknowledged, fails with
// ErrUnconfirmed (Temporary) when fewer than n replicas confirm in time, for
// new work and for work seen before alike: the work stands on the primary,
// and the caller tries again (finding it seen) or does not acknowledge. The
// other such writes (a work's checkpoints, a job's link, a finish handed out
// for posting, a posted result's marker, digest and audit records) are made
// after the acknowledgement and have their own retries: for them the wait is
// best effort, and a write no replica confirmed in time still succeeds, so a
// failover in that window can lose it (see store/doc.go).
func WithReplicaAcks(n int, timeout time.Duration) Option {
	return func(s *Store) { s.acks, s.ackTimeout = n, timeout }
}

// confirm waits until the replicas asked for by WithReplicaAcks have every
// write made so far through this client, on any of its connections, and
// reports how many did within the timeout (0 and no error when none are
// asked for).
//
// WAIT waits for the replication offset of the last write of its own
// connection only, and a pooled client sends it on whichever connection is
// free. So confirm writes a counter of its own ({p}confirm, INCR) and WAITs
// in one pipeline, which go-redis runs on one connection: replication is one
// ordered stream, so a replica that acknowledged the counter's write has
// every write the primary took before it, whichever connection made it.
func (s *Store) confirm(ctx context.Context) (int, error) {
	if s.acks <= 0 {
		return 0, nil
	}
	var wait *redis.Cmd
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Incr(ctx, s.confirmKey())
		wait = p.Do(ctx, "WAIT", s.acks, max(s.ackTimeout.Milliseconds(), 1))
		return nil
	})
	if err != nil {
		return 0, wrapErr(err, "store: wait for %d replicas", s.acks)
	}
	n, err := wait.Int()
	if err != nil {
		return 0, wrapErr(err, "store: wait for %d replicas", s.acks)
	}
	return n, nil
}

// confirmMargin is how much longer than the replicas' timeout confirmed
// waits for WAIT's answer.
const confirmMargin = time.Second

// confirmed is confirm for a write that went through and must not be
// acknowledged before its replicas have it: nil once the replicas asked for
// confirmed it, ErrUnconfirmed when too few did in time or the confirmation
// failed on its way (the write stands on the primary either way). A server
// that refuses the confirmation's own write (ErrReadOnly: it was demoted, or
// no replica follows it; ErrNoPerm) says nothing of where the write stands:
// that error is returned as it is.
// It waits even once ctx has ended, for at most the replicas' timeout and
// confirmMargin, so that its caller learns what became of the write.
func (s *Store) confirmed(ctx context.Context) error {
	if s.acks <= 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.ackTimeout+confirmMargin)
	defer cancel()
	n, err := s.confirm(ctx)
	switch {
	case errors.Is(err, ErrReadOnly), errors.Is(err, ErrNoPerm):
		return err
	case err != nil:
		return &kindError{kind: ErrUnconfirmed, err: err}
	}
	if n >= s.acks {
		return nil
	}
	return fmt.Errorf("store: %d of %d replicas confirmed the write within %v: %w", n, s.acks, s.ackTimeout, ErrUnconfirmed)
}

// confirmBestEffort is confirm for a write made after Slack's
// acknowledgement, whose caller has retries of its own: it waits as long as
// confirm and ignores the outcome, since the write itself went through.
func (s *Store) confirmBestEffort(ctx context.Context) {
	_, _ = s.confirm(ctx)
}

// confirmKey is the counter confirm increments.
func (s *Store) confirmKey() string { return s.prefix + "confirm" }
