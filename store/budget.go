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
	// Tokens names the requests granted, one each, for [Limits.ReturnBudget].
	// It is empty when the request was refused.
	Tokens []string
	// Remaining is the number of requests left in the window after the
	// grant, or now when refused.
	Remaining int
	// RetryAfter, when refused, is how long until the amount asked for fits
	// (or the block ends). It is 0 when the amount can never fit because it
	// is larger than the limit.
	RetryAfter time.Duration
	// Blocked reports a refusal because the service itself asked to wait
	// (see [Limits.BlockBudget]).
	Blocked bool
}

// OK reports whether the request was granted.
func (g Grant) OK() bool { return len(g.Tokens) > 0 }

// luaTake: KEYS window, seq, block; ARGV limit, window ms, n.
// Returns {granted 0/1, remaining, wait ms, blocked 0/1, tokens...}.
const luaTake = luaNow + `
local z, seq, blk = KEYS[1], KEYS[2], KEYS[3]
local limit, window, n = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = now_ms()
redis.call('ZREMRANGEBYSCORE', z, '-inf', now - window)
local used = redis.call('ZCARD', z)
local left = math.max(limit - used, 0)
local bl = redis.call('PTTL', blk)
if bl > 0 then return {0, left, bl, 1} end
if used + n > limit then
  if n > limit then return {0, left, 0, 0} end
  -- the (used+n-limit)-th oldest token must leave the window first
  local i = used + n - limit - 1
  local e = redis.call('ZRANGE', z, i, i, 'WITHSCORES')
  return {0, left, math.max(tonumber(e[2]) + window - now, 1), 0}
end
local out = {1, limit - used - n, 0, 0}
for _ = 1, n do
  local id = tostring(redis.call('INCR', seq))
  redis.call('ZADD', z, now, id)
  out[#out + 1] = id
end
redis.call('PEXPIRE', z, window)
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
	s := lm.s
	if err := checkBudget(b); err != nil {
		return Grant{}, err
	}
	if n < 1 {
		return Grant{}, fmt.Errorf("store: budget %s: take %d, want at least 1: %w", b.Name, n, ErrInvalid)
	}
	res, err := s.sc.take.Run(ctx, s.rdb, s.budgetKeys(b), b.Limit, millis(b.Window), n).Slice()
	if err != nil {
		return Grant{}, wrapErr(err, "store: budget %s: take %d", b.Name, n)
	}
	if len(res) < 4 {
		return Grant{}, fmt.Errorf("store: budget %s: short script reply", b.Name)
	}
	nums := make([]int64, 4)
	for i := range nums {
		v, ok := res[i].(int64)
		if !ok {
			return Grant{}, fmt.Errorf("store: budget %s: unexpected script reply %v", b.Name, res[i])
		}
		nums[i] = v
	}
	g := Grant{
		Remaining:  int(nums[1]),
		RetryAfter: time.Duration(nums[2]) * time.Millisecond,
		Blocked:    nums[3] == 1,
	}
	if nums[0] == 1 {
		g.Tokens = make([]string, 0, len(res)-4)
		for _, v := range res[4:] {
			id, ok := v.(string)
			if !ok {
				return Grant{}, fmt.Errorf("store: budget %s: unexpected token %v", b.Name, v)
			}
			g.Tokens = append(g.Tokens, id)
		}
	}
	return g, nil
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
