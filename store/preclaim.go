package store

import (
	"sync"
	"time"
)

// Work claimed as it is queued. A replica that queues work (Enqueue, before
// Slack's ack) does it itself far more often than not: it wakes its own
// inbox loop. So a Store whose claim loop has room queues new work already
// claimed by itself, in the same script (token 1, attempt 1, due when the
// lease ends), and its next ClaimWork hands it out without a claim script.
// The guarantees are a claim's: the record is written before the ack and
// fenced by its token; if this replica dies, or its claim loop does not come
// for the work while its lease is young (a sixth), the work comes due when
// the lease ends and any replica claims it (attempt 2, as after a crash).
//
//	state of a piece of work       ClaimWork                 ReleaseWork
//	held, younger than 2 ms        waits, then hands it out  hands it back
//	held, younger than lease/6     hands it out              hands it back
//	held, older                    drops it: due at lease's  hands it back
//	                               end, claimed again there
//
// When the claim loop stops (StopClaiming), every held piece is handed back
// due at once and no more is held: work queued by a replica that is shutting
// down (its socket stays open until its acks are out) goes to the others
// unclaimed, never waiting out a lease nobody here will take it under.
//
// The room is what the claim loop's last ClaimWork left of its max: the
// loop has that many free workers, so held work does not wait for one.
// Held work is handed out no sooner than handOutAfter after its write, and
// Enqueue does not wake the claim loop for it (its caller does, once it
// acknowledged the envelope: bot.QueueCommand): the work would otherwise
// start on the other core while the ack is written, and the ack's p50 rose
// by 0.3 ms (BENCHMARKS.md, issue 34). A ClaimWork that finds held work
// younger than that waits for it (at most handOutAfter), so that a claim
// loop woken for it takes it in that call; ClaimWait says not to sleep
// while work is held.
type preclaims struct {
	mu sync.Mutex
	// lease is the lease of this Store's last ClaimWork: 0 until it claims
	// work, and no work is claimed as it is queued.
	lease time.Duration
	// room is how many more pieces may be held.
	room  int
	items []preclaimed
	// stopped is set once the claim loop stopped: nothing more is held.
	stopped bool
}

// preclaimed is a piece of work claimed as it was queued.
type preclaimed struct {
	t     Taken
	at    time.Time // just before its script was sent, by the local clock
	lease time.Duration
}

// reserve takes one place for work about to be queued claimed, returning
// the lease to claim it with, or 0 when there is no room (the work is queued
// unclaimed, for any replica's claim script).
func (p *preclaims) reserve() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.lease <= 0 || p.room <= 0 {
		return 0
	}
	p.room--
	return p.lease
}

// hold keeps t, claimed at at, for the next ClaimWork, and reports whether
// it did: false once the claim loop stopped (between reserve and hold), when
// the caller hands t back. free gives back a place reserve took for work
// that was not queued claimed.
func (p *preclaims) hold(t Taken, at time.Time, lease time.Duration) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return false
	}
	p.items = append(p.items, preclaimed{t: t, at: at, lease: lease})
	return true
}

func (p *preclaims) free() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.room++
}

// take hands out up to max held pieces whose lease is younger than a sixth
// (older ones are dropped: they come due when their lease ends), and
// records lease for the claims to come.
func (p *preclaims) take(max int, lease time.Duration) []Taken {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.lease = lease
	}
	var out []Taken
	keep := p.items[:0]
	for _, it := range p.items {
		switch age := time.Since(it.at); {
		case age >= it.leaseAge():
		case age < handOutAfter:
			keep = append(keep, it)
		case len(out) < max:
			out = append(out, it.t)
		default:
			keep = append(keep, it)
		}
	}
	clear(p.items[len(keep):])
	p.items = keep
	return out
}

// leaseAge is how long a held piece may wait to be handed out: a sixth of
// its claim's lease, so that its handler's heartbeat (bot: every third of
// the lease) has most of the lease left.
func (it preclaimed) leaseAge() time.Duration {
	return it.lease / 6
}

// handOutAfter is how long held work waits before it is handed out: its
// writer's ack goes out first.
const handOutAfter = 2 * time.Millisecond

// wait is how long until the oldest held piece may be handed out, ok
// false when none is held.
func (p *preclaims) wait() (time.Duration, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.items) == 0 {
		return 0, false
	}
	return max(handOutAfter-time.Since(p.items[0].at), 0), true
}

// setRoom records how many pieces the claim loop has free workers for.
func (p *preclaims) setRoom(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.room = max(n-len(p.items), 0)
}

// drain hands out every held piece, for ReleaseWork (fenced by its token
// like any claim handed back), and holds no more until the next ClaimWork.
func (p *preclaims) drain() []Taken {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Taken, 0, len(p.items))
	for _, it := range p.items {
		out = append(out, it.t)
	}
	p.items, p.room = nil, 0
	return out
}

// stop drains the held pieces and holds no more, ever: the claim loop
// stopped.
func (p *preclaims) stop() []Taken {
	out := p.drain()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped, p.lease = true, 0
	return out
}
