package store

import (
	"context"
	"fmt"
	"time"
)

// FirstVote records that user gave feedback on a result (a message of the
// bot, named by team, channel and ts) and reports whether it was the first
// time: feedback is counted once per person and result, however often they
// click and whichever replica gets the click. The record is kept for keep.
func (s *Store) FirstVote(ctx context.Context, result Thread, user string, keep time.Duration) (bool, error) {
	if !result.valid() || user == "" {
		return false, fmt.Errorf("store: vote on %q by %q: %w", result.String(), user, ErrInvalid)
	}
	first, err := s.rdb.SetNX(ctx, s.voteKey(result, user), 1, keep).Result()
	if err != nil {
		return false, wrapErr(err, "store: vote")
	}
	return first, nil
}

func (s *Store) voteKey(t Thread, user string) string {
	return s.prefix + "vote:" + t.Team + ":" + t.Channel + ":" + t.TS + ":" + user
}
