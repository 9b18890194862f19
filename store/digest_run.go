package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// DigestRun is one posting of a channel's digest: the channel, the project
// (DigestSub.Project, "" for a subscription without one) and the period it
// is for (such as "2026-W48" or "2026-11-23"). Two projects' digests in one
// channel are two runs.
type DigestRun struct {
	Team, Channel, Period string
	Project               string
}

// DigestClaim is a replica's right to post a run while its lease lasts.
type DigestClaim struct {
	DigestRun
	// Token fences the claim: a later claim of the run has a larger one.
	Token int64
	// Attempt counts the claims of the run, this one included. Above 1 an
	// earlier claimer may have posted before it died: look for its message
	// before posting.
	Attempt int
}

// ErrDigestPosted is returned when a run was posted already: it is never
// posted again.
var ErrDigestPosted = errors.New("store: digest already posted")

// ErrDigestHeld is returned (as a *DigestHeldError) when another claim of
// the run still holds its lease.
var ErrDigestHeld = errors.New("store: digest claimed by another replica")

// DigestHeldError says how long the other claim's lease lasts.
type DigestHeldError struct {
	Run DigestRun
	// Left is the rest of the other claim's lease: it may be taken over
	// after that.
	Left time.Duration
}

func (e *DigestHeldError) Error() string {
	return fmt.Sprintf("store: digest %s of %s claimed by another replica for %v more", e.Run.Period, e.Run.Channel, e.Left)
}

// Is makes errors.Is(err, ErrDigestHeld) true.
func (e *DigestHeldError) Is(target error) bool { return target == ErrDigestHeld }

// Script results of the digest runs, besides codeNotFound and codeStale.
const (
	codeDigestPosted = -10
	codeDigestHeld   = -11
)

// The record of a run is a hash {p}digest:run:{team}:{channel}:{period}
// ({p}digest:run:{team}:{channel}:{project}:{period} for a project's):
// tk (token of the latest claim), at (claims so far), le (unix ms the
// latest lease ends, Redis clock), p (unix ms it was marked posted). It
// expires keep after its first claim.

// luaClaimDigest: KEYS run; ARGV prefix, lease ms, keep ms.
// Returns {token, attempt}, {POSTED} or {HELD, ms left}.
const luaClaimDigest = luaCommon + `
local k, POSTED, HELD = KEYS[1], -10, -11
local now = now_ms()
local f = redis.call('HMGET', k, 'p', 'le')
if f[1] then return {POSTED} end
local le = tonumber(f[2] or 0)
if le > now then return {HELD, le - now} end
local tk = redis.call('HINCRBY', k, 'tk', 1)
local at = redis.call('HINCRBY', k, 'at', 1)
redis.call('HSET', k, 'le', now + tonumber(ARGV[2]))
if at == 1 then redis.call('PEXPIRE', k, tonumber(ARGV[3])) end
return {tk, at}
`

// luaDigestCommon is the head of the scripts of a claim: check_run tells
// whether claim tok still holds the run at k, unposted.
const luaDigestCommon = luaCommon + `
local POSTED = -10
-- nil if tok is the current claim of the unposted run at k, else a code
local function check_run(k, tok)
  local f = redis.call('HMGET', k, 'tk', 'p')
  if not f[1] then return NOTFOUND end
  if f[2] then return POSTED end
  if f[1] ~= tok then return STALE end
  return nil
end
`

// luaExtendDigest: KEYS run; ARGV prefix, token, lease ms.
const luaExtendDigest = luaDigestCommon + `
local e = check_run(KEYS[1], ARGV[2])
if e then return e end
redis.call('HSET', KEYS[1], 'le', now_ms() + tonumber(ARGV[3]))
return 0
`

// luaMarkDigest: KEYS run; ARGV prefix, token. Records the post whatever
// the token (a message was posted), then reports a token no longer current.
const luaMarkDigest = luaCommon + `
local k = KEYS[1]
local tk = redis.call('HGET', k, 'tk')
if not tk then return NOTFOUND end
redis.call('HSETNX', k, 'p', now_ms())
if tk ~= ARGV[2] then return STALE end
return 0
`

// luaReleaseDigest: KEYS run; ARGV prefix, token, ms. Ends the lease that
// many ms from now.
const luaReleaseDigest = luaDigestCommon + `
local e = check_run(KEYS[1], ARGV[2])
if e then return e end
redis.call('HSET', KEYS[1], 'le', now_ms() + tonumber(ARGV[3]))
return 0
`

// digestScripts holds the scripts of the digest runs.
type digestScripts struct {
	claim, extend, mark, release *redis.Script
}

func newDigestScripts() digestScripts {
	return digestScripts{
		claim:   redis.NewScript(luaClaimDigest),
		extend:  redis.NewScript(luaExtendDigest),
		mark:    redis.NewScript(luaMarkDigest),
		release: redis.NewScript(luaReleaseDigest),
	}
}

