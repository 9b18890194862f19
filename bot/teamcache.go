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
// error. The zero team has the zero value.
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
	v, err := c.load(ctx, team)
	if err != nil {
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
