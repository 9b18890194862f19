package store

import (
	"context"
	"fmt"
	"time"
)

// HomeSeenRetention is how long the record that a person opened docsbot's
// App Home is kept after they last opened it.
const HomeSeenRetention = 90 * 24 * time.Hour

// homeSeenKey is {p}homeseen:<team>:<user>: set while the person has opened
// the App Home within HomeSeenRetention.
func (s *Store) homeSeenKey(team, user string) string {
	return s.prefix + "homeseen:" + team + ":" + user
}

// NoteHomeOpened records that user of team opened docsbot's App Home, for
// HomeSeenRetention from now (each open starts the period again).
func (hs HomeSeen) NoteHomeOpened(ctx context.Context, team, user string) error {
	s := hs.s
	if team == "" || user == "" {
		return fmt.Errorf("store: note Home opened: empty team or user: %w", ErrInvalid)
	}
	if err := s.rdb.Set(ctx, s.homeSeenKey(team, user), 1, HomeSeenRetention).Err(); err != nil {
		return wrapErr(err, "store: note Home opened by %s", user)
	}
	return nil
}

// HomeOpened reports whether user of team opened docsbot's App Home within
// HomeSeenRetention (NoteHomeOpened).
func (hs HomeSeen) HomeOpened(ctx context.Context, team, user string) (bool, error) {
	s := hs.s
	if team == "" || user == "" {
		return false, fmt.Errorf("store: Home opened: empty team or user: %w", ErrInvalid)
	}
	n, err := s.rdb.Exists(ctx, s.homeSeenKey(team, user)).Result()
	if err != nil {
		return false, wrapErr(err, "store: Home opened by %s", user)
	}
	return n == 1, nil
}
