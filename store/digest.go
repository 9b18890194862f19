package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// DigestSub is a channel's subscription to the visitors digest. It has no
// expiry: it lasts until it is removed.
type DigestSub struct {
	// Team and Channel are the Slack ids of the channel posted to.
	Team, Channel string
	// Frequency is how often the digest is posted ("weekly", "daily"): the
	// bot's words, kept as they are.
	Frequency string
	// CreatedBy is the Slack user who subscribed the channel.
	CreatedBy string
	// CreatedAt is when the channel was subscribed (kept to the
	// millisecond).
	CreatedAt time.Time
}

// digestSubsKey is the hash of every subscription: field {team}:{channel},
// value the JSON of digestRecord.
func (s *Store) digestSubsKey() string { return s.prefix + "digest:subs" }

// digestRecord is a subscription as stored.
type digestRecord struct {
	Frequency string `json:"f"`
	CreatedBy string `json:"by,omitempty"`
	CreatedAt int64  `json:"at"` // unix ms
	// Told lists the kinds of failure the subscriber was told about
	// (NoteDigestFailure).
	Told []string `json:"told,omitempty"`
}

func digestField(team, channel string) string { return team + ":" + channel }

func checkChannel(team, channel string) error {
	if team == "" || channel == "" || strings.Contains(team, ":") {
		return fmt.Errorf("store: team %q and channel %q must be Slack ids: %w", team, channel, ErrInvalid)
	}
	return nil
}

// SubscribeDigest saves d, replacing the channel's earlier subscription.
func (s *Store) SubscribeDigest(ctx context.Context, d DigestSub) error {
	if err := checkChannel(d.Team, d.Channel); err != nil {
		return err
	}
	if d.Frequency == "" {
		return fmt.Errorf("store: subscribe digest: no frequency: %w", ErrInvalid)
	}
	rec, err := json.Marshal(digestRecord{Frequency: d.Frequency, CreatedBy: d.CreatedBy, CreatedAt: d.CreatedAt.UnixMilli()})
	if err != nil {
		return fmt.Errorf("store: subscribe digest: %w", err)
	}
	if err := s.rdb.HSet(ctx, s.digestSubsKey(), digestField(d.Team, d.Channel), rec).Err(); err != nil {
		return wrapErr(err, "store: subscribe digest of %s", d.Channel)
	}
	s.confirm(ctx)
	return nil
}

// DigestSub returns the subscription of a channel, or ErrNotFound.
func (s *Store) DigestSub(ctx context.Context, team, channel string) (*DigestSub, error) {
	if err := checkChannel(team, channel); err != nil {
		return nil, err
	}
	v, err := s.rdb.HGet(ctx, s.digestSubsKey(), digestField(team, channel)).Result()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("store: digest of %s: %w", channel, ErrNotFound)
	}
	if err != nil {
		return nil, wrapErr(err, "store: digest of %s", channel)
	}
	d, err := decodeDigestSub(digestField(team, channel), v)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// DigestSubs returns every subscription, ordered by team and channel.
func (s *Store) DigestSubs(ctx context.Context) ([]DigestSub, error) {
	all, err := s.rdb.HGetAll(ctx, s.digestSubsKey()).Result()
	if err != nil {
		return nil, wrapErr(err, "store: list digests")
	}
	out := make([]DigestSub, 0, len(all))
	for field, v := range all {
		d, err := decodeDigestSub(field, v)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b DigestSub) int {
		return strings.Compare(digestField(a.Team, a.Channel), digestField(b.Team, b.Channel))
	})
	return out, nil
}

// UnsubscribeDigest removes the channel's subscription and reports whether
// there was one.
func (s *Store) UnsubscribeDigest(ctx context.Context, team, channel string) (bool, error) {
	if err := checkChannel(team, channel); err != nil {
		return false, err
	}
	n, err := s.rdb.HDel(ctx, s.digestSubsKey(), digestField(team, channel)).Result()
	if err != nil {
		return false, wrapErr(err, "store: unsubscribe digest of %s", channel)
	}
	s.confirm(ctx)
	return n > 0, nil
}

func decodeDigestSub(field, v string) (DigestSub, error) {
	team, channel, ok := strings.Cut(field, ":")
	if !ok {
		return DigestSub{}, fmt.Errorf("store: digest field %q is not team:channel", field)
	}
	var rec digestRecord
	if err := json.Unmarshal([]byte(v), &rec); err != nil {
		return DigestSub{}, fmt.Errorf("store: digest of %s: unreadable record: %w", field, err)
	}
	return DigestSub{
		Team: team, Channel: channel,
		Frequency: rec.Frequency, CreatedBy: rec.CreatedBy,
		CreatedAt: time.UnixMilli(rec.CreatedAt).UTC(),
	}, nil
}
