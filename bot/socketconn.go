package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/slack-go/slack"
)

// socketConn is docsbot's Socket Mode client: it opens a connection with
// apps.connections.open and the app-level token, dials the URL Slack hands
// out, reads its envelopes and hands each to the bot undecoded (its payload
// is decoded by what takes it: serveEnvelope), writes the acks through one
// writer (ackQueue), and opens a new connection when one drops or Slack asks
// for it (a disconnect envelope). It is the bot's own rather than slack-go's
// socketmode.Client, which decodes every envelope whole, blocks and all,
// before a handler sees it (BENCHMARKS.md, "docsbot's own Socket Mode
// connection").
//
// What it does as Slack and slack-go do (shared/spec slack-facts.md,
// "Socket Mode"): a connection that brings neither a frame nor a PING within
// pingTimeout is taken for dead and replaced; PINGs are answered with PONGs;
// a connection that fails to open is tried again after a backoff (Slack's
// Retry-After when it says one), except when Slack refuses the app-level
// token, which ends Run.
type socketConn struct {
	api    *slack.Client
	log    *slog.Logger
	dialer *websocket.Dialer
	hooks  socketHooks
	acks   ackQueue
	// pingTimeout, retireWait and stableFor are socketPingTimeout,
	// socketRetireWait and socketStableFor (tests may shorten them).
	pingTimeout, retireWait, stableFor time.Duration
}

// socketHooks are what the bot hears of its Socket Mode connection.
// Every hook but envelope is called on the goroutine of run, in order.
type socketHooks struct {
	// connecting: connection n (0 the first) is being opened, attempt 1
	// or later; connected: it is open.
	connecting func(n, attempt int)
	connected  func(n int)
	// failed: an attempt failed, the next is in retryIn.
	failed func(attempt int, retryIn time.Duration, err error)
	// refused: Slack refused the app-level token; run returns err.
	refused func(err error)
	// envelope is called on the connection's reader for each envelope
	// but hello and disconnect; it must not block.
	envelope func(env *envelope)
}

const (
	// socketPingTimeout is how long a connection may bring neither a frame
	// nor a PING (Slack PINGs every few seconds) before it is replaced;
	// slack-go's default.
	socketPingTimeout = 30 * time.Second
	// socketRetireWait bounds how long a connection Slack asked to replace
	// is still read once its replacement is open: until Slack answers its
	// close frame, so that what Slack sent on it meanwhile is taken.
	socketRetireWait = 5 * time.Second
	// socketStableFor is how long a connection must have lasted for the
	// next to be opened at once when it drops; one that dropped sooner
	// counts as a failed attempt, so that a flapping link backs off.
	socketStableFor = 30 * time.Second
	// socketOpenTimeout bounds apps.connections.open and the dial.
	socketOpenTimeout = 30 * time.Second
	// socketReadLimit bounds one incoming frame; Slack's envelopes are far
	// smaller.
	socketReadLimit = 32 << 20
	// socketWriteBuffer holds any ack (under 20 KB) in one frame, as
	// slack-go's dialer does: Slack does not read fragmented acks.
	socketWriteBuffer = 32 << 10
)

// newSocketConn is the Socket Mode client of api, which must carry the
// app-level token (slack.OptionAppLevelToken). Set its hooks before run.
func newSocketConn(api *slack.Client, log *slog.Logger) *socketConn {
	s := &socketConn{
		api: api, log: log,
		dialer: &websocket.Dialer{
			Proxy:            http.ProxyFromEnvironment,
			HandshakeTimeout: socketOpenTimeout,
			WriteBufferSize:  socketWriteBuffer,
		},
		pingTimeout: socketPingTimeout, retireWait: socketRetireWait, stableFor: socketStableFor,
	}
	s.acks.init(log)
	return s
}

