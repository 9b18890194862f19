package store

import (
	"context"
	"fmt"
	"time"
)

// Once reports whether this is the first call for key within ttl (SET NX PX),
// for dropping redelivered events. Only the first caller gets true.
func (s *Store) Once(ctx context.Context, key string, ttl time.Duration) (first bool, err error) {
	if ttl < time.Millisecond {
		return false, fmt.Errorf("store: once %q: ttl %v must be at least 1ms: %w", key, ttl, ErrInvalid)
	}
	first, err = s.rdb.SetNX(ctx, s.onceKey(key), 1, ttl).Result()
	if err != nil {
		return false, fmt.Errorf("store: once %q: %w", key, err)
	}
	return first, nil
}

// Forget deletes the marker of key, so that a retry after a failure counts as
// first again.
func (s *Store) Forget(ctx context.Context, key string) error {
	if err := s.rdb.Del(ctx, s.onceKey(key)).Err(); err != nil {
		return fmt.Errorf("store: forget %q: %w", key, err)
	}
	return nil
}
