package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// The help channels' state: each channel's answer mode as set with a
// command (one hash for every channel, without expiry, so that it outlives
// every replica; what the settings say is the caller's, which a command's
// mode overrides):
//
//	{p}help:modes                        hash: <channel> -> the channel's mode (JSON, SetMode)
//
// Channels are named by their ids alone, which Slack does not reuse across
// the workspaces of an organisation.

// HelpChannels is the help channels' modes.
type HelpChannels struct{ s *Store }

// HelpChannels returns the Store's help channels.
func (s *Store) HelpChannels() HelpChannels { return HelpChannels{s} }

// ChannelMode is a channel's answer mode as a person set it.
type ChannelMode struct {
	Channel string    `json:"-"`
	Mode    string    `json:"m"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

func (s *Store) helpModesKey() string { return s.prefix + "help:modes" }

// SetMode records m as its channel's mode (the last set wins).
func (hc HelpChannels) SetMode(ctx context.Context, m ChannelMode) error {
	s := hc.s
	if m.Channel == "" || m.Mode == "" {
		return fmt.Errorf("store: set a channel's mode: empty channel or mode: %w", ErrInvalid)
	}
	v, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("store: set a channel's mode: %w", err)
	}
	if err := s.rdb.HSet(ctx, s.helpModesKey(), m.Channel, v).Err(); err != nil {
		return wrapErr(err, "store: set the mode of %s", m.Channel)
	}
	return nil
}

// Mode is channel's mode as set (SetMode); ErrNotFound when none was.
func (hc HelpChannels) Mode(ctx context.Context, channel string) (ChannelMode, error) {
	s := hc.s
	raw, err := s.rdb.HGet(ctx, s.helpModesKey(), channel).Bytes()
	if errors.Is(err, redis.Nil) {
		return ChannelMode{}, fmt.Errorf("store: the mode of %s: %w", channel, ErrNotFound)
	}
	if err != nil {
		return ChannelMode{}, wrapErr(err, "store: the mode of %s", channel)
	}
	return decodeMode(channel, raw)
}

// Modes are every channel's mode as set, in no order.
func (hc HelpChannels) Modes(ctx context.Context) ([]ChannelMode, error) {
	s := hc.s
	all, err := s.rdb.HGetAll(ctx, s.helpModesKey()).Result()
	if err != nil {
		return nil, wrapErr(err, "store: the channels' modes")
	}
	out := make([]ChannelMode, 0, len(all))
	for field, raw := range all {
		m, err := decodeMode(field, []byte(raw))
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// decodeMode reads a mode recorded under field (the channel).
func decodeMode(field string, raw []byte) (ChannelMode, error) {
	var m ChannelMode
	if err := json.Unmarshal(raw, &m); err != nil {
		return ChannelMode{}, fmt.Errorf("store: the mode of %s: %w", field, err)
	}
	m.Channel = field
	return m, nil
}
