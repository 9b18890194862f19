package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Draw is a take from a shared Budget on someone's behalf: the part of the
// budget this take may not use (Keep), and the spender's own share of it
// (Share, kept apart for Who). A person's requests to the docs API's
// analytics are such draws: the organisation's budget, less the reserve of
// the scheduled digests, and no more than their share an hour.
//
// The share is a sliding window of its own, {p}budget:{name}:who:<who>,
// beside the budget's keys and in their hash slot (the budget's name is its
// tag), so that one script takes from both or from neither, and a refund
// goes back to both.
type Draw struct {
	Budget Budget
	// Keep is the part of Budget.Limit this draw may not use: it is
	// granted only while at least Keep requests stay free after it. A draw
	// with no Keep (a digest) may use them.
	Keep int
	// Who names the spender whose share is kept ("" for none: the budget
	// alone). Draws with the same Who and Budget share one share.
	Who string
	// Share is how many requests Who may take in any Window; used only
	// when Who is set, at least 1.
	Share int
	// ID, when set, names the one request the draw takes (n must be 1),
	// such as the work that asks: a draw whose ID is in the window already
	// is granted again without taking, so that a request retried after a
	// crash, before it could record its grant, is counted once. It is not
	// a number (the budget's own tokens are).
	ID string
}

func (d Draw) check() error {
	if err := checkBudget(d.Budget); err != nil {
		return err
	}
	switch {
	case d.Keep < 0 || d.Keep >= d.Budget.Limit:
		return fmt.Errorf("store: budget %s: keep %d must be at least 0 and below the limit %d: %w", d.Budget.Name, d.Keep, d.Budget.Limit, ErrInvalid)
	case d.Who != "" && d.Share < 1:
		return fmt.Errorf("store: budget %s: share %d of %s must be at least 1: %w", d.Budget.Name, d.Share, d.Who, ErrInvalid)
	case d.ID != "" && strings.Trim(d.ID, "0123456789") == "":
		return fmt.Errorf("store: budget %s: request id %q must not be a number: %w", d.Budget.Name, d.ID, ErrInvalid)
	}
	return nil
}

// keys are the budget's keys, then the share's when the draw has one.
func (s *Store) drawKeys(d Draw) []string {
	keys := s.budgetKeys(d.Budget)
	if d.Who != "" {
		keys = append(keys, keys[0]+":who:"+d.Who)
	}
	return keys
}

// Draw takes n requests (at least 1) for d, all or none, from the budget
// and the spender's share at once, in one atomic step. A refusal is not an
// error: the Grant says which limit refused (Refused), how many d may still
// take (Remaining) and when to ask again.
func (lm Limits) Draw(ctx context.Context, d Draw, n int) (Grant, error) {
	if n < 1 {
		if err := d.check(); err != nil {
			return Grant{}, err
		}
		return Grant{}, fmt.Errorf("store: budget %s: take %d, want at least 1: %w", d.Budget.Name, n, ErrInvalid)
	}
	if d.ID != "" && n != 1 {
		return Grant{}, fmt.Errorf("store: budget %s: take %d named %q, want 1: %w", d.Budget.Name, n, d.ID, ErrInvalid)
	}
	return lm.draw(ctx, d, n, false)
}

// Room says what d could take now without taking anything: Remaining, and,
// when it could not take even one request, why (Refused, Blocked) and
// when it could (RetryAfter). Its Tokens are always empty.
func (lm Limits) Room(ctx context.Context, d Draw) (Grant, error) {
	return lm.draw(ctx, d, 1, true)
}

func (lm Limits) draw(ctx context.Context, d Draw, n int, peek bool) (Grant, error) {
	s := lm.s
	if err := d.check(); err != nil {
		return Grant{}, err
	}
	b := d.Budget
	res, err := s.sc.take.Run(ctx, s.rdb, s.drawKeys(d), b.Limit, millis(b.Window), n, d.Keep, d.Share, peekArg(peek), d.ID).Slice()
	if err != nil {
		return Grant{}, wrapErr(err, "store: budget %s: take %d", b.Name, n)
	}
	if len(res) < 5 {
		return Grant{}, fmt.Errorf("store: budget %s: short script reply", b.Name)
	}
	nums := make([]int64, 5)
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
		Refused:    Refusal(nums[4]),
	}
	if nums[0] == 1 && !peek {
		g.Tokens = make([]string, 0, len(res)-5)
		for _, v := range res[5:] {
			id, ok := v.(string)
			if !ok {
				return Grant{}, fmt.Errorf("store: budget %s: unexpected token %v", b.Name, v)
			}
			g.Tokens = append(g.Tokens, id)
		}
	}
	return g, nil
}

func peekArg(peek bool) int {
	if peek {
		return 1
	}
	return 0
}

// luaRefund: KEYS window[, share window]; ARGV tokens. Removes the tokens
// from both.
const luaRefund = `
for _, k in ipairs(KEYS) do
  redis.call('ZREM', k, unpack(ARGV))
end
return 0
`

// Refund gives back tokens a Draw took but did not use, to the budget and
// to the spender's share alike, in one step. Tokens already out of the
// window are ignored.
func (lm Limits) Refund(ctx context.Context, d Draw, tokens []string) error {
	s := lm.s
	if err := d.check(); err != nil {
		return err
	}
	if len(tokens) == 0 {
		return nil
	}
	keys := s.drawKeys(d)
	keys = append(keys[:1], keys[3:]...) // the window and the share's, not seq and block
	args := make([]any, len(tokens))
	for i, t := range tokens {
		args[i] = t
	}
	if err := s.sc.refund.Run(ctx, s.rdb, keys, args...).Err(); err != nil {
		return wrapErr(err, "store: budget %s: refund %d", d.Budget.Name, len(tokens))
	}
	return nil
}
