package slacktest

import (
	"sync"
	"time"
)

// ManualClock is the clock a test moves by hand, the one of every test
// kit and test: pass its Now to WithClock (trigger ids expire and post and
// method limits refill when the test says so, never by sleeping), to the
// docs API test server (docsapitest.WithClock) and to the bot's features.
// It needs nothing of the fake Slack, so any test may import it.
type ManualClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewManualClock returns a clock reading start.
func NewManualClock(start time.Time) *ManualClock { return &ManualClock{t: start} }

// Now is the clock's time; pass c.Now to WithClock.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}
