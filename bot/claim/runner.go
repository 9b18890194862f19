// Package claim is the claim loop every replica runs over a schedule kept in
// Redis (Runner): the core's inbox over its work, the agent's poller over its
// jobs. It knows nothing of what it claims nor of the bot: the store claims,
// releases and says when the next item is due; the caller handles an item
// and words the log lines (Lines).
package claim

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// releaseBudget bounds handing claims back on shutdown.
const releaseBudget = 5 * time.Second

// Runner is the claim loop shared by every replica: it claims due items
// of a schedule kept in Redis, each under a lease, and handles them on a
// bounded pool of workers until its context ends, then hands back the claims
// still unsettled so that another replica takes them instead of waiting for
// their lease to run out. A claim whose handler the shutdown cancelled is
// handed back due only after Landing: a request it sent may still land, and
// the next attempt must see it (store/doc.go, "Handing back"). The inbox runs
// one over its work, the agent's poller one over its jobs; T is what a claim
// yields (store.Taken, store.Claim).
//
// The loop claims as many items as it has free workers. When that many came,
// more may be due: it claims again at once. Otherwise it waits Gather, if
// set, and then sleeps until Idle passes, the next item is due (NextDue),
// Wake is nudged, Changed says the schedule changed, or ctx ends. A worker
// that ends nudges Wake, so that a backlog drains at the speed of the
// handlers, not one batch per sleep. A failed claim is logged and retried
// after Backoff, doubling up to MaxBackoff while claims keep failing.
//
// Claim, Handle, Release, Workers, Idle, Backoff and Log are required; the
// rest is optional (Landing zero hands every claim back due at once).
type Runner[T any] struct {
	// Claim takes up to max due items, each held for lease.
	Claim func(ctx context.Context, max int, lease time.Duration) ([]T, error)
	// Lease is the lease passed to Claim.
	Lease time.Duration
	// Handle handles one claimed item under the work context of Run. It
	// reports whether the claim is settled (done, rescheduled, deferred,
	// taken by another replica); false hands it back when Run stops, after
	// Landing if the work context was cancelled by then.
	Handle func(ctx context.Context, item T) bool
	// Release hands back the unsettled claims when Run stops, due after
	// the given wait: 0, or Landing for claims whose handler was cancelled.
	Release func(ctx context.Context, items []T, after time.Duration) error
	// Stop, when set, is called once the loop stops claiming, before the
	// handlers still running are waited for: what the store holds claimed
	// for the loop and did not hand out yet goes back to the other replicas
	// at once (store.Inbox.StopClaiming).
	Stop func(ctx context.Context) error
	// Landing is how long a request sent by a handler that the shutdown
	// cancelled may still take effect (bot.Config.LandingWindow): the claims of
	// cancelled handlers come due no sooner.
	Landing time.Duration
	// NextDue, when set, tells how long until the next item is due (on the
	// Redis clock), ok false when none is: the loop sleeps no longer than
	// that.
	NextDue func(ctx context.Context) (wait time.Duration, ok bool, err error)
	// Workers bounds the items handled at once.
	Workers int
	// Idle is the longest the loop sleeps between claims, so that items
	// made due by other replicas are taken within Idle.
	Idle time.Duration
	// Wake, when set, ends the loop's sleep when something is sent on it
	// (a non-blocking send on a channel of capacity 1); the runner sends on
	// it itself when a worker ends.
	Wake chan struct{}
	// Changed, when set, ends the loop's sleep too: the schedule changed
	// (store.Jobs.Changed, store.Inbox.Changed).
	Changed <-chan struct{}
	// Gather, when set, spaces a claim that took fewer items than the free
	// workers from the next by at least Gather, whatever wakes the loop
	// (only the end of ctx ends the wait): items coming due meanwhile are
	// claimed together, one claim script a shard for several (store/doc.go,
	// "Claiming at rest"). An item is taken up to Gather late; a backlog
	// (a claim that filled every free worker) is not held up.
	Gather time.Duration
	// Backoff is the wait after a failed claim; it doubles up to MaxBackoff
	// (at least Backoff) while claims keep failing.
	Backoff, MaxBackoff time.Duration
	// Grace is how long handlers still running when ctx ends may go on
	// before the work context is cancelled. Zero cancels it at once.
	Grace time.Duration
	// Gauge, when set, is called at most once every GaugeEvery, before a
	// claim (to refresh a gauge of the schedule's size).
	Gauge      func(ctx context.Context)
	GaugeEvery time.Duration
	// Log receives the runner's lines, worded by Lines.
	Log   *slog.Logger
	Lines Lines
}

// Lines are the log lines of a Runner, in the words of what it
// claims.
type Lines struct {
	// ClaimFailed is logged (an error, with "err") when a claim fails.
	ClaimFailed string
	// Overran is logged (a warning, with "grace") when handlers still run
	// after the shutdown grace and are cancelled.
	Overran string
	// Released is logged when the unsettled claims were handed back, and
	// ReleaseFailed when that failed; both with the number of claims under
	// the key Count. StopFailed is logged (an error, with "err") when Stop
	// failed.
	Released, ReleaseFailed, StopFailed string
	Count                               string
}

