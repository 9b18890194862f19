package docsapi

import (
	"context"
	"errors"
	"time"
)

// WatchOptions configure [Client.Watch].
type WatchOptions struct {
	// First is the wait after the first poll; it grows by half each poll up
	// to Max (PollDelay, with Jitter) and starts over when the status
	// changes.
	First, Max time.Duration
	// OnJob, if set, is called with the job after every poll that worked,
	// and with changed true when its status is new.
	OnJob func(j *Job, changed bool)
	// OnRetry, if set, is called after a poll that failed for a passing
	// reason, with the wait before the next poll.
	OnRetry func(err error, wait time.Duration)
	// Sleep, if set, waits d or until ctx ends, and returns ctx's error
	// then; nil is a plain timer. A terminal uses it to redraw progress.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Watch polls job id until its status is final, and returns that job. Each
// poll is one request: Watch does the retrying itself. A poll that failed
// for a passing reason (an answer Temporary calls so: 408, 429, 5xx; a
// network error; an unreadable answer) is repeated after at least its
// Retry-After; any other failure, such as an unknown job or a refused key,
// ends the watch with that error, as does the end of ctx.
func (c *Client) Watch(ctx context.Context, id string, o WatchOptions) (*Job, error) {
	once := *c
	once.retry = RetryPolicy{MaxAttempts: 1}
	sleepFn := o.Sleep
	if sleepFn == nil {
		sleepFn = sleep
	}
	var (
		last Status
		seen bool
	)
	polls := 0 // since the status last changed
	for {
		job, err := once.GetJob(ctx, id)
		delay := Jitter(PollDelay(o.First, o.Max, polls))
		switch {
		case err == nil:
			changed := !seen || job.Status != last
			last, seen = job.Status, true
			if changed {
				polls = 0
			}
			if o.OnJob != nil {
				o.OnJob(job, changed)
			}
			if job.Status.Final() {
				return job, nil
			}
		case ctx.Err() != nil:
			return nil, ctx.Err()
		default:
			after, ok := watchRetryable(err)
			if !ok {
				return nil, err
			}
			delay = max(delay, after)
			if o.OnRetry != nil {
				o.OnRetry(err, delay)
			}
		}
		polls++
		if err := sleepFn(ctx, delay); err != nil {
			return nil, err
		}
	}
}

// watchRetryable reports whether a failed poll is worth repeating, and the
// wait the server asked for. Answers of the API are judged by Temporary; an
// invalid request is not; anything else, such as a network error or an
// unreadable answer, is.
func watchRetryable(err error) (after time.Duration, ok bool) {
	if after, ok := Temporary(err); ok {
		return after, true
	}
	var (
		ae *APIError
		ve *ValidationError
	)
	return 0, !errors.As(err, &ae) && !errors.As(err, &ve)
}
