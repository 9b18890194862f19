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

// TakeRetry returns and removes the retry offered in thread t, so that only
// one of several requests to try again gets it; ErrNotFound when there is
// none (never offered, taken, or expired).
func (s *Store) TakeRetry(ctx context.Context, t Thread) ([]byte, error) {
	b, err := s.rdb.GetDel(ctx, s.offerKey(t)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, wrapErr(err, "store: take retry")
	}
	return b, nil
}

func (s *Store) offerKey(t Thread) string {
	return s.prefix + "retry:" + t.Team + ":" + t.Channel + ":" + t.TS
}
