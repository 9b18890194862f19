package bot

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/slack-go/slack"
)

// editBudget bounds one status edit, waits for Slack's rate limit included.
const editBudget = time.Minute

// outbox paces what the bot writes to Slack. Posts to one channel go one at
// a time, so that a channel over Slack's limit (about a message a second)
// is waited out by one post while the others queue behind it instead of
// each hammering Slack. They go in the order they were asked for, except
// that a first post (FirstPost: the message a person waits for to see that
// their request was taken, a job's root) goes before the others waiting:
// in a channel kept busy by results, the person who just asked is
// answered first, and the results go after. Status edits of
// one message coalesce: while an edit is in flight, a newer one replaces any
// that waits, since only the latest state matters; and edits never hold up
// posts. Slack's 429s themselves are waited out by the client (SlackOptions).
// Post, Edit and EditNow are the one way the bot writes a message: a
// Message, Plain or Rich (richblocks.go: sent without its rich blocks
// where Slack refuses them).
type outbox struct {
	mu       sync.Mutex
	channels map[string]*channelQueue
	edits    map[string]*pendingEdit
}

// channelQueue lets one post at a time into a channel (busy: a post holds
// the turn); first and rest wait for it, first posts before the others,
// each in order. waiters counts those holding or waiting for the turn, so
// that idle channels are forgotten.
type channelQueue struct {
	busy        bool
	first, rest []chan struct{}
	waiters     int
}

// pendingEdit is the next state of a message (form, richblocks.go),
// waiting for the edit in flight to finish; done is closed when the
// message's edits are over.
type pendingEdit struct {
	next *form
	done chan struct{}
}

func newOutbox() *outbox {
	return &outbox{channels: map[string]*channelQueue{}, edits: map[string]*pendingEdit{}}
}

// Post posts m in channel after the posts asked for before it, or gives up
// when ctx ends; extra options (a thread, metadata) are added to either
// form of m. Where Slack refuses m's rich blocks it posts m without them;
// a Rich without a Without form is then not posted: ErrRichRefused.
func (b *Bot) Post(ctx context.Context, channel string, m Message, extra ...slack.MsgOption) (string, error) {
	f := b.pick(m)
	if f.opts == nil && f.kind != "" {
		return "", ErrRichRefused
	}
	ts, err := b.postInTurn(ctx, channel, append(slices.Clip(f.opts), extra...))
	if f.rich && richRefusal(err) {
		b.refuseRich(f.kind)
		if f.without == nil {
			return "", fmt.Errorf("%w: %w", ErrRichRefused, err)
		}
		return b.postInTurn(ctx, channel, append(slices.Clip(f.without), extra...))
	}
	return ts, err
}

// postInTurn posts opts in channel in the channel's turn (inTurn).
func (b *Bot) postInTurn(ctx context.Context, channel string, opts []slack.MsgOption) (string, error) {
	var ts string
	began := time.Now()
	err := b.inTurn(ctx, channel, func() (err error) {
		_, ts, err = b.SlackIn(ctx).PostMessageContext(ctx, channel, opts...)
		return err
	})
	b.notePost(ctx, channel, time.Since(began), err)
	return ts, err
}

// StartStream starts a streamed message in channel (chat.startStream) in the
// channel's turn, as Post posts: a stream is a new message. Its appends and
// its stop (chat.appendStream, chat.stopStream) change that message and are
// the caller's to pace.
func (b *Bot) StartStream(ctx context.Context, channel string, opts ...slack.MsgOption) (string, error) {
	var ts string
	err := b.inTurn(ctx, channel, func() (err error) {
		_, ts, err = b.SlackIn(ctx).StartStreamContext(ctx, channel, opts...)
		return err
	})
	return ts, err
}

// inTurn runs post in channel's turn: after the post holding it and those
// waiting before it (first posts first: channelQueue), or gives up when ctx
// ends, or with errHandOver when ctx's work is handed over (handover.go).
func (b *Bot) inTurn(ctx context.Context, channel string, post func() error) error {
	o := b.out
	o.mu.Lock()
	q := o.channels[channel]
	if q == nil {
		q = &channelQueue{}
		o.channels[channel] = q
	}
	q.waiters++
	var turn chan struct{}
	switch {
	case !q.busy:
		q.busy = true
	case isFirstPost(ctx):
		turn = make(chan struct{})
		q.first = append(q.first, turn)
	default:
		turn = make(chan struct{})
		q.rest = append(q.rest, turn)
	}
	o.mu.Unlock()
	defer func() {
		o.mu.Lock()
		if q.waiters--; q.waiters == 0 {
			delete(o.channels, channel)
		}
		o.mu.Unlock()
	}()

	if turn != nil {
		var err error
		select {
		case <-turn:
		case <-ctx.Done():
			err = ctx.Err()
		case <-handOverSignal(ctx):
			err = errHandOver
		}
		if err != nil {
			o.leave(q, turn)
			return err
		}
	}
	defer o.pass(q)
	return post()
}

