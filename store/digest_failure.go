package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/redis/go-redis/v9"
)

// A digest Slack refuses to post for good (the bot is not in the channel,
// the channel is archived or gone) is not retried, and its subscriber is told
// privately: once per kind of failure of a subscription (NoteDigestFailure),
// and once for a failure that ends it (StopDigest). Both change only the
// subscription d names: one made again since (a new CreatedAt) is left alone.

// NoteDigestFailure records that the subscriber of d is being told about a
// failure of kind (such as Slack's error code) and reports whether it is the
// first time for this subscription; false means the subscriber was told
// already. ErrNotFound means d is no longer the channel's subscription (to d's project).
func (ds Digests) NoteDigestFailure(ctx context.Context, d DigestSub, kind string) (bool, error) {
	first := false
	err := ds.updateDigestSub(ctx, d, false, func(rec *digestRecord) bool {
		if slices.Contains(rec.Told, kind) {
			return false
		}
		rec.Told = append(rec.Told, kind)
		first = true
		return true
	})
	if err != nil {
		return false, fmt.Errorf("store: note digest failure %q: %w", kind, err)
	}
	return first, nil
}

// StopDigest removes the subscription d, unless the channel was subscribed
// again since, and reports whether it did.
func (ds Digests) StopDigest(ctx context.Context, d DigestSub) (bool, error) {
	s := ds.s
	stopped := false
	err := ds.updateDigestSub(ctx, d, true, func(*digestRecord) bool {
		stopped = true
		return true
	})
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: stop digest: %w", err)
	}
	s.confirmBestEffort(ctx)
	return stopped, nil
}

// updateDigestSub changes the record of subscription d in one optimistic
// transaction (WATCH, MULTI): change edits the record and reports whether
// to write it (or, with remove, to delete it). It fails with
// ErrNotFound when the channel has no subscription or another one than d.
func (ds Digests) updateDigestSub(ctx context.Context, d DigestSub, remove bool, change func(*digestRecord) bool) error {
	if err := checkSub(d.Team, d.Channel, d.Project); err != nil {
		return err
	}
	key, field := ds.subsKey(), digestField(d.Team, d.Channel, d.Project)
	update := func(tx *redis.Tx) error {
		v, err := tx.HGet(ctx, key, field).Result()
		if errors.Is(err, redis.Nil) {
			return fmt.Errorf("digest of %s: %w", d.Channel, ErrNotFound)
		}
		if err != nil {
			return err
		}
		var rec digestRecord
		if err := json.Unmarshal([]byte(v), &rec); err != nil {
			return fmt.Errorf("digest of %s: unreadable record: %w", d.Channel, err)
		}
		if rec.CreatedAt != d.CreatedAt.UnixMilli() {
			return fmt.Errorf("digest of %s: subscribed again since: %w", d.Channel, ErrNotFound)
		}
		if !change(&rec) {
			return nil
		}
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			if remove {
				p.HDel(ctx, key, field)
			} else {
				p.HSet(ctx, key, field, b)
			}
			return nil
		})
		return err
	}
	var err error
	for range 3 { // another writer of the hash in between: read again
		if err = ds.s.rdb.Watch(ctx, update, key); !errors.Is(err, redis.TxFailedErr) {
			break
		}
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		return wrapErr(err, "digest of %s", d.Channel)
	}
	return err
}
