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

// DigestSub is a channel's subscription to the visitors digest of one docs
// project. It has no expiry: it lasts until it is removed. A channel has at
// most one subscription per project.
type DigestSub struct {
	// Team and Channel are the Slack ids of the channel posted to.
	Team, Channel string
	// Project is the project whose numbers are posted, as the bot keys it
	// (bot.ProjectKey): "" for a subscription made before projects existed,
	// or for the implicit project, whose field stays <team>:<channel>.
	Project string
	// Frequency is how often the digest is posted ("weekly", "daily"): the
	// bot's words, kept as they are.
	Frequency string
	// CreatedBy is the Slack user who subscribed the channel.
	CreatedBy string
	// CreatedAt is when the channel was subscribed (kept to the
	// millisecond).
	CreatedAt time.Time
	// Enterprise is the Enterprise Grid organisation of the workspace
	// (Team), "" elsewhere and in subscriptions made before it was kept.
	Enterprise string
}

// Workspace is the Slack workspace the digest is posted in.
func (d DigestSub) Workspace() Workspace { return Workspace{Team: d.Team, Enterprise: d.Enterprise} }

// subsKey is the hash of every subscription of ds's kind: field
// {team}:{channel} (project "") or {team}:{channel}:{project}, value the
// JSON of digestRecord.
func (ds Digests) subsKey() string { return ds.s.prefix + "digest:" + ds.space() + "subs" }

// space is what follows "digest:" in the keys of ds's kind: "" for the
// visitors digest (the keys it had before there were others), "health:"
// for the docs health's.
func (ds Digests) space() string {
	if ds.kind == "" {
		return ""
	}
	return ds.kind + ":"
}

// digestRecord is a subscription as stored.
type digestRecord struct {
	Frequency string `json:"f"`
	CreatedBy string `json:"by,omitempty"`
	CreatedAt int64  `json:"at"` // unix ms
	// Enterprise is DigestSub.Enterprise.
	Enterprise string `json:"e,omitempty"`
	// Told lists the kinds of failure the subscriber was told about
	// (NoteDigestFailure).
	Told []string `json:"told,omitempty"`
}

// digestField is a subscription's field in the hash: the project's name
// follows the channel unless it is "".
func digestField(team, channel, project string) string {
	if project == "" {
		return team + ":" + channel
	}
	return team + ":" + channel + ":" + project
}

func checkChannel(team, channel string) error {
	if team == "" || channel == "" || strings.Contains(team, ":") || strings.Contains(channel, ":") {
		return fmt.Errorf("store: team %q and channel %q must be Slack ids: %w", team, channel, ErrInvalid)
	}
	return nil
}

// checkSub checks a subscription's channel and project.
func checkSub(team, channel, project string) error {
	if err := checkChannel(team, channel); err != nil {
		return err
	}
	if strings.Contains(project, ":") {
		return fmt.Errorf("store: project %q must not hold a colon: %w", project, ErrInvalid)
	}
	return nil
}

// SubscribeDigest saves d, replacing the channel's earlier subscription to
// the same project.
func (ds Digests) SubscribeDigest(ctx context.Context, d DigestSub) error {
	s := ds.s
	if err := checkSub(d.Team, d.Channel, d.Project); err != nil {
		return err
	}
	if d.Frequency == "" {
		return fmt.Errorf("store: subscribe digest: no frequency: %w", ErrInvalid)
	}
	rec, err := json.Marshal(digestRecord{Frequency: d.Frequency, CreatedBy: d.CreatedBy, CreatedAt: d.CreatedAt.UnixMilli(), Enterprise: d.Enterprise})
	if err != nil {
		return fmt.Errorf("store: subscribe digest: %w", err)
	}
	if err := s.rdb.HSet(ctx, ds.subsKey(), digestField(d.Team, d.Channel, d.Project), rec).Err(); err != nil {
		return wrapErr(err, "store: subscribe digest of %s", d.Channel)
	}
	s.confirmBestEffort(ctx)
	return nil
}

// DigestSub returns the subscription of a channel to project ("" for the
// subscription made without one), or ErrNotFound.
func (ds Digests) DigestSub(ctx context.Context, team, channel, project string) (*DigestSub, error) {
	s := ds.s
	if err := checkSub(team, channel, project); err != nil {
		return nil, err
	}
	v, err := s.rdb.HGet(ctx, ds.subsKey(), digestField(team, channel, project)).Result()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("store: digest of %s: %w", channel, ErrNotFound)
	}
	if err != nil {
		return nil, wrapErr(err, "store: digest of %s", channel)
	}
	d, err := decodeDigestSub(digestField(team, channel, project), v)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// DigestSubs returns every subscription, ordered by team, channel and
// project.
func (ds Digests) DigestSubs(ctx context.Context) ([]DigestSub, error) {
	s := ds.s
	all, err := s.rdb.HGetAll(ctx, ds.subsKey()).Result()
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
		return strings.Compare(digestField(a.Team, a.Channel, a.Project), digestField(b.Team, b.Channel, b.Project))
	})
	return out, nil
}

// UnsubscribeDigest removes the channel's subscription to project ("" for
// the one made without a project) and reports whether there was one.
func (ds Digests) UnsubscribeDigest(ctx context.Context, team, channel, project string) (bool, error) {
	s := ds.s
	if err := checkSub(team, channel, project); err != nil {
		return false, err
	}
	n, err := s.rdb.HDel(ctx, ds.subsKey(), digestField(team, channel, project)).Result()
	if err != nil {
		return false, wrapErr(err, "store: unsubscribe digest of %s", channel)
	}
	s.confirmBestEffort(ctx)
	return n > 0, nil
}

func decodeDigestSub(field, v string) (DigestSub, error) {
	parts := strings.Split(field, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return DigestSub{}, fmt.Errorf("store: digest field %q is not team:channel[:project]", field)
	}
	team, channel, project := parts[0], parts[1], ""
	if len(parts) == 3 {
		project = parts[2]
	}
	var rec digestRecord
	if err := json.Unmarshal([]byte(v), &rec); err != nil {
		return DigestSub{}, fmt.Errorf("store: digest of %s: unreadable record: %w", field, err)
	}
	return DigestSub{
		Team: team, Channel: channel, Project: project,
		Frequency: rec.Frequency, CreatedBy: rec.CreatedBy,
		CreatedAt:  time.UnixMilli(rec.CreatedAt).UTC(),
		Enterprise: rec.Enterprise,
	}, nil
}
