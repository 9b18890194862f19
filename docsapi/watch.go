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
	return watch(ctx, c, o.First, o.Max, o.Sleep, o.OnRetry,
		func(ctx context.Context, once *Client) (*Job, error) { return once.GetJob(ctx, id) },
		func(j *Job) (string, bool) { return string(j.Status), j.Status.Final() },
		o.OnJob)
}

// watch is the poll loop of Watch and WatchDeploy: get is one poll with a
// client that does not retry, state gives the status and whether it is the
// end, onPoll sees every answer.
func watch[T any](ctx context.Context, c *Client, first, maxDelay time.Duration, sleepFn func(context.Context, time.Duration) error,
	onRetry func(error, time.Duration), get func(context.Context, *Client) (T, error), state func(T) (string, bool), onPoll func(T, bool)) (T, error) {
	var zero T
	once := *c
	once.retry = RetryPolicy{MaxAttempts: 1}
	if sleepFn == nil {
		sleepFn = sleep
	}
	var (
		last string
		seen bool
	)
	polls := 0 // since the status last changed
	for {
		v, err := get(ctx, &once)
		delay := Jitter(PollDelay(first, maxDelay, polls))
		switch {
		case err == nil:
			st, done := state(v)
			changed := !seen || st != last
			last, seen = st, true
			if changed {
				polls = 0
			}
			if onPoll != nil {
				onPoll(v, changed)
			}
			if done {
				return v, nil
			}
		case ctx.Err() != nil:
			return zero, ctx.Err()
		default:
			after, ok := watchRetryable(err)
			if !ok {
				return zero, err
			}
			delay = max(delay, after)
			if onRetry != nil {
				onRetry(err, delay)
			}
		}
		polls++
		if err := sleepFn(ctx, delay); err != nil {
			return zero, err
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