func (ds Digests) runKey(r DigestRun) string {
	head := ds.s.prefix + "digest:" + ds.space() + "run:" + r.Team + ":" + r.Channel + ":"
	if r.Project == "" {
		return head + r.Period
	}
	return head + r.Project + ":" + r.Period
}

func checkRun(r DigestRun) error {
	if err := checkSub(r.Team, r.Channel, r.Project); err != nil {
		return err
	}
	if r.Period == "" {
		return fmt.Errorf("store: digest run of %s: no period: %w", r.Channel, ErrInvalid)
	}
	return nil
}

// ClaimDigest claims run for lease, so that of all the replicas due to post
// it, one does: ErrDigestPosted when it was posted already, a
// *DigestHeldError (errors.Is ErrDigestHeld) while another claim holds its
// lease. A claim whose lease ended without a post (its replica died) is
// taken over. The run's record lasts keep from its first claim, which must
// be longer than any replica keeps trying the period (a record gone is a
// run never claimed), and at least lease.
func (ds Digests) ClaimDigest(ctx context.Context, run DigestRun, lease, keep time.Duration) (DigestClaim, error) {
	s := ds.s
	if err := checkRun(run); err != nil {
		return DigestClaim{}, err
	}
	if err := checkLease(lease); err != nil {
		return DigestClaim{}, err
	}
	if keep < lease {
		return DigestClaim{}, fmt.Errorf("store: claim digest: keep %v shorter than the lease %v: %w", keep, lease, ErrInvalid)
	}
	res, err := s.sc.digest.claim.Run(ctx, s.rdb, []string{ds.runKey(run)}, s.prefix, millis(lease), millis(keep)).Int64Slice()
	if err != nil {
		return DigestClaim{}, wrapErr(err, "store: claim digest %s of %s", run.Period, run.Channel)
	}
	switch {
	case len(res) == 1 && res[0] == codeDigestPosted:
		return DigestClaim{}, fmt.Errorf("store: claim digest %s of %s: %w", run.Period, run.Channel, ErrDigestPosted)
	case len(res) == 2 && res[0] == codeDigestHeld:
		return DigestClaim{}, &DigestHeldError{Run: run, Left: time.Duration(res[1]) * time.Millisecond}
	case len(res) != 2 || res[0] < 1:
		return DigestClaim{}, fmt.Errorf("store: claim digest %s of %s: unexpected script reply %v", run.Period, run.Channel, res)
	}
	s.confirmBestEffort(ctx)
	return DigestClaim{DigestRun: run, Token: res[0], Attempt: int(res[1])}, nil
}

// ExtendDigest makes c's lease last lease from now. Call it right before
// posting: ErrStale when another claim took the run over (the lease had
// ended), ErrDigestPosted when the run was posted, ErrNotFound when its
// record expired.
func (ds Digests) ExtendDigest(ctx context.Context, c DigestClaim, lease time.Duration) error {
	s := ds.s
	if err := checkLease(lease); err != nil {
		return err
	}
	code, err := s.sc.digest.extend.Run(ctx, s.rdb, []string{ds.runKey(c.DigestRun)}, s.prefix, c.Token, millis(lease)).Int64()
	if err != nil {
		return wrapErr(err, "store: extend digest %s of %s", c.Period, c.Channel)
	}
	return digestCodeErr(code, "store: extend digest", c.DigestRun)
}

// MarkDigestPosted records that c's run was posted, so that it is never
// posted again. The mark is recorded even when c is no longer current; the
// call then returns ErrStale to say that another claim holds the run and
// may have posted too.
func (ds Digests) MarkDigestPosted(ctx context.Context, c DigestClaim) error {
	s := ds.s
	code, err := s.sc.digest.mark.Run(ctx, s.rdb, []string{ds.runKey(c.DigestRun)}, s.prefix, c.Token).Int64()
	if err != nil {
		return wrapErr(err, "store: mark digest %s of %s posted", c.Period, c.Channel)
	}
	s.confirmBestEffort(ctx)
	return digestCodeErr(code, "store: mark digest posted", c.DigestRun)
}

// ReleaseDigest ends c's lease without a post (the post failed in a way that
// a retry may fix) after (0: now), so that the next claim need not wait for
// the whole lease; a post that may still land asks for the landing window
// ("Handing back" in the package doc).
func (ds Digests) ReleaseDigest(ctx context.Context, c DigestClaim, after time.Duration) error {
	s := ds.s
	code, err := s.sc.digest.release.Run(ctx, s.rdb, []string{ds.runKey(c.DigestRun)}, s.prefix, c.Token, millis(after)).Int64()
	if err != nil {
		return wrapErr(err, "store: release digest %s of %s", c.Period, c.Channel)
	}
	return digestCodeErr(code, "store: release digest", c.DigestRun)
}

func digestCodeErr(code int64, what string, r DigestRun) error {
	var err error
	if code == codeDigestPosted {
		err = ErrDigestPosted
	} else {
		err = codeErr(code)
	}
	if err != nil {
		return fmt.Errorf("%s %s of %s: %w", what, r.Period, r.Channel, err)
	}
	return nil
}
