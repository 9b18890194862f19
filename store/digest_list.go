package store

import (
	"context"
	"slices"
	"strings"
)

// digestScanCount is the HSCAN batch size of ChannelDigestSubs.
const digestScanCount = 200

// ChannelDigestSubs returns the subscriptions of one channel: the one made
// without a project (Project "") first, then the projects' in the order of
// their names. It reads the subscriptions' hash with HSCAN, matching the
// channel's fields only, and returns an empty list when the channel has
// none.
func (ds Digests) ChannelDigestSubs(ctx context.Context, team, channel string) ([]DigestSub, error) {
	s := ds.s
	if err := checkChannel(team, channel); err != nil {
		return nil, err
	}
	own := digestField(team, channel, "")
	seen := map[string]bool{}
	var out []DigestSub
	// The pattern matches other channels whose id starts with this one's
	// (C1 and C12): a field is the channel's when it is own or own:project.
	iter := s.rdb.HScan(ctx, ds.subsKey(), 0, escapeGlob(own)+"*", digestScanCount).Iterator()
	for iter.Next(ctx) {
		field := iter.Val()
		if !iter.Next(ctx) {
			break
		}
		value := iter.Val()
		if field != own && !strings.HasPrefix(field, own+":") || seen[field] {
			// HSCAN may return a field twice.
			continue
		}
		seen[field] = true
		d, err := decodeDigestSub(field, value)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	if err := iter.Err(); err != nil {
		return nil, wrapErr(err, "store: digests of %s", channel)
	}
	slices.SortFunc(out, func(a, b DigestSub) int { return strings.Compare(a.Project, b.Project) })
	return out, nil
}
