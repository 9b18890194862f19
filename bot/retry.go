package bot

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/docsbot/docsbot/store"
)

// retry calls fn until it succeeds or ctx ends, backing off from 100ms to 5s.
// It is for writes that must not be lost (a created job's link), not for API
// calls, which have their own retry rules. A conflict in the store is not
// retried: trying again cannot change it.
func retry(ctx context.Context, log *slog.Logger, what string, fn func() error) error {
	delay := 100 * time.Millisecond
	for {
		err := fn()
		if err == nil || errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
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
