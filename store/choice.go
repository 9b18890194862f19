package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// ChoiceRetention is how long a person's last choice of project is kept
// after they last made one.
const ChoiceRetention = 90 * 24 * time.Hour

// choiceKey is {p}choice:{team}:{user}: the name of the project the person
// chose last.
func (s *Store) choiceKey(team, user string) string {
	return s.prefix + "choice:" + team + ":" + user
}

// LastProject returns the name of the project user of team chose last, or ""
// when they never chose or the choice expired (ChoiceRetention).
func (ch Choices) LastProject(ctx context.Context, team, user string) (string, error) {
	s := ch.s
	if team == "" || user == "" {
		return "", fmt.Errorf("store: last project: empty team or user: %w", ErrInvalid)
	}
	name, err := s.rdb.Get(ctx, s.choiceKey(team, user)).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	if err != nil {
		return "", wrapErr(err, "store: last project of %s", user)
	}
	return name, nil
}

// SetLastProject remembers that user of team chose the project named name,
// for ChoiceRetention from now.
func (ch Choices) SetLastProject(ctx context.Context, team, user, name string) error {
	s := ch.s
	if team == "" || user == "" || name == "" {
		return fmt.Errorf("store: set last project: empty team, user or name: %w", ErrInvalid)
	}
	if err := s.rdb.Set(ctx, s.choiceKey(team, user), name, ChoiceRetention).Err(); err != nil {
		return wrapErr(err, "store: set last project of %s", user)
	}
	return nil
}
