package store

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// settleTimeout bounds the script that writes a batch of reschedules,
// whichever caller's context it runs under.
const settleTimeout = 5 * time.Second

// settleLinger is how long a Reschedule waits, at most, for the other jobs
// its claim script took to settle too (tests change it).
const settleLinger = 25 * time.Millisecond

// settleBatch gathers the Reschedules of the jobs one claim script took from
// one shard, so that one script writes them. Each job of the batch ends in it
// once:
//
//	event                                   action
//	Reschedule                              queued; the caller waits for its result
//	another fenced write (Finish, Untrack,  counted out
//	  MarkNotified) or Release
//	every job ended, queue not empty        the caller that ended last writes the queue
//	settleLinger after the first queued     the queue is written as it is
//	a Reschedule after a write              queued again (the same rules)
//
// A caller whose context ends while it waits gets the context's error: the
// write may still land, as a reply lost would (the job then comes due early
// or is handed back, and polled again: never reported twice, which is
// Finish's fencing).
type settleBatch struct {
	s     *Store
	shard int
	mu    sync.Mutex
	left  int             // jobs of the batch not yet ended
	ended map[string]bool // by job id
	queue []*settleReq
	timer *time.Timer
}

// settleReq is one queued Reschedule.
type settleReq struct {
	ctx    context.Context
	c      Claim
	status string
	in     time.Duration
	done   chan error // capacity 1
}

// newSettleBatch is the batch of n jobs claimed from shard i by one script.
func (s *Store) newSettleBatch(i, n int) *settleBatch {
	return &settleBatch{s: s, shard: i, left: n, ended: make(map[string]bool, n)}
}

// end counts job id out; the caller holds b.mu. It returns the queue to
// write when that was the last job and something is queued.
func (b *settleBatch) end(id string) []*settleReq {
	if !b.ended[id] {
		b.ended[id] = true
		b.left--
	}
	if b.left > 0 || len(b.queue) == 0 {
		return nil
	}
	return b.take()
}

// take empties the queue and stops its timer; the caller holds b.mu.
func (b *settleBatch) take() []*settleReq {
	q := b.queue
	b.queue = nil
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	return q
}

// leave counts job id out of its batch: it settles without a Reschedule.
// The queue it completes is written on a goroutine of its own.
func (b *settleBatch) leave(id string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	q := b.end(id)
	b.mu.Unlock()
	if q != nil {
		go b.s.writeSettles(q)
	}
}

// reschedule queues r and waits for its result (the table above).
func (b *settleBatch) reschedule(r *settleReq) error {
	b.mu.Lock()
	b.queue = append(b.queue, r)
	q := b.end(r.c.JobID)
	if q == nil && b.timer == nil {
		b.timer = time.AfterFunc(b.s.settleLinger, func() {
			b.mu.Lock()
			q := b.take()
			b.mu.Unlock()
			if len(q) > 0 {
				b.s.writeSettles(q)
			}
		})
	}
	b.mu.Unlock()
	if q != nil {
		b.s.writeSettles(q)
	}
	select {
	case err := <-r.done:
		return err
	case <-r.ctx.Done():
		return r.ctx.Err()
	}
}

// writeSettles writes queued reschedules of one shard with one script and
// hands each its result.
func (s *Store) writeSettles(q []*settleReq) {
	i := threadShard(q[0].c.Job.Thread)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(q[0].ctx), settleTimeout)
	defer cancel()
	args := make([]any, 0, 2+5*len(q))
	args = append(args, s.shardPrefix(i), s.jobKeyIn(i, ""))
	for _, r := range q {
		args = append(args, r.c.JobID, strconv.FormatInt(r.c.Token, 10), r.status, millis(r.in), r.c.clock.now())
	}
	codes, err := s.sc.reschedule.Run(ctx, s.rdb, []string{s.schedKey(i)}, args...).Int64Slice()
	if err == nil && len(codes) != len(q) {
		err = fmt.Errorf("unexpected reply: %d results for %d jobs", len(codes), len(q))
	}
	for n, r := range q {
		rerr := err
		if err == nil {
			rerr = codeErr(codes[n])
		}
		if rerr != nil {
			rerr = wrapErr(rerr, "store: reschedule %s", r.c.JobID)
		} else {
			s.scheduled(ctx, schedJobs, i, r.in, false)
		}
		r.done <- rerr
	}
}
