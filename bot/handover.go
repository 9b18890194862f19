package bot

import (
	"context"
	"errors"
)

// Handing work over on stop. Once the inbox's claim loop stops (a SIGTERM),
// a piece of work whose handler waits for its turn to post in a channel
// (the outbox's pacing, behind posts Slack is rate limiting) has sent
// nothing yet: rather than hold it through the shutdown grace and hand it
// back cut short, after the landing window, the wait ends with errHandOver,
// which handlers take as a passing Slack failure (TransientSlack): they defer
// the work (Later), and another replica takes it a second later.
//
//	work's handler is ...            when the stop begins
//	waiting for its turn to post     errHandOver: deferred, another replica takes it
//	posting, or calling the docs API goes on under the grace (mark before, check after)
//	between steps                    goes on under the grace

// errHandOver ends a wait for a turn to post in work handled while the
// replica stops: nothing was posted.
var errHandOver = errors.New("bot: this replica is stopping; the work goes to another replica")

// handOverKey is the context key of the signal of a stop.
type handOverKey struct{}

// withHandOver makes ctx a piece of work's: its waits to post end when
// stopping is closed.
func withHandOver(ctx context.Context, stopping <-chan struct{}) context.Context {
	return context.WithValue(ctx, handOverKey{}, stopping)
}

// handOverSignal is closed when the work of ctx is to be handed over; nil
// (never ready) for anything but inbox work.
func handOverSignal(ctx context.Context) <-chan struct{} {
	c, _ := ctx.Value(handOverKey{}).(<-chan struct{})
	return c
}

// stopClaiming is the inbox runner's Stop: the waits of work in hand end
// (errHandOver) and the work queued claimed here goes to the others.
func (b *Bot) stopClaiming(ctx context.Context) error {
	b.stopOnce.Do(func() { close(b.stopping) })
	return b.store.StopClaiming(ctx)
}
