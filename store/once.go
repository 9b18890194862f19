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

// OnceBy is Once for an event that one piece of work records, by (its
// key): it reports true for by's first call and for every later call of
// the same by within keep, false for anyone else's. An attempt of a piece
// of work after a crash between Once and its next step so learns that
// the event is its own, not another's.
func (lm Limits) OnceBy(ctx context.Context, name, by string, keep time.Duration) (bool, error) {
	s := lm.s
	if name == "" || by == "" || keep < time.Millisecond {
		return false, fmt.Errorf("store: once %q by %q for %v: %w", name, by, keep, ErrInvalid)
	}
	n, err := s.sc.onceBy.Run(ctx, s.rdb, []string{s.prefix + "once:" + name}, by, keep.Milliseconds()).Int64()
	if err != nil {
		return false, wrapErr(err, "store: once")
	}
	return n == 1, nil
}

// ForgetOnce forgets that the event called name happened, so that the
// next Once of it is the first again: for an event whose one action failed
// after Once let it through (a post that did not go out). None is no error.
func (lm Limits) ForgetOnce(ctx context.Context, name string) error {
	s := lm.s
	if name == "" {
		return fmt.Errorf("store: forget once: %w", ErrInvalid)
	}
	if err := s.rdb.Del(ctx, s.prefix+"once:"+name).Err(); err != nil {
		return wrapErr(err, "store: forget once")
	}
	return nil
}

// Happened reports whether the event called name happened within its keep
// (Once), without recording it: what a message shows of an event another
// part recorded.
func (lm Limits) Happened(ctx context.Context, name string) (bool, error) {
	s := lm.s
	if name == "" {
		return false, fmt.Errorf("store: happened: %w", ErrInvalid)
	}
	n, err := s.rdb.Exists(ctx, s.prefix+"once:"+name).Result()
	if err != nil {
		return false, wrapErr(err, "store: happened")
	}
	return n == 1, nil
}
