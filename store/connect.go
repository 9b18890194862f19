package store

import (
	"context"
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
// parser for its topology.
func newClient(redisURL string) (redis.UniversalClient, error) {
	switch TopologyOf(redisURL) {
	case Sentinel:
		o, err := redis.ParseFailoverURL(redisURL)
		if err != nil {
			return nil, err
		}
		return redis.NewFailoverClient(o), nil
	case Cluster:
		o, err := redis.ParseClusterURL(redisURL)
		if err != nil {
			return nil, err
		}
		return redis.NewClusterClient(o), nil
	}
	o, err := redis.ParseURL(redisURL)
	if err != nil {
		return nil, err
	}
	return redis.NewClient(o), nil
}

// Topology is the kind of deployment the store is connected to, as Open
// read it from the URL.
func (s *Store) Topology() Topology {
	if s.topology == "" {
		return Standalone
	}
	return s.topology
}

// WithReplicaAcks makes the writes that must survive a failover (work
// entering the inbox and its checkpoints, a job's link, a finish handed out
// for posting, a posted result's marker) wait until n replicas confirm them
// (Redis WAIT), for at most timeout. Open sets 1
// replica and 100 ms for a Sentinel URL. When no replica confirms in time the
// write stands on the primary alone and the call still succeeds: a failover
// in that window can lose it, which the inbox's design tolerates as a
// replica crash (the envelope was acknowledged, so see store/doc.go).
func WithReplicaAcks(n int, timeout time.Duration) Option {
	return func(s *Store) { s.acks, s.ackTimeout = n, timeout }
}

// confirm waits for the replicas asked for by WithReplicaAcks, if any. Its
// own failure is not the write's: it is ignored.
func (s *Store) confirm(ctx context.Context) {
	if s.acks <= 0 {
		return
	}
	_ = s.rdb.Do(ctx, "WAIT", s.acks, max(s.ackTimeout.Milliseconds(), 1)).Err()
}
