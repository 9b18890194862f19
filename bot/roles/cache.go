package roles

import (
	"context"
	"sync"
	"time"
)

// cache keeps Slack's answers about keys (a user group's members, a person's
// profile) in the memory of one replica:
//
//	state of key                     a caller asks        answer
//	fresh (answered < ttl ago)        -                    the answer
//	failed < failTTL ago              -                    stale answer, else the failure
//	unknown, old or failed long ago   one fetch for all    Slack's answer; on failure stale, else the failure
//
// A stale answer is one older than ttl but younger than ttl+maxStale; with
// maxStale 0 a failure is never hidden. At most max keys are kept, the least
// recently touched forgotten first. It is safe for concurrent use.
type cache[V any] struct {
	fetch    func(ctx context.Context, key string) (V, error)
	ttl      time.Duration
	maxStale time.Duration
	failTTL  time.Duration
	max      int
	timeout  time.Duration
	now      func() time.Time

	mu      sync.Mutex
	entries map[string]*entry[V]
	calls   map[string]*call[V]
}

// entry is what is known of one key: its answer and when Slack gave it (at;
// zero when never), and the last failure to ask, if it came later.
type entry[V any] struct {
	val      V
	at       time.Time
	err      error
	failedAt time.Time
}

// touched is when the entry last changed.
func (e *entry[V]) touched() time.Time {
	if e.failedAt.After(e.at) {
		return e.failedAt
	}
	return e.at
}

// call is a request to Slack that every caller asking for the key waits for.
type call[V any] struct {
	done chan struct{}
	val  V
	err  error
}

// get returns key's answer by the table on cache.
func (c *cache[V]) get(ctx context.Context, key string) (V, error) {
	c.mu.Lock()
	now := c.now()
	e := c.entries[key]
	switch {
	case e != nil && !e.at.IsZero() && now.Sub(e.at) < c.ttl:
		c.mu.Unlock()
		return e.val, nil
	case e != nil && e.err != nil && now.Sub(e.failedAt) < c.failTTL:
		defer c.mu.Unlock()
		return c.staleLocked(key, e.err)
	}
	cl := c.calls[key]
	if cl == nil {
		cl = &call[V]{done: make(chan struct{})}
		if c.calls == nil {
			c.calls = map[string]*call[V]{}
		}
		c.calls[key] = cl
		go c.fill(context.WithoutCancel(ctx), key, cl)
	}
	c.mu.Unlock()

	var err error
	select {
	case <-cl.done:
		if cl.err == nil {
			return cl.val, nil
		}
		err = cl.err
	case <-ctx.Done():
		err = ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.staleLocked(key, err)
}

// staleLocked returns key's answer when it is past its TTL but within the
// stale period, or else err. c.mu is held.
func (c *cache[V]) staleLocked(key string, err error) (V, error) {
	if e := c.entries[key]; e != nil && !e.at.IsZero() && c.now().Sub(e.at) < c.ttl+c.maxStale {
		return e.val, nil
	}
	var zero V
	return zero, err
}

// fill asks Slack about key, remembers the outcome and hands it to everyone
// waiting for cl. It runs without the first caller's cancellation, so that
// its giving up does not fail the others.
func (c *cache[V]) fill(ctx context.Context, key string, cl *call[V]) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	val, err := c.fetch(ctx, key)
	c.mu.Lock()
	defer c.mu.Unlock()
	// The answer's time is read before the waiters wake: one of them may
	// move on and the clock with it.
	now := c.now()
	delete(c.calls, key)
	cl.val, cl.err = val, err
	close(cl.done)
	if c.entries == nil {
		c.entries = map[string]*entry[V]{}
	}
	e := c.entries[key]
	if e == nil {
		e = &entry[V]{}
		c.entries[key] = e
	}
	if err != nil {
		e.err, e.failedAt = err, now
	} else {
		e.val, e.at, e.err = val, now, nil
	}
	for len(c.entries) > max(c.max, 1) {
		c.forgetOldestLocked()
	}
}

// forgetOldestLocked removes the key touched longest ago. c.mu is held.
func (c *cache[V]) forgetOldestLocked() {
	var oldest string
	var at time.Time
	for k, e := range c.entries {
		if oldest == "" || e.touched().Before(at) {
			oldest, at = k, e.touched()
		}
	}
	delete(c.entries, oldest)
}
