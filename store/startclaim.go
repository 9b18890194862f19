package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrStartHeld is returned by ClaimStart when another piece of work holds
// the start of a job in the thread.
var ErrStartHeld = errors.New("store: a job is being started in this thread")

// ClaimStart makes owner (a piece of work's key) the one starter of a job in
// thread t, for ttl: the claim is taken before the job's create call, so
// that two posts starting a job in the same thread at the same moment never
// both create one. The owner takes it again (extending it) as often as it
// likes, also from a later attempt on another replica; anyone else gets
// ErrStartHeld until the owner releases it (ReleaseStart), links a job to the
// thread (LinkJob turns the claim into the link), or ttl passes, as when its
// replica died. ErrConflict means the thread is linked to a job already.
func (js Jobs) ClaimStart(ctx context.Context, t Thread, owner string, ttl time.Duration) error {
	s := js.s
	if !t.valid() || owner == "" {
		return fmt.Errorf("store: claim start in %q: incomplete thread or no owner: %w", t.String(), ErrInvalid)
	}
	if err := checkLease(ttl); err != nil {
		return err
	}
	code, err := s.sc.claimStart.Run(ctx, s.rdb, []string{s.startKey(t), s.threadKey(t)},
		s.prefix, owner, millis(ttl)).Int64()
	if err != nil {
		return wrapErr(err, "store: claim start in %s", t)
	}
	if code == codeHeld {
		return fmt.Errorf("store: claim start in %s: %w", t, ErrStartHeld)
	}
	if err := codeErr(code); err != nil {
		return wrapErr(err, "store: claim start in %s", t)
	}
	return nil
}

// ReleaseStart gives up owner's claim on starting a job in thread t, after a
// start that ended without a job linked (it failed, or its outcome is
// unknown). A claim someone else holds is left alone.
func (js Jobs) ReleaseStart(ctx context.Context, t Thread, owner string) error {
	s := js.s
	if err := s.sc.releaseStart.Run(ctx, s.rdb, []string{s.startKey(t)}, s.prefix, owner).Err(); err != nil {
		return wrapErr(err, "store: release start in %s", t)
	}
	return nil
}

// StartHeld reports whether someone holds the start of a job in thread t.
func (js Jobs) StartHeld(ctx context.Context, t Thread) (bool, error) {
	s := js.s
	n, err := s.rdb.Exists(ctx, s.startKey(t)).Result()
	if err != nil {
		return false, wrapErr(err, "store: start in %s", t)
	}
	return n == 1, nil
}

// startKey is the start claim of thread t, in the thread's shard: the
// script of LinkJob drops it with the link.
func (s *Store) startKey(t Thread) string {
	return s.shardPrefix(threadShard(t)) + "starting:" + t.Team + ":" + t.Channel + ":" + t.TS
}

// codeHeld is luaClaimStart's answer when another owner holds the claim.
const codeHeld = -4

// luaClaimStart: KEYS starting, link; ARGV prefix, owner, ttl ms.
const luaClaimStart = luaCommon + `
if redis.call('EXISTS', KEYS[2]) == 1 then return CONFLICT end
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[2] then return -4 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', tonumber(ARGV[3]))
return 0
`

// luaReleaseStart: KEYS starting; ARGV prefix, owner.
const luaReleaseStart = luaCommon + `
if redis.call('GET', KEYS[1]) == ARGV[2] then redis.call('DEL', KEYS[1]) end
return 0
`
