package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// OfferRetry remembers, for ttl, what to do if someone asks to try the start
// of a job again in thread t: a start whose outcome is unknown (the replica
// died during the create call, or the API did not confirm it). payload is
// opaque to the store. A second offer for the thread replaces the first.
func (s *Store) OfferRetry(ctx context.Context, t Thread, payload []byte, ttl time.Duration) error {
	if ttl < time.Millisecond {
		return fmt.Errorf("store: offer retry: ttl %v must be at least 1ms: %w", ttl, ErrInvalid)
	}
	if err := s.rdb.Set(ctx, s.offerKey(t), payload, ttl).Err(); err != nil {
		return wrapErr(err, "store: offer retry")
	}
	return nil
}

// ErrTaken is returned by TakeRetry when the retry offered in the thread was
// taken already.
var ErrTaken = errors.New("store: retry already taken")

// TakeRetry returns the retry offered in thread t and marks it taken (for the
// rest of its time to live), so that only one of several requests to try
// again gets it: ErrTaken for the others, ErrNotFound when none was offered
// or it expired.
func (s *Store) TakeRetry(ctx context.Context, t Thread) ([]byte, error) {
	b, err := s.rdb.SetArgs(ctx, s.offerKey(t), takenMark, redis.SetArgs{KeepTTL: true, Get: true}).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		// Nothing was there: drop the mark just written.
		if derr := s.rdb.Del(ctx, s.offerKey(t)).Err(); derr != nil {
			return nil, wrapErr(derr, "store: take retry")
		}
		return nil, ErrNotFound
	case err != nil:
		return nil, wrapErr(err, "store: take retry")
	case string(b) == takenMark:
		return nil, ErrTaken
	}
	return b, nil
}

// takenMark replaces a retry offer once taken.
const takenMark = "\x00taken"

func (s *Store) offerKey(t Thread) string {
	return s.prefix + "retry:" + t.Team + ":" + t.Channel + ":" + t.TS
}
