package helpchannels

import (
	"context"
	"errors"
	"fmt"

	"github.com/docsbot/docsbot/store"
)

// Budgets: what a person sets off in a help channel (an unasked answer, a
// :question:, an expert call) is drawn on their own share first, and only
// when that is granted on the channel's; a refusal of the channel's gives
// the person's back (store.Limits.Refund). So a person past their share
// spends nothing of the channel's, and one person cannot silence a channel
// for everyone else; nobody's share is spent on what was not done.

// take is a person's draw and a channel's, taken in that order.
type take struct {
	person, channel store.Draw
	// personTokens and channelTokens are what was taken of each, given
	// back by giveBack.
	personTokens, channelTokens []string
}

// outcome is how a take went: granted both, or refused by one.
type outcome struct {
	ok bool
	// refused is the refusing grant when !ok; byPerson says it was the
	// person's share (else the channel's).
	refused  store.Grant
	byPerson bool
}

// draw takes one of t.person, then, only if it was granted, one of
// t.channel; when the channel's is refused, the person's is given back. An
// error leaves at most the person's taken: a draw named by its work
// (store.Draw.ID) is granted again without taking when the work is tried
// again.
func (f *Feature) draw(ctx context.Context, t *take) (outcome, error) {
	g, err := f.store.Limits.Draw(ctx, t.person, 1)
	if err != nil {
		return outcome{}, err
	}
	if !g.OK() {
		return outcome{refused: g, byPerson: true}, nil
	}
	t.personTokens = g.Tokens
	g, err = f.store.Limits.Draw(ctx, t.channel, 1)
	if err != nil {
		return outcome{}, err
	}
	if !g.OK() {
		if err := f.store.Limits.Refund(ctx, t.person, t.personTokens); err != nil {
			return outcome{}, fmt.Errorf("giving back the person's share the channel's refused: %w", err)
		}
		t.personTokens = nil
		return outcome{refused: g}, nil
	}
	t.channelTokens = g.Tokens
	return outcome{ok: true}, nil
}

// giveBack returns what t took, for what was not done after all.
func (f *Feature) giveBack(ctx context.Context, t *take) error {
	ctx = context.WithoutCancel(ctx)
	errP := f.store.Limits.Refund(ctx, t.person, t.personTokens)
	errC := f.store.Limits.Refund(ctx, t.channel, t.channelTokens)
	t.personTokens, t.channelTokens = nil, nil
	return errors.Join(errP, errC)
}
