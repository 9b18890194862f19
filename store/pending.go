package store

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/redis/go-redis/v9"
)

// A pending instruction is a job start waiting for the person to choose the
// docs project it goes to: the agent asks with buttons, whose value can hold
// at most 2,000 characters, so the instruction waits here under a random id
// the buttons carry, until it is chosen for or its time runs out. The agent
// also keeps here, under an id of a job's root message, the start its
// Switch project button starts again in another project.
//
//	{p}pending:<id>                      string: a start waiting for its project, or kept for Switch project (SavePending)

// pendingID is what an id may be: the caller's random id, safe in a key.
var pendingID = regexp.MustCompile(`^[A-Za-z0-9_-]{8,64}$`)

func (s *Store) pendingKey(id string) string { return s.prefix + "pending:" + id }

// SavePending keeps payload (opaque to the store) under id for ttl. Saving
// the same id again replaces it and its time to live.
func (ps PendingStarts) SavePending(ctx context.Context, id string, payload []byte, ttl time.Duration) error {
	s := ps.s
	if !pendingID.MatchString(id) || ttl < time.Millisecond {
		return fmt.Errorf("store: save pending %q for %v: %w", id, ttl, ErrInvalid)
	}
	if err := s.rdb.Set(ctx, s.pendingKey(id), payload, ttl).Err(); err != nil {
		return wrapErr(err, "store: save pending")
	}
	return nil
}

// Pending returns what SavePending kept under id: ErrNotFound when there is
// none (never saved, dropped, or its time ran out).
func (ps PendingStarts) Pending(ctx context.Context, id string) ([]byte, error) {
	s := ps.s
	if !pendingID.MatchString(id) {
		return nil, ErrNotFound // a value from a click: not one of ours
	}
	v, err := s.rdb.Get(ctx, s.pendingKey(id)).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, ErrNotFound
	case err != nil:
		return nil, wrapErr(err, "store: pending")
	}
	return v, nil
}

// DropPending forgets what was kept under id; nothing there is no error.
func (ps PendingStarts) DropPending(ctx context.Context, id string) error {
	s := ps.s
	if !pendingID.MatchString(id) {
		return nil
	}
	if err := s.rdb.Del(ctx, s.pendingKey(id)).Err(); err != nil {
		return wrapErr(err, "store: drop pending")
	}
	return nil
}
