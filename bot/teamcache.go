package bot

import (
	"context"
	"sync"
	"time"
)

// teamFresh is how long a replica uses what it read of a workspace's
// settings in Redis (the projects connected from Slack, the settings set
// there) without reading them again: a change made on another replica is
// in force here within it even when its message is lost.
const teamFresh = 5 * time.Second

// While an earlier read is at hand, a read again waits for Redis at most
// teamStaleWait, and one that fails keeps that read in use teamRetry more
// before Redis is asked again: a Redis that blinks or crawls costs an ack
// no more than that, once a second, not a wait per call.
const (
	teamStaleWait = 500 * time.Millisecond
	teamRetry     = time.Second
)

// teamCache keeps, per workspace, what load read of it, for at most
// teamFresh; forget drops a workspace at once (a change made here, or one
// another replica published: listen), and a read under way when it was
// dropped is not kept. When load fails, what was read last is used.
type teamCache[V any] struct {
	load func(ctx context.Context, team string) (V, error)
	now  func() time.Time

	mu sync.Mutex
	// gen counts the forgets: a read begun under an older gen is not kept.
	gen   uint64
	teams map[string]teamRead[V]
}

type teamRead[V any] struct {
	at time.Time
	v  V
}

func newTeamCache[V any](load func(ctx context.Context, team string) (V, error)) *teamCache[V] {
	return &teamCache[V]{load: load, now: time.Now, teams: map[string]teamRead[V]{}}
}

// get is team's value: read at most teamFresh ago, else read now; on an
// error, what was read last (the zero value if nothing was) with the
// error, that read then used teamRetry more. The zero team has the zero
// value.
func (c *teamCache[V]) get(ctx context.Context, team string) (V, error) {
	if team == "" {
		var zero V
		return zero, nil
	}
	c.mu.Lock()
	last, ok := c.teams[team]
	gen := c.gen
	c.mu.Unlock()
	if ok && c.now().Sub(last.at) < teamFresh {
		return last.v, nil
	}
	lctx := ctx
	if ok {
		var cancel context.CancelFunc
		lctx, cancel = context.WithTimeout(ctx, teamStaleWait)
		defer cancel()
	}
	v, err := c.load(lctx, team)
	if err != nil {
		if ok {
			c.mu.Lock()
			if gen == c.gen {
				c.teams[team] = teamRead[V]{at: c.now().Add(teamRetry - teamFresh), v: last.v}
			}
			c.mu.Unlock()
		}
		return last.v, err
	}
	c.mu.Lock()
	if gen == c.gen {
		c.teams[team] = teamRead[V]{at: c.now(), v: v}
	}
	c.mu.Unlock()
	return v, nil
}

// forget drops what was read of team.
func (c *teamCache[V]) forget(team string) {
	c.mu.Lock()
	c.gen++
	delete(c.teams, team)
	c.mu.Unlock()
}

// listen forgets each workspace changes names, until it closes.
func (c *teamCache[V]) listen(changes <-chan string) {
	for team := range changes {
		c.forget(team)
	}
}
