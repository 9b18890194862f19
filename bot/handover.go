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
//	work's handler is ...                        when the stop begins
//	waiting for its turn to post, no paid call   errHandOver: deferred, another replica takes it
//	waiting to post after a paid call (Paid)     goes on under the grace: the answer or result is this attempt's to show
//	posting, or calling the docs API             goes on under the grace (mark before, check after)
//	between steps                                goes on under the grace

// errHandOver ends a wait for a turn to post in work handled while the
// replica stops: nothing was posted.
var errHandOver = errors.New("bot: this replica is stopping; the work goes to another replica")

// handOverKey is the context key of the signal of a stop.
type handOverKey struct{}

// handOver is what a piece of work's context carries: the signal of the
// stop, and the work, which is handed over only before a paid call.
type handOver struct {
	stopping <-chan struct{}
	w        *Work
}

// withHandOver makes ctx the context of w: its waits to post end when
// stopping is closed, as long as w made no paid call.
func withHandOver(ctx context.Context, stopping <-chan struct{}, w *Work) context.Context {
	return context.WithValue(ctx, handOverKey{}, handOver{stopping: stopping, w: w})
}

// handOverSignal is closed when the work of ctx is to be handed over; nil
// (never ready) for anything but inbox work, and for work that came to a
// paid call (the table above).
func handOverSignal(ctx context.Context) <-chan struct{} {
	h, ok := ctx.Value(handOverKey{}).(handOver)
	if !ok || h.w.paid.Load() {
		return nil
	}
	return h.stopping
}

// stopClaiming is the inbox runner's Stop: the waits of work in hand end
// (errHandOver) and the work queued claimed here goes to the others.
func (b *Bot) stopClaiming(ctx context.Context) error {
	b.stopOnce.Do(func() { close(b.stopping) })
	return b.store.StopClaiming(ctx)
}