// run connects and serves until ctx ends (nil) or Slack refuses the
// app-level token (that error). Acks are refused once it returns.
func (s *socketConn) run(ctx context.Context) error {
	defer s.acks.close()
	// On return: the writer and the connections being retired end with
	// ctx, and are waited for.
	var retirements sync.WaitGroup
	defer retirements.Wait()
	ctx, cancel := context.WithCancel(ctx)
	writer := make(chan struct{})
	go func() { defer close(writer); s.acks.writeLoop(ctx) }()
	defer func() { cancel(); <-writer }()

	var (
		boff     reconnectBackoff
		retiring *wsLink
		delay    time.Duration
	)
	for n := 0; ; n++ {
		l, err := s.open(ctx, n, delay, &boff)
		if retiring != nil {
			l := retiring
			retirements.Go(func() { l.retire(ctx, s.retireWait) })
			retiring = nil
		}
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return nil
			}
			return err
		}
		s.acks.use(l)
		s.hooks.connected(n)
		opened := time.Now()
		disconnect := l.serve(ctx)
		switch {
		case ctx.Err() != nil:
			s.acks.use(nil)
			l.shut()
			return nil
		case disconnect:
			// Slack asked for a new connection: l is read (and carries
			// the acks) until the next one is open.
			retiring, delay = l, 0
			boff.reset()
		default:
			s.acks.use(nil)
			l.shut()
			delay = 0
			if time.Since(opened) < s.stableFor {
				delay = boff.next()
			} else {
				boff.reset()
			}
			s.log.Warn("slack socket dropped; reconnecting", "err", l.cause(), "retry_in", delay)
		}
	}
}

// open opens connection n, first after delay, then again after a backoff
// until it opens, ctx ends or Slack refuses the token.
func (s *socketConn) open(ctx context.Context, n int, delay time.Duration, boff *reconnectBackoff) (*wsLink, error) {
	for attempt := 1; ; attempt++ {
		if err := sleepCtx(ctx, delay); err != nil {
			return nil, err
		}
		s.hooks.connecting(n, attempt)
		l, err := s.dial(ctx)
		if err == nil {
			return l, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if refusedToken(err) {
			s.hooks.refused(err)
			return nil, err
		}
		delay = boff.next()
		if rl, ok := errors.AsType[*slack.RateLimitedError](err); ok {
			delay = max(delay, rl.RetryAfter)
		}
		s.hooks.failed(attempt, delay, err)
	}
}

// refusedToken reports whether apps.connections.open refused the app-level
// token for good (or Slack knows no such endpoint for it: HTTP 404).
func refusedToken(err error) bool {
	if permanentAuthError(err) {
		return true
	}
	code, ok := errors.AsType[slack.StatusCodeError](err)
	return ok && code.Code == http.StatusNotFound
}

// dial asks Slack for a connection's URL and opens it.
func (s *socketConn) dial(ctx context.Context) (*wsLink, error) {
	ctx, cancel := context.WithTimeout(ctx, socketOpenTimeout)
	defer cancel()
	_, url, err := s.api.StartSocketModeContext(ctx)
	if err != nil {
		return nil, fmt.Errorf("apps.connections.open: %w", err)
	}
	header := http.Header{"Origin": {"https://api.slack.com"}}
	ws, resp, err := s.dialer.DialContext(ctx, url, header)
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if err != nil {
		// The URL carries a single-use ticket: not logged.
		return nil, fmt.Errorf("dialling the socket: %w", err)
	}
	ws.SetReadLimit(socketReadLimit)
	return newWSLink(ws, s.log, s.pingTimeout, s.hooks.envelope), nil
}

// sleepCtx waits d, or until ctx ends (its error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// reconnectBackoff is the wait before another attempt to connect: 100 ms,
// doubling up to a minute, and up to half as much again at random so that
// replicas dropped together do not all ask at once.
type reconnectBackoff struct{ attempts int }

const (
	backoffFirst = 100 * time.Millisecond
	backoffMax   = time.Minute
)

func (b *reconnectBackoff) next() time.Duration {
	d := backoffMax
	if b.attempts < 10 {
		d = min(backoffFirst<<b.attempts, backoffMax)
	}
	b.attempts++
	return d + rand.N(d/2+1) // #nosec G404 -- jitter needs no secret randomness
}

func (b *reconnectBackoff) reset() { b.attempts = 0 }
