package store

import (
	"context"
	"fmt"
	"time"
)

// Budget is a request budget shared by every replica through Redis: at most
// Limit requests in any sliding Window, measured exactly on the Redis clock.
// Budgets with the same Name under the same prefix are one budget.
//
// Keys: {p}budget:{name} (sorted set: token -> unix ms it was taken),
// {p}budget:{name}:seq (token counter) and {p}budget:{name}:block (present
// while the service asked to wait, see [Limits.BlockBudget]).
type Budget struct {
	// Name tells budgets apart, such as "analytics".
	Name string
	// Limit is the number of requests allowed in any Window; at least 1.
	Limit int
	// Window is the length of the sliding window; at least 1ms.
	Window time.Duration
}

// Grant is the answer to a request for budget.
type Grant struct {
	// Tokens names the requests granted, one each, for [Limits.ReturnBudget]
	// (or [Limits.Refund] of a [Draw]). It is empty when the request was
	// refused.
	Tokens []string
	// Remaining is the number of requests left in the window after the
	// grant, or now when refused: for a Draw, what that draw may still take
	// (its Keep left aside, and no more than its share).
	Remaining int
	// RetryAfter, when refused, is how long until the amount asked for fits
	// (or the block ends). It is 0 when the amount can never fit because it
	// is larger than the limit (or than what a Draw may take at all).
	RetryAfter time.Duration
	// Blocked reports a refusal because the service itself asked to wait
	// (see [Limits.BlockBudget]).
	Blocked bool
	// Refused says which limit refused the request (the one that frees up
	// last): RefusedNone when granted or Blocked.
	Refused Refusal
}

// OK reports whether the request was granted.
func (g Grant) OK() bool { return len(g.Tokens) > 0 }

// Refusal is the limit that refused a request for budget.
type Refusal int

// The limits of a Draw.
const (
	RefusedNone Refusal = iota
	// RefusedBudget: the budget itself is spent (Limit reached).
	RefusedBudget
	// RefusedKeep: what is left of the budget is the part kept from this
	// draw (Draw.Keep, such as the reserve of scheduled digests).
	RefusedKeep
	// RefusedShare: the spender's own share is spent (Draw.Share).
	RefusedShare
)

// luaTake: KEYS window, seq, block[, share window]; ARGV limit, window ms,
// n, keep, share, peek (1: say whether n fits, take nothing), id (the
// request's name, "" for none: a request of that name still in the window
// is granted again, taking nothing).
// Returns {granted 0/1, remaining, wait ms, blocked 0/1, refusal, tokens...}.
// remaining is what this draw may still take: after the grant, or now.
const luaTake = luaNow + `
local z, seq, blk, u = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local limit, window, n = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local keep, share, peek, id = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6] == '1', ARGV[7]
local now = now_ms()
redis.call('ZREMRANGEBYSCORE', z, '-inf', now - window)
local used = redis.call('ZCARD', z)
local cap = limit - keep
local left = math.max(cap - used, 0)
local uused = 0
if u then
  redis.call('ZREMRANGEBYSCORE', u, '-inf', now - window)
  uused = redis.call('ZCARD', u)
  left = math.min(left, math.max(share - uused, 0))
end
if id ~= '' and not peek and redis.call('ZSCORE', z, id) then
  return {1, left, 0, 0, 0, id}
end
local bl = redis.call('PTTL', blk)
if bl > 0 then return {0, left, bl, 1, 0} end
-- how long until n more fit under cap in the set s holding used: 0 when
-- they fit, -1 when they never can; the (used+n-cap)-th oldest token must
-- leave the window first
local function wait(s, used, cap)
  if used + n <= cap then return 0 end
  if n > cap then return -1 end
  local i = used + n - cap - 1
  local e = redis.call('ZRANGE', s, i, i, 'WITHSCORES')
  return math.max(tonumber(e[2]) + window - now, 1)
end
local wb = wait(z, used, cap)
local ws = 0
if u then ws = wait(u, uused, share) end
if wb ~= 0 or ws ~= 0 then
  -- the limit that frees up last refuses; one that never fits first
  local why, w = 0, 0
  if ws == -1 then why, w = 3, 0
  elseif wb == -1 then
    why, w = 2, 0
    if n > limit then why = 1 end
  elseif ws >= wb then why, w = 3, ws
  else
    why, w = 2, wb
    if used + n > limit then why = 1 end
  end
  return {0, left, w, 0, why}
end
if peek then return {1, left, 0, 0, 0} end
local out = {1, left - n, 0, 0, 0}
for _ = 1, n do
  local tok = id
  if tok == '' then tok = tostring(redis.call('INCR', seq)) end
  redis.call('ZADD', z, now, tok)
  if u then redis.call('ZADD', u, now, tok) end
  out[#out + 1] = tok
end
redis.call('PEXPIRE', z, window)
if u then redis.call('PEXPIRE', u, window) end
redis.call('PEXPIRE', seq, window + 60000)
return out
`

// luaBlock: KEYS block; ARGV ms. Extends the block to ms from now, never
// shortens it.
const luaBlock = `
local ms = tonumber(ARGV[1])
if redis.call('PTTL', KEYS[1]) < ms then
  redis.call('SET', KEYS[1], 1, 'PX', ms)
end
return 0
`

func (s *Store) budgetKeys(b Budget) []string {
	k := s.prefix + "budget:{" + b.Name + "}"
	return []string{k, k + ":seq", k + ":block"}
}

func checkBudget(b Budget) error {
	switch {
	case b.Name == "":
		return fmt.Errorf("store: budget without a name: %w", ErrInvalid)
	case b.Limit < 1:
		return fmt.Errorf("store: budget %s: limit %d must be at least 1: %w", b.Name, b.Limit, ErrInvalid)
	case b.Window < time.Millisecond:
		return fmt.Errorf("store: budget %s: window %v must be at least 1ms: %w", b.Name, b.Window, ErrInvalid)
	}
	return nil
}

// TakeBudget takes n requests (at least 1) from the budget, all or none, in
// one atomic step. A refusal is not an error: the Grant says why and when to
// ask again.
func (lm Limits) TakeBudget(ctx context.Context, b Budget, n int) (Grant, error) {
	return lm.Draw(ctx, Draw{Budget: b}, n)
}

// ReturnBudget gives back tokens that were taken but not used, such as the
// unused part of a reservation. Tokens already out of the window are ignored.
func (lm Limits) ReturnBudget(ctx context.Context, b Budget, tokens []string) error {
	s := lm.s
	if err := checkBudget(b); err != nil {
		return err
	}
	if len(tokens) == 0 {
		return nil
	}
	members := make([]any, len(tokens))
	for i, t := range tokens {
		members[i] = t
	}
	if err := s.rdb.ZRem(ctx, s.budgetKeys(b)[0], members...).Err(); err != nil {
		return wrapErr(err, "store: budget %s: return %d", b.Name, len(tokens))
	}
	return nil
}

// BlockBudget refuses every request of the budget for d from now (Redis
// clock), for when the service answered "too many requests" and said how
// long to wait. A longer block already in place is kept.
func (lm Limits) BlockBudget(ctx context.Context, b Budget, d time.Duration) error {
	s := lm.s
	if err := checkBudget(b); err != nil {
		return err
	}
	if d < time.Millisecond {
		return fmt.Errorf("store: budget %s: block %v must be at least 1ms: %w", b.Name, d, ErrInvalid)
	}
	if err := s.sc.block.Run(ctx, s.rdb, s.budgetKeys(b)[2:], millis(d)).Err(); err != nil {
		return wrapErr(err, "store: budget %s: block for %v", b.Name, d)
	}
	return nil
}
