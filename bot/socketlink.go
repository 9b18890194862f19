package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// envelope is one Socket Mode request as Slack sends it (readEnvelope); its
// payload is decoded by what takes it (serveEnvelope), not here.
type envelope struct {
	Type       string          `json:"type"`
	EnvelopeID string          `json:"envelope_id"`
	Payload    json.RawMessage `json:"payload"`
	// RetryAttempt and RetryReason say that Slack sends an unacknowledged
	// envelope again (1 to 3).
	RetryAttempt int    `json:"retry_attempt"`
	RetryReason  string `json:"retry_reason"`
	// Reason is a disconnect's: warning, refresh_requested, link_disabled.
	Reason string `json:"reason"`
	// NumConnections is hello's: the app's open connections.
	NumConnections int `json:"num_connections"`
	// ignored says the payload is a message event the bot only acks
	// (ignoredMessage).
	ignored bool
}

// The types of envelopes.
const (
	envelopeHello         = "hello"
	envelopeDisconnect    = "disconnect"
	envelopeEventsAPI     = "events_api"
	envelopeSlashCommands = "slash_commands"
	envelopeInteractive   = "interactive"
)

const (
	// socketWriteWait bounds the write of one frame.
	socketWriteWait = 10 * time.Second
	// socketUnreadable is how many frames in a row that are no envelope a
	// connection may bring before it is replaced (as slack-go does).
	socketUnreadable = 10
)

// errUnreadable ends a connection that brings only frames that are no
// envelope.
var errUnreadable = errors.New("slack socket: frames that are no envelope")

// wsLink is one Socket Mode WebSocket. Its reader (read) is the only
// goroutine that reads it; ackQueue's writer alone writes data frames to it.
// Control frames (PONG, close) may be written from anywhere, as gorilla
// allows.
type wsLink struct {
	ws      *websocket.Conn
	log     *slog.Logger
	timeout time.Duration
	deliver func(*envelope)
	// done is closed when the reader has ended (err says why); bye when
	// Slack sent disconnect.
	done    chan struct{}
	bye     chan struct{}
	byeOnce sync.Once
	err     error
	closing sync.Once
}

// newWSLink starts reading ws; deliver gets each envelope but hello and
// disconnect.
func newWSLink(ws *websocket.Conn, log *slog.Logger, timeout time.Duration, deliver func(*envelope)) *wsLink {
	l := &wsLink{ws: ws, log: log, timeout: timeout, deliver: deliver, done: make(chan struct{}), bye: make(chan struct{})}
	ws.SetPingHandler(func(data string) error {
		_ = ws.SetReadDeadline(time.Now().Add(timeout))
		if err := ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(socketWriteWait)); err != nil {
			log.Debug("slack socket: PONG not sent", "err", err)
		}
		return nil
	})
	go l.read()
	return l
}

// read reads envelopes until the connection fails or is closed.
func (l *wsLink) read() {
	defer close(l.done)
	unreadable := 0
	// buf holds one frame at a time: readEnvelope keeps nothing of it.
	var buf bytes.Buffer
	for {
		_ = l.ws.SetReadDeadline(time.Now().Add(l.timeout))
		if err := l.readFrame(&buf); err != nil {
			l.err = err
			return
		}
		data := buf.Bytes()
		env, ok := readEnvelope(data)
		if !ok {
			if unreadable++; unreadable >= socketUnreadable {
				l.err = fmt.Errorf("%w: %d in a row", errUnreadable, unreadable)
				return
			}
			l.log.Warn("slack socket: a frame that is no envelope; ignored", "bytes", len(data))
			continue
		}
		unreadable = 0
		switch env.Type {
		case envelopeHello:
			l.log.Debug("slack socket: hello", "connections", env.NumConnections)
		case envelopeDisconnect:
			l.log.Info("slack asks for a new socket", "reason", env.Reason)
			l.byeOnce.Do(func() { close(l.bye) })
		default:
			l.deliver(env)
		}
	}
}

// readFrame reads the next data frame into buf, as ReadMessage would
// without a new buffer for each frame; a buffer grown past frameKeep by a
// large frame is let go.
func (l *wsLink) readFrame(buf *bytes.Buffer) error {
	if buf.Cap() > frameKeep {
		*buf = bytes.Buffer{}
	}
	buf.Reset()
	_, r, err := l.ws.NextReader()
	if err != nil {
		return err
	}
	_, err = buf.ReadFrom(r)
	return err
}

// frameKeep is the largest buffer the reader keeps between frames.
const frameKeep = 64 << 10

// serve waits until the connection ends (false) or Slack asks for a new
// one (true), or ctx ends.
func (l *wsLink) serve(ctx context.Context) (disconnect bool) {
	select {
	case <-l.done:
		return false
	case <-l.bye:
		return true
	case <-ctx.Done():
		return false
	}
}

// cause is why the reader ended.
func (l *wsLink) cause() error {
	select {
	case <-l.done:
		return l.err
	default:
		return nil
	}
}

// write writes one data frame; only ackQueue's writer calls it.
func (l *wsLink) write(frame []byte) error {
	if err := l.ws.SetWriteDeadline(time.Now().Add(socketWriteWait)); err != nil {
		return err
	}
	return l.ws.WriteMessage(websocket.TextMessage, frame)
}

// sayClose writes a close frame, once.
func (l *wsLink) sayClose() {
	l.closing.Do(func() {
		msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
		_ = l.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
	})
}

// shut closes the connection at once and waits for its reader.
func (l *wsLink) shut() {
	l.sayClose()
	_ = l.ws.Close()
	<-l.done
}

// retire closes a connection Slack asked to replace, once the new one is
// open: it says close and goes on reading (and handing over envelopes)
// until Slack closes it too, at most wait, or until ctx ends.
func (l *wsLink) retire(ctx context.Context, wait time.Duration) {
	l.sayClose()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-l.done:
	case <-t.C:
	case <-ctx.Done():
	}
	_ = l.ws.Close()
	<-l.done
}
