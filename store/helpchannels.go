package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
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
	// Workspace is the Slack workspace of the channel; zero for the one
	// workspace and in modes set before it was recorded.
	Workspace Workspace `json:"ws,omitzero"`
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

// Expert calls: a help channel's question handed to its experts (Ask an
// expert), once per thread, with the time its reminder is due; each
// reminder is claimed by one replica at a time under a lease, and ended
// once posted (or needless). The call's record and the schedule share a
// hash tag, so that a script writes both:
//
//	{p}help:{calls}                      sorted set: <channel>:<ts> -> when the reminder is due (unix ms, the caller's clock)
//	{p}help:{calls}:<channel>:<ts>       string: the call (JSON, CallExpert, ResolveCall), kept ExpertCallKeep
//	{p}help:{calls}:resolved:<project>   sorted set: <channel>:<ts> -> when it was resolved (unix ms), for ExpertCallKeep

// ExpertCallKeep is how long an expert call's record is kept.
const ExpertCallKeep = 30 * 24 * time.Hour

// ExpertCall is a question handed to experts in its thread.
type ExpertCall struct {
	Channel string `json:"c"`
	TS      string `json:"t"` // the question's message, the thread
	Team    string `json:"tm,omitempty"`
	// Enterprise is the Enterprise Grid organisation of Team ("" elsewhere).
	Enterprise string `json:"e,omitempty"`
	// Asker asked the question; CalledBy pressed Ask an expert.
	Asker    string `json:"a"`
	CalledBy string `json:"by"`
	// Experts are the user and user group ids called.
	Experts []string  `json:"x"`
	Project string    `json:"p,omitempty"`
	Called  time.Time `json:"at"`
	// ResolvedBy marked the thread resolved, at Resolved; "" while open.
	ResolvedBy string    `json:"rby,omitempty"`
	Resolved   time.Time `json:"rat,omitzero"`
	// Work and ResolvedWork name the pieces of work (their inbox keys)
	// that made the call and resolved it: an attempt of either after a
	// crash finds what it did its own.
	Work         string `json:"w,omitempty"`
	ResolvedWork string `json:"rw,omitempty"`
}

// Ref is the call's thread, as the schedule names it.
func (c ExpertCall) Ref() string { return c.Channel + ":" + c.TS }

func (s *Store) callsKey() string          { return s.prefix + "help:{calls}" }
func (s *Store) callKey(ref string) string { return s.callsKey() + ":" + ref }

// resolvedKey holds the threads of project's calls resolved; "" is the
// implicit project's. A ref (<channel>:<ts>) holds a colon, a project name
// none, so the two keys never meet.
func (s *Store) resolvedKey(project string) string { return s.callsKey() + ":resolved:" + project }

// luaCallExpert: KEYS schedule, call; ARGV ref, call JSON, due ms, keep ms.
// Records the call and schedules its reminder unless the thread has one
// already; returns 1 when it was the first.
const luaCallExpert = `
if redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[4]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  return 1
end
return 0
`

// luaClaimReminders: KEYS schedule; ARGV now ms, lease ms, most. Moves the
// reminders due by now a lease ahead and returns them.
const luaClaimReminders = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, ref in ipairs(due) do
  redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), ref)
