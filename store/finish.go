package store

import (
	"context"
	"strconv"
	"time"
)

// fenced runs one of the fenced scripts for claim c and maps its code.
// It counts c out of its claim's batch of reschedules (settle.go).
func (s *Store) fenced(op string, c Claim, run func(keys []string, p, token string) (int64, error)) (int64, error) {
	c.batch.leave(c.JobID)
	i := threadShard(c.Job.Thread)
	code, err := run([]string{s.jobKeyIn(i, c.JobID), s.schedKey(i)}, s.shardPrefix(i), strconv.FormatInt(c.Token, 10))
	if err != nil {
		return 0, wrapErr(err, "store: %s %s", op, c.JobID)
	}
	if err := codeErr(code); err != nil {
		return 0, wrapErr(err, "store: %s %s", op, c.JobID)
	}
	return code, nil
}

// Reschedule records the status seen by a poll that found the job still
// running (only when it changed; the claim counted the poll) and makes the
// job due again in `in` (Redis clock: the claim's, moved on by this replica's
// monotonic clock, so no TIME; see "Claiming at rest" in doc.go). The
// reschedules of jobs one claim script took are written together (settle.go):
// it may wait up to the settle linger for the others. It fails with ErrStale
// when c is no longer current, and ErrNotFound when the record is gone.
func (js Jobs) Reschedule(ctx context.Context, c Claim, status string, in time.Duration) error {
	r := &settleReq{ctx: ctx, c: c, status: status, in: in, done: make(chan error, 1)}
	if c.batch == nil {
		js.s.writeSettles([]*settleReq{r})
		return <-r.done
	}
	return c.batch.reschedule(r)
}

// Finish records a finished job's final status and pull request link. While
// the finish of the job's current generation is not yet reported, it counts a
// notification attempt, keeps the job scheduled a lease ahead (so that another
// replica reports it if this one dies before MarkNotified) and returns true:
// the caller posts, then calls MarkNotified. Otherwise it stops tracking the
// job, lets record and thread link expire after the retention period, and
// returns false. It fails with ErrStale when c is no longer current.
func (js Jobs) Finish(ctx context.Context, c Claim, status, prLink string, lease time.Duration) (notify bool, err error) {
	s := js.s
	if err := checkLease(lease); err != nil {
		return false, err
	}
	code, err := s.fenced("finish", c, func(keys []string, p, tok string) (int64, error) {
		args := []any{p, c.JobID, tok, status, millis(lease), millis(Retention)}
		for _, ch := range chunks(prLink) {
			args = append(args, ch)
		}
		return s.sc.finish.Run(ctx, s.rdb, keys, args...).Int64()
	})
	if err == nil {
		s.unlistRunning(ctx, c.Job)
	}
	if err == nil && code == 1 {
		s.scheduled(ctx, schedJobs, threadShard(c.Job.Thread), lease, false)
		// The attempt counted here is what tells a later claim to look for
		// an earlier post before posting: it must survive a failover.
		s.confirmBestEffort(ctx)
	}
	return code == 1, err
}

// MarkNotified records that the finish of generation c.Job.Generation was
// reported (Notified never goes down). If c is still current it also stops
// tracking the job and lets record and thread link expire after the retention
// period; if a follow-up or another claim came in between, the schedule and
// expiry are left alone and it still returns nil. ErrNotFound means the
// record is gone.
func (js Jobs) MarkNotified(ctx context.Context, c Claim) error {
	s := js.s
	_, err := s.fenced("mark notified", c, func(keys []string, p, tok string) (int64, error) {
		return s.sc.markNotified.Run(ctx, s.rdb, keys,
			p, c.JobID, tok, c.Job.Generation, millis(Retention)).Int64()
	})
	if err == nil {
		s.confirmBestEffort(ctx)
	}
	return err
}

// Untrack stops following a job (for example because the API no longer knows
// it): it records status, removes the job from the schedule and lets record
// and thread link expire after the retention period. It fails with ErrStale
// when c is no longer current.
func (js Jobs) Untrack(ctx context.Context, c Claim, status string) error {
	s := js.s
	_, err := s.fenced("untrack", c, func(keys []string, p, tok string) (int64, error) {
		return s.sc.untrack.Run(ctx, s.rdb, keys, p, c.JobID, tok, status, millis(Retention)).Int64()
	})
	if err == nil {
		s.unlistRunning(ctx, c.Job)
	}
	return err
}