// Run claims and handles items until ctx ends. Handlers get a context
// derived from work, which may outlive ctx: they then have Grace to end
// before it is cancelled. Run returns once every handler has returned and the
// unsettled claims were handed back.
func (r *Runner[T]) Run(ctx, work context.Context) {
	work, stopWork := context.WithCancel(work)
	defer stopWork()
	slots := make(chan struct{}, r.Workers)
	// inflight counts the handlers under way; they run on goroutines kept
	// for the next item (workers), which grew their stacks already.
	var inflight sync.WaitGroup
	pool := workers{max: r.Workers, jobs: make(chan func())}
	defer pool.stop()
	held := &claims[T]{held: map[uint64]T{}, cut: map[uint64]bool{}}
	backoff := r.Backoff
	var counted time.Time
	for ctx.Err() == nil {
		if r.Gauge != nil && time.Since(counted) > r.GaugeEvery {
			counted = time.Now()
			r.Gauge(ctx)
		}
		free := cap(slots) - len(slots)
		if free == 0 {
			r.sleep(ctx, r.Idle)
			continue
		}
		items, err := r.Claim(ctx, free, r.Lease)
		if err != nil {
			if ctx.Err() == nil {
				r.Log.Error(r.Lines.ClaimFailed, "err", err)
				r.sleep(ctx, backoff)
				backoff = min(2*backoff, max(r.MaxBackoff, r.Backoff))
			}
			continue
		}
		backoff = r.Backoff
		for _, item := range items {
			slots <- struct{}{}
			n := held.add(item)
			inflight.Add(1)
			pool.run(func() {
				defer inflight.Done()
				defer func() { <-slots; r.nudge() }()
				settled := r.Handle(work, item)
				held.end(n, settled, !settled && work.Err() != nil)
			})
		}
		if len(items) == free {
			continue // more may be due right now
		}
		r.waitNext(ctx)
	}
	stopped := time.Now()
	r.stop(ctx)
	if r.Grace > 0 && !waitFor(&inflight, max(r.Grace-time.Since(stopped), 0)) {
		r.Log.Warn(r.Lines.Overran, "grace", r.Grace)
	}
	stopWork()
	inflight.Wait()
	now, later := held.unsettled()
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseBudget)
	defer cancel()
	r.release(rctx, now, 0)
	r.release(rctx, later, r.Landing)
}

// workers runs the handlers of one Run, at most max at once (the caller
// holds a slot for each): on a goroutine that waits for work, else on a new
// one while fewer than max were started. A goroutine is kept for the next
// handler rather than started anew with a small stack, grown and copied
// through each handler's calls (BENCHMARKS.md, "Frames read once").
type workers struct {
	max, started int
	jobs         chan func()
	wg           sync.WaitGroup
}

// run hands fn to a waiting goroutine or a new one; with max started, it
// waits for one to be free, which the caller's slot guarantees.
func (p *workers) run(fn func()) {
	if p.started < p.max {
		select {
		case p.jobs <- fn:
		default:
			p.started++
			p.wg.Go(func() {
				fn()
				for next := range p.jobs {
					next()
				}
			})
		}
		return
	}
	p.jobs <- fn
}

// stop ends the goroutines once their handlers returned.
func (p *workers) stop() {
	close(p.jobs)
	p.wg.Wait()
}

// waitNext sleeps, after a claim that took less than there was room for,
// until the next item is due (NextDue) or Idle, whichever is sooner,
// gathering for Gather first.
func (r *Runner[T]) waitNext(ctx context.Context) {
	wait := r.Idle
	if r.NextDue != nil {
		if d, ok, err := r.NextDue(ctx); err == nil && ok && d < wait {
			wait = d
		}
	}
	if r.Gather > 0 {
		pause(ctx, r.Gather)
		wait -= r.Gather
	}
	if wait > 0 {
		r.sleep(ctx, wait)
	}
}

// claims are the items a runner claimed and its handlers did not settle,
// by claim number: handed back when the runner stops, at once, or after
// Landing for those whose handler the work's end cut short.
type claims[T any] struct {
	mu      sync.Mutex
	held    map[uint64]T
	cut     map[uint64]bool
	claimed uint64
}

// add holds item and returns its claim number.
func (c *claims[T]) add(item T) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.claimed++
	c.held[c.claimed] = item
	return c.claimed
}

// end records how claim n's handler ended: settled, it is held no more;
// cut short by the work's end, it is handed back after Landing.
func (c *claims[T]) end(n uint64, settled, cut bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if settled {
		delete(c.held, n)
	} else if cut {
		c.cut[n] = true
	}
}

// unsettled are the items still held: now to hand back at once, later
// after Landing.
func (c *claims[T]) unsettled() (now, later []T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for n, item := range c.held {
		if c.cut[n] {
			later = append(later, item)
		} else {
			now = append(now, item)
		}
	}
	return now, later
}

// stop calls Stop, if set, once the loop stopped claiming.
func (r *Runner[T]) stop(ctx context.Context) {
	if r.Stop == nil {
		return
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseBudget)
	defer cancel()
	if err := r.Stop(sctx); err != nil {
		r.Log.Error(r.Lines.StopFailed, "err", err)
	}
}

// release hands items back, due after the given wait, and logs it.
func (r *Runner[T]) release(ctx context.Context, items []T, after time.Duration) {
	if len(items) == 0 {
		return
	}
	if err := r.Release(ctx, items, after); err != nil {
		r.Log.Error(r.Lines.ReleaseFailed, r.Lines.Count, len(items), "err", err)
		return
	}
	r.Log.Info(r.Lines.Released, r.Lines.Count, len(items), "due_in", after)
}

// sleep waits for d, a nudge on Wake, or the end of ctx.
func (r *Runner[T]) sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-r.Wake:
	case <-r.Changed:
	case <-t.C:
	}
}

// pause waits for d or the end of ctx.
func pause(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// nudge wakes the loop if it sleeps (Wake nil: nothing to do).
func (r *Runner[T]) nudge() {
	select {
	case r.Wake <- struct{}{}:
	default:
	}
}

// waitFor waits up to d for wg and reports whether it finished.
func waitFor(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}
