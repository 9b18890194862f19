package main

import (
	"sync/atomic"
	"time"
)

// heldClock is the docs API test server's clock while jobs are seeded: it
// stands still at its start until told when to run, then runs at real speed
// from there. Every job seeded while it stands still is created at the same
// server instant, so its Lifecycle.ActiveFor counts from the moment the
// clock starts (t0), not from whenever seeding reached it. Seeding thousands
// of jobs takes seconds; this keeps that time out of the jobs' running times.
type heldClock struct {
	start time.Time
	// t0 is when the clock starts running, in nanoseconds after start; 0
	// while it stands still.
	t0 atomic.Int64
}

// newHeldClock returns a clock standing still at the present moment.
func newHeldClock() *heldClock { return &heldClock{start: time.Now()} }

// now is the server time: start until t0, then start + (real time - t0).
// It is safe for concurrent use and never goes back.
func (c *heldClock) now() time.Time {
	t0 := c.t0.Load()
	if t0 == 0 {
		return c.start
	}
	return c.start.Add(max(0, time.Since(c.start)-time.Duration(t0)))
}

// runFrom makes the clock run from real time t0 on. t0 must not be before
// the clock's start.
func (c *heldClock) runFrom(t0 time.Time) {
	c.t0.Store(max(1, int64(t0.Sub(c.start))))
}
