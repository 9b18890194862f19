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
func (ro RetryOffers) OfferRetry(ctx context.Context, t Thread, payload []byte, ttl time.Duration) error {
	s := ro.s
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
func (ro RetryOffers) TakeRetry(ctx context.Context, t Thread) ([]byte, error) {
	s := ro.s
	v, err := s.sc.takeRetry.Run(ctx, s.rdb, []string{s.offerKey(t)}, takenMark).Text()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, ErrNotFound
	case err != nil:
		return nil, wrapErr(err, "store: take retry")
	case v == takenMark:
		return nil, ErrTaken
	}
	return []byte(v), nil
}

// RetryOffered reports whether a retry was offered in thread t, taken or
// not, and has not expired: a "retry" there is the start's to answer.
func (ro RetryOffers) RetryOffered(ctx context.Context, t Thread) (bool, error) {
	n, err := ro.s.rdb.Exists(ctx, ro.s.offerKey(t)).Result()
	if err != nil {
		return false, wrapErr(err, "store: retry offered")
	}
	return n > 0, nil
}

// luaTakeRetry: KEYS the offer; ARGV the taken mark. Returns the offer (the
// mark when taken already) and puts the mark in its place for the rest of
// its time to live, or nil when there is none: nothing is written then, so
// no mark is ever left without an expiry.
const luaTakeRetry = `
local v = redis.call('GET', KEYS[1])
if not v then return false end
if v ~= ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL') end
return v
`

// takenMark replaces a retry offer once taken.
const takenMark = "\x00taken"

func (s *Store) offerKey(t Thread) string {
	return s.prefix + "retry:" + t.Team + ":" + t.Channel + ":" + t.TS
}
