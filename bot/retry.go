package bot

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/docsbot/docsbot/store"
)

// Retry calls fn until it succeeds or ctx ends, backing off from 100ms to 5s.
// It is for writes that must not be lost (a created job's link), not for API
// calls, which have their own retry rules. What trying again cannot change is
// not retried: a conflict, a missing record, an invalid call, or an error
// answered by Redis itself (as opposed to not reaching it).
func Retry(ctx context.Context, log *slog.Logger, what string, fn func() error) error {
	delay := 100 * time.Millisecond
	for {
		err := fn()
		if err == nil || permanentStoreError(err) {
			return err
		}
		log.Error(what+" failed; retrying", "err", err, "retry_in", delay)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
		delay = min(delay*2, 5*time.Second)
	}
}

// permanentStoreError reports whether trying a store call again cannot
// help: only a Redis that is unreachable, failing over or loading may come
// back (store.Temporary).
func permanentStoreError(err error) bool { return !store.Temporary(err) }

// RetryDelay spaces the attempts at work that failed for a passing reason:
// 1 s, 2 s, 4 s, ... up to 30 s.
func RetryDelay(attempt int) time.Duration {
	d := time.Second << min(max(attempt-1, 0), 5)
	return min(d, 30*time.Second)
}
