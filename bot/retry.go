package bot

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// retry calls fn until it succeeds or ctx ends, backing off from 100ms to 5s.
// It is for writes that must not be lost (a created job's link), not for API
// calls, which have their own retry rules.
func retry(ctx context.Context, log *slog.Logger, what string, fn func() error) error {
	delay := 100 * time.Millisecond
	for {
		err := fn()
		if err == nil {
			return nil
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