// posting reports whether a post in channel holds its turn or waits for it.
func (o *outbox) posting(channel string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	q := o.channels[channel]
	return q != nil && q.waiters > 0
}

// pass gives q's turn to the first post waiting, else to the next other
// post, else frees it.
func (o *outbox) pass(q *channelQueue) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var next chan struct{}
	switch {
	case len(q.first) > 0:
		next, q.first = q.first[0], q.first[1:]
	case len(q.rest) > 0:
		next, q.rest = q.rest[0], q.rest[1:]
	default:
		q.busy = false
		return
	}
	close(next)
}

// leave takes turn, given up, out of q's waiting posts; if it was given
// the turn meanwhile, the turn goes on to the next.
func (o *outbox) leave(q *channelQueue, turn chan struct{}) {
	o.mu.Lock()
	for _, l := range []*[]chan struct{}{&q.first, &q.rest} {
		if i := slices.Index(*l, turn); i >= 0 {
			*l = slices.Delete(*l, i, i+1)
			o.mu.Unlock()
			return
		}
	}
	o.mu.Unlock()
	o.pass(q) // given the turn as it gave up
}

// firstPostKey is the context key of FirstPost.
type firstPostKey struct{}

// FirstPost returns ctx saying that its post is a first post: the message
// a person waits for to see that their request was taken (a job's root
// message), which goes before the channel's other posts waiting for their
// turn (outbox).
func FirstPost(ctx context.Context) context.Context {
	return context.WithValue(ctx, firstPostKey{}, true)
}

// isFirstPost reports whether ctx's post is a first post (FirstPost).
func isFirstPost(ctx context.Context) bool {
	first, _ := ctx.Value(firstPostKey{}).(bool)
	return first
}

// EditNow changes a message to m at once and returns Slack's answer, for
// an edit that is part of a piece of work (how a job start ended) rather
// than a passing status: the caller decides what a failure means. An edit
// of the same message still waiting in the background (Edit) is dropped,
// since this one is newer, and one in flight is waited for, so that it
// cannot land after this one. Where Slack refuses m's rich blocks, the
// message is changed to m without them.
func (b *Bot) EditNow(ctx context.Context, channel, ts string, m Message) error {
	f := b.pick(m)
	err := b.editNow(ctx, channel, ts, f.opts)
	if f.rich && richRefusal(err) {
		b.refuseRich(f.kind)
		return b.editNow(ctx, channel, ts, f.without)
	}
	return err
}

// editNow changes a message to opts at once, as EditNow says.
func (b *Bot) editNow(ctx context.Context, channel, ts string, opts []slack.MsgOption) error {
	o := b.out
	o.mu.Lock()
	if p, busy := o.edits[channel+"/"+ts]; busy {
		p.next = nil
		o.mu.Unlock()
		select {
		case <-p.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	} else {
		o.mu.Unlock()
	}
	_, _, _, err := b.SlackIn(ctx).UpdateMessageContext(ctx, channel, ts, opts...)
	return err
}

// Edit changes a message to m in the background. If an edit of the same
// message is in flight, m waits for it and replaces any edit already
// waiting. Where Slack refuses m's rich blocks, the message is changed to
// m without them.
func (b *Bot) Edit(ctx context.Context, channel, ts string, m Message, log *slog.Logger) {
	e := b.pick(m)
	key := channel + "/" + ts
	o := b.out
	o.mu.Lock()
	if p, busy := o.edits[key]; busy {
		p.next = &e
		o.mu.Unlock()
		return
	}
	p := &pendingEdit{done: make(chan struct{})}
	o.edits[key] = p
	o.mu.Unlock()

	// The edit outlives the handler that asked for it, not the bot: Run
	// waits for it within the shutdown grace.
	ctx = context.WithoutCancel(ctx)
	next := &e
	started := b.work.Go(func() {
		for next != nil {
			b.editOnce(ctx, channel, ts, *next, log)
			o.mu.Lock()
			next = p.next
			if next == nil {
				delete(o.edits, key)
				close(p.done)
			} else {
				p.next = nil
			}
			o.mu.Unlock()
		}
	})
	if !started {
		o.mu.Lock()
		delete(o.edits, key)
		close(p.done)
		o.mu.Unlock()
		log.Warn("shutting down: message not updated")
	}
}

// editOnce makes one background edit, within editBudget; rich blocks
// Slack refuses are remembered and the edit made without them.
func (b *Bot) editOnce(ctx context.Context, channel, ts string, e form, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(ctx, editBudget)
	defer cancel()
	_, _, _, err := b.SlackIn(ctx).UpdateMessageContext(ctx, channel, ts, e.opts...)
	if e.rich && richRefusal(err) {
		b.refuseRich(e.kind)
		_, _, _, err = b.SlackIn(ctx).UpdateMessageContext(ctx, channel, ts, e.without...)
	}
	if err != nil {
		log.Warn("updating a message failed", "err", err)
	}
}
