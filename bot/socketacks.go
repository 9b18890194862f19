package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Errors of an ack that is not sent.
var (
	// errSocketClosed: the bot's Socket Mode client has stopped.
	errSocketClosed = errors.New("slack socket closed")
	// errAckTooLarge: Slack drops an ack of 20 KB or more without a word.
	errAckTooLarge = errors.New("ack of 20 KB or more, which Slack drops")
)

// maxAckSize is Slack's limit on a Socket Mode ack, as slack-go checks it.
const maxAckSize = 20 * 1024

// ackQueue holds the acks waiting to be written and writes them, in order,
// from one goroutine (writeLoop) to the connection open at the time: an ack
// of an envelope that came on a connection since replaced goes out on its
// replacement, and one whose write failed is written again on the next
// connection. An ack never waits for a connection to be queued.
type ackQueue struct {
	log     *slog.Logger
	mu      sync.Mutex
	pending [][]byte
	// link is where acks go; nil while no connection is open.
	link   *wsLink
	closed bool
	wake   chan struct{}
	// written is when an ack was last written to Slack.
	written instant
}

// ackFrame is an ack as Slack reads it.
type ackFrame struct {
	EnvelopeID string `json:"envelope_id"`
	Payload    any    `json:"payload,omitempty"`
}

func (q *ackQueue) init(log *slog.Logger) {
	q.log = log
	q.wake = make(chan struct{}, 1)
}

// ack queues the ack of an envelope, with its payload (nil for none).
func (q *ackQueue) ack(envelopeID string, payload any) error {
	frame, err := json.Marshal(ackFrame{EnvelopeID: envelopeID, Payload: payload})
	if err != nil {
		return fmt.Errorf("encoding the ack: %w", err)
	}
	if len(frame) >= maxAckSize {
		return fmt.Errorf("%w: %d bytes", errAckTooLarge, len(frame))
	}
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return errSocketClosed
	}
	q.pending = append(q.pending, frame)
	q.mu.Unlock()
	q.signal()
	return nil
}

func (q *ackQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// use makes l (nil: none) the connection acks are written to.
func (q *ackQueue) use(l *wsLink) {
	q.mu.Lock()
	q.link = l
	q.mu.Unlock()
	q.signal()
}

// unsent is the number of acks queued and not yet written.
func (q *ackQueue) unsent() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.pending)
}

// close refuses acks from now on and forgets those not written.
func (q *ackQueue) close() {
	q.mu.Lock()
	n := len(q.pending)
	q.closed, q.pending, q.link = true, nil, nil
	q.mu.Unlock()
	if n > 0 {
		q.log.Warn("slack socket closed with acks not written", "acks", n)
	}
}

// writeLoop writes the acks until ctx ends.
func (q *ackQueue) writeLoop(ctx context.Context) {
	for {
		frame, l, ok := q.next(ctx)
		if !ok {
			return
		}
		err := l.write(frame)
		q.mu.Lock()
		if err == nil && len(q.pending) > 0 {
			q.pending[0] = nil
			q.pending = q.pending[1:]
		} else if err != nil && q.link == l {
			q.link = nil
		}
		q.mu.Unlock()
		if err != nil {
			// The connection is broken: closed, its reader ends and a new
			// one opens, on which the ack is written.
			q.log.Warn("slack socket: an ack could not be written; writing it on the next connection", "err", err)
			_ = l.ws.Close()
			continue
		}
		q.written.set(time.Now())
	}
}

// next waits for an ack to write and a connection to write it to.
func (q *ackQueue) next(ctx context.Context) ([]byte, *wsLink, bool) {
	for {
		q.mu.Lock()
		if len(q.pending) > 0 && q.link != nil {
			frame, l := q.pending[0], q.link
			q.mu.Unlock()
			return frame, l, true
		}
		q.mu.Unlock()
		select {
		case <-q.wake:
		case <-ctx.Done():
			return nil, nil, false
		}
	}
}
