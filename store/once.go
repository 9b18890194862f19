package store

import (
	"context"
	"fmt"
	"time"
)

// Once records that the event called name happened and reports whether this
// was the first time within keep: of several replicas that see the same
// event (a person's second click on a feedback button, a job's live status
// due on two replicas), exactly one gets true. name is the caller's, such as
// "vote:{team}:{channel}:{ts}:{user}"; the record expires after keep.
func (lm Limits) Once(ctx context.Context, name string, keep time.Duration) (bool, error) {
	s := lm.s
	if name == "" || keep < time.Millisecond {
		return false, fmt.Errorf("store: once %q for %v: %w", name, keep, ErrInvalid)
	}
	first, err := s.rdb.SetNX(ctx, s.prefix+"once:"+name, 1, keep).Result()
	if err != nil {
		return false, wrapErr(err, "store: once")
	}
	return first, nil
}
