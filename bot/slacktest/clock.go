package slacktest

import (
	"sync"
	"time"
)

// ManualClock is a clock a test moves by hand, for WithClock: trigger ids
// expire and post and method limits refill when the test says so, never by
// sleeping.
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
