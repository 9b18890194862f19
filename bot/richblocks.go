package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/slack-go/slack"
)

// Slack's newer blocks (plan and task_card, data_visualization, data_table)
// are not taken everywhere: a workspace without them, or an older
// Enterprise Grid policy, answers invalid_blocks. A message that uses them
// is a Rich: the same message twice, with them and without (today's
// message). It is sent with them until Slack refuses them once; then it is
// sent again without, and this replica remembers the refusal under the
// Rich's kind for richRefusalKept, sending that kind without them meanwhile,
// so a live status edited every minute does not meet the refusal every
// minute. The memory is the replica's own: each replica meets the refusal
// once, and a workspace that gains the blocks gets them back within the hour.

// richRefusalKept is how long a refusal of a kind of rich blocks is
// remembered.
const richRefusalKept = time.Hour

// The kinds of rich messages (Rich.Kind).
const (
	// RichPlan is a plan of task cards (a job's or a deployment's progress).
	RichPlan = "plan"
	// RichChart is a data_visualization block.
	RichChart = "chart"
	// RichTable is a data_table block.
	RichTable = "table"
)

// Rich is a message with blocks Slack may refuse, and the same message
// without them.
type Rich struct {
	// Kind names the blocks that may be refused (RichPlan, RichChart,
	// RichTable): a refusal is remembered under it.
	Kind string
	// With is the message with the rich blocks; Without is the message
	// sent where Slack refuses them. Both are whole messages. A Rich
	// without Without has another fallback than a message (a chart's
	// image): Rich().Post answers ErrRichRefused and the caller sends it.
	With, Without []slack.MsgOption
}

// ErrRichRefused is Rich().Post's answer for a Rich without a Without form
// that Slack refuses, or refused lately: nothing was posted.
var ErrRichRefused = errors.New("bot: Slack refuses these blocks here")

// richOff remembers, by kind, until when rich messages go without their
// rich blocks.
type richOff struct {
	mu    sync.Mutex
	until map[string]time.Time
}

// RichMessages send Rich messages: b.Rich().
type RichMessages struct{ b *Bot }

// Rich sends messages with blocks Slack may refuse (Rich).
func (b *Bot) Rich() RichMessages { return RichMessages{b} }

// Refused reports whether Slack refused rich blocks of kind here within
// the last richRefusalKept.
func (r RichMessages) Refused(kind string) bool {
	off := &r.b.rich
	off.mu.Lock()
	defer off.mu.Unlock()
	return time.Now().Before(off.until[kind])
}

// refuseRich remembers that Slack refused rich blocks of kind.
func (b *Bot) refuseRich(kind string) {
	r := &b.rich
	r.mu.Lock()
	if r.until == nil {
		r.until = map[string]time.Time{}
	}
	first := !time.Now().Before(r.until[kind])
	r.until[kind] = time.Now().Add(richRefusalKept)
	r.mu.Unlock()
	if first {
		b.log.Warn("Slack refused docsbot's rich blocks; sending these messages without them for a while", "kind", kind, "for", richRefusalKept)
	}
}

// richRefusal reports whether err is Slack refusing a message's blocks.
func richRefusal(err error) bool { return SlackCode(err) == "invalid_blocks" }

// pick is the form of m to send now, and whether it is the rich one.
func (b *Bot) pick(m Rich) ([]slack.MsgOption, bool) {
	if m.With == nil || b.Rich().Refused(m.Kind) {
		return m.Without, false
	}
	return m.With, true
}

// Post posts m in channel (Post), with extra options (metadata, a
// thread) added to either form; where Slack refuses its rich blocks it
// posts m without them.
func (r RichMessages) Post(ctx context.Context, channel string, m Rich, extra ...slack.MsgOption) (string, error) {
	b := r.b
	opts, rich := b.pick(m)
	if opts == nil {
		return "", ErrRichRefused
	}
	ts, err := b.Post(ctx, channel, append(append([]slack.MsgOption{}, opts...), extra...)...)
	if rich && richRefusal(err) {
		b.refuseRich(m.Kind)
		if m.Without == nil {
			return "", fmt.Errorf("%w: %w", ErrRichRefused, err)
		}
		return b.Post(ctx, channel, append(append([]slack.MsgOption{}, m.Without...), extra...)...)
	}
	return ts, err
}

// EditNow changes a message to m at once (EditNow); where Slack
// refuses its rich blocks, to m without them.
func (r RichMessages) EditNow(ctx context.Context, channel, ts string, m Rich) error {
	b := r.b
	opts, rich := b.pick(m)
	err := b.EditNow(ctx, channel, ts, opts...)
	if rich && richRefusal(err) {
		b.refuseRich(m.Kind)
		return b.EditNow(ctx, channel, ts, m.Without...)
	}
	return err
}

// Edit changes a message to m in the background, coalesced as Edit
// does; where Slack refuses its rich blocks, to m without them.
func (r RichMessages) Edit(ctx context.Context, channel, ts string, m Rich, log *slog.Logger) {
	b := r.b
	opts, rich := b.pick(m)
	e := edit{opts: opts}
	if rich {
		e.kind, e.without = m.Kind, m.Without
	}
	b.edit(ctx, channel, ts, e, log)
}

// Respond posts with through the command's response_url (Respond);
// where Slack refuses its rich blocks of kind, it posts without. A
// response_url answers a refusal with HTTP 400 and no reason: a 400 to a
// message with rich blocks is taken as one (without, which Slack took
// before these blocks existed, is then sent; if it is refused too, the
// fault was elsewhere, and its error is returned).
func (r RichMessages) Respond(ctx context.Context, cmd slack.SlashCommand, kind string, with, without *slack.WebhookMessage) error {
	b := r.b
	if with == nil || b.Rich().Refused(kind) {
		return b.Respond(ctx, cmd, without)
	}
	err := b.Respond(ctx, cmd, with)
	if e, ok := errors.AsType[slack.StatusCodeError](err); ok && e.Code == http.StatusBadRequest {
		b.refuseRich(kind)
		return b.Respond(ctx, cmd, without)
	}
	return err
}