end
return due
`

// CallExpert records c and schedules its reminder at due; first is false
// (nothing written) when the thread's experts were called already.
func (hc HelpChannels) CallExpert(ctx context.Context, c ExpertCall, due time.Time) (bool, error) {
	s := hc.s
	if c.Channel == "" || c.TS == "" {
		return false, fmt.Errorf("store: call experts: no thread: %w", ErrInvalid)
	}
	v, err := json.Marshal(c)
	if err != nil {
		return false, fmt.Errorf("store: call experts: %w", err)
	}
	n, err := s.sc.callExpert.Run(ctx, s.rdb, []string{s.callsKey(), s.callKey(c.Ref())}, c.Ref(), v, due.UnixMilli(),
		ExpertCallKeep.Milliseconds()).Int()
	if err != nil {
		return false, wrapErr(err, "store: call experts in %s", c.Ref())
	}
	return n == 1, nil
}

// ExpertCall is the call of the thread ref (<channel>:<ts>); ErrNotFound
// when none was made (or it is older than ExpertCallKeep).
func (hc HelpChannels) ExpertCall(ctx context.Context, ref string) (ExpertCall, error) {
	s := hc.s
	raw, err := s.rdb.Get(ctx, s.callKey(ref)).Bytes()
	if errors.Is(err, redis.Nil) {
		return ExpertCall{}, fmt.Errorf("store: the expert call of %s: %w", ref, ErrNotFound)
	}
	if err != nil {
		return ExpertCall{}, wrapErr(err, "store: the expert call of %s", ref)
	}
	var c ExpertCall
	if err := json.Unmarshal(raw, &c); err != nil {
		return ExpertCall{}, fmt.Errorf("store: the expert call of %s: %w", ref, err)
	}
	return c, nil
}

// ClaimReminders takes up to most reminders due by now (the caller's
// clock), each for lease: no other claim returns it until the lease ends,
// so a reminder is worked by one replica at a time, and again after a
// replica that claimed it died. EndReminder ends it.
func (hc HelpChannels) ClaimReminders(ctx context.Context, now time.Time, lease time.Duration, most int) ([]ExpertCall, error) {
	s := hc.s
	refs, err := s.sc.claimReminders.Run(ctx, s.rdb, []string{s.callsKey()}, now.UnixMilli(), lease.Milliseconds(), most).StringSlice()
	if err != nil {
		return nil, wrapErr(err, "store: claim expert reminders")
	}
	var out []ExpertCall
	for _, ref := range refs {
		c, err := hc.ExpertCall(ctx, ref)
		if errors.Is(err, ErrNotFound) {
			_ = hc.EndReminder(ctx, ref) // its record expired: nothing to remind
			continue
		}
		if err != nil {
			return out, err
		}
		out = append(out, c)
	}
	return out, nil
}

// ForgetCall forgets the call of ref, as if never made: for a call whose
// post did not go out. None is no error.
func (hc HelpChannels) ForgetCall(ctx context.Context, ref string) error {
	s := hc.s
	if _, err := s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, s.callKey(ref))
		p.ZRem(ctx, s.callsKey(), ref)
		return nil
	}); err != nil {
		return wrapErr(err, "store: forget the expert call of %s", ref)
	}
	return nil
}

// EndReminder takes the reminder of ref off the schedule: posted, or
// needless (the thread answered or resolved).
func (hc HelpChannels) EndReminder(ctx context.Context, ref string) error {
	s := hc.s
	if err := s.rdb.ZRem(ctx, s.callsKey(), ref).Err(); err != nil {
		return wrapErr(err, "store: end the expert reminder of %s", ref)
	}
	return nil
}

// ResolveCall records that by resolved the call of ref at at, in the piece
// of work work ("" for none), and ends its reminder; first is false when it
// was resolved already (the call as it is returned: ResolvedWork says
// whether by work itself).
func (hc HelpChannels) ResolveCall(ctx context.Context, ref, by, work string, at time.Time) (ExpertCall, bool, error) {
	s := hc.s
	var out ExpertCall
	first := false
	err := s.rdb.Watch(ctx, func(tx *redis.Tx) error {
		raw, err := tx.Get(ctx, s.callKey(ref)).Bytes()
		if err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &out); err != nil {
			return err
		}
		if out.ResolvedBy != "" {
			return nil
		}
		out.ResolvedBy, out.Resolved, out.ResolvedWork = by, at, work
		v, _ := json.Marshal(out)
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, s.callKey(ref), v, redis.KeepTTL)
			p.ZRem(ctx, s.callsKey(), ref)
			// Counted in the project's resolved threads with the same
			// write: a call is resolved once, so counted once.
			rk := s.resolvedKey(out.Project)
			p.ZAdd(ctx, rk, redis.Z{Score: float64(at.UnixMilli()), Member: ref})
			p.ZRemRangeByScore(ctx, rk, "-inf", "("+strconv.FormatInt(at.Add(-ExpertCallKeep).UnixMilli(), 10))
			p.PExpire(ctx, rk, ExpertCallKeep)
			return nil
		})
		first = err == nil
		return err
	}, s.callKey(ref))
	switch {
	case errors.Is(err, redis.Nil):
		return ExpertCall{}, false, fmt.Errorf("store: resolve the expert call of %s: %w", ref, ErrNotFound)
	case err != nil:
		return ExpertCall{}, false, wrapErr(err, "store: resolve the expert call of %s", ref)
	}
	return out, first, nil
}

// ResolvedCalls counts project's expert calls ("" the implicit project's)
// resolved from from (inclusive) to to (exclusive), within ExpertCallKeep.
func (hc HelpChannels) ResolvedCalls(ctx context.Context, project string, from, to time.Time) (int64, error) {
	s := hc.s
	n, err := s.rdb.ZCount(ctx, s.resolvedKey(project), strconv.FormatInt(from.UnixMilli(), 10),
		"("+strconv.FormatInt(to.UnixMilli(), 10)).Result()
	if err != nil {
		return 0, wrapErr(err, "store: count the resolved expert calls of %q", project)
	}
	return n, nil
}
