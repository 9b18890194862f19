package slacktest

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

const (
	writeTimeout = 10 * time.Second
	// outboxSize bounds the frames queued for one connection's writer.
	outboxSize = 256
	// readLimit bounds one incoming frame; slack-go refuses acks of 20 KB or more.
	readLimit = 1 << 20
)

// wsConn is one Socket Mode connection. Only its writer goroutine writes to ws.
type wsConn struct {
	id     int
	ws     *websocket.Conn
	out    chan []byte
	done   chan struct{}
	closer sync.Once
	// pongs counts the PONG frames received, the client's answers to the
	// PINGs, for tests to see that pings reach the client.
	pongs atomic.Int64
}

// send queues a text frame for the writer; false when the connection is gone.
func (c *wsConn) send(b []byte) bool {
	select {
	case <-c.done:
		return false
	default:
	}
	select {
	case c.out <- b:
		return true
	case <-c.done:
		return false
	}
}

func (c *wsConn) isClosed() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// close shuts the socket without a close frame, as a dropped network would.
func (c *wsConn) close() {
	c.closer.Do(func() {
		close(c.done)
		_ = c.ws.Close()
	})
}

// serveLink upgrades GET /link/?ticket=... to a Socket Mode WebSocket.
func (s *Server) serveLink(w http.ResponseWriter, r *http.Request) {
	ticket := r.URL.Query().Get("ticket")
	s.mu.Lock()
	_, ok := s.tickets[ticket]
	delete(s.tickets, ticket)
	s.mu.Unlock()
	if !ok {
		http.Error(w, "invalid or used ticket", http.StatusUnauthorized)
		return
	}
	up := websocket.Upgrader{
		// slack-go sends Origin https://api.slack.com; any origin is fine here.
		CheckOrigin: func(*http.Request) bool { return true },
	}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		s.cfg.logger.Warn("slacktest: websocket upgrade failed", "err", err)
		return
	}
	ws.SetReadLimit(readLimit)
	c := &wsConn{ws: ws, out: make(chan []byte, outboxSize), done: make(chan struct{})}
	ws.SetPongHandler(func(string) error {
		c.pongs.Add(1)
		return nil
	})

	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = ws.Close()
		return
	}
	s.nextConnID++
	c.id = s.nextConnID
	s.conns = append(s.conns, c)
	s.connects++
	hello, _ := json.Marshal(map[string]any{
		"type":            "hello",
		"num_connections": len(s.conns),
		"debug_info": map[string]any{
			"host":                        "slacktest",
			"build_number":                1,
			"approximate_connection_time": 18060,
		},
		"connection_info": map[string]any{"app_id": s.cfg.appID},
	})
	c.out <- hello // the outbox is empty: hello is always the first frame
	queued := s.queue
	s.queue = nil
	for _, e := range queued {
		e.queued = false
	}
	s.wg.Go(func() { s.readLoop(c) })
	s.wg.Go(func() { s.writeLoop(c) })
	s.mu.Unlock()

	s.cfg.logger.Info("slacktest: socket mode connection opened", "conn", c.id)
	for _, e := range queued {
		s.deliver(e)
	}
	s.changed()
}

// writeLoop is the only writer of c.ws: queued frames and PINGs.
func (s *Server) writeLoop(c *wsConn) {
	var tick <-chan time.Time
	if s.cfg.ping > 0 {
		t := time.NewTicker(s.cfg.ping)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-c.done:
			return
		case b := <-c.out:
			_ = c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
			if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				s.dropConn(c)
				return
			}
		case <-tick:
			if err := c.ws.WriteControl(websocket.PingMessage, []byte("ping"), time.Now().Add(writeTimeout)); err != nil {
				s.dropConn(c)
				return
			}
		}
	}
}

// readLoop reads acks until the connection fails, then removes it.
func (s *Server) readLoop(c *wsConn) {
	defer s.dropConn(c)
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		var ack struct {
			EnvelopeID string          `json:"envelope_id"`
			Payload    json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(data, &ack); err != nil || ack.EnvelopeID == "" {
			s.cfg.logger.Warn("slacktest: unreadable frame from client", "conn", c.id)
			continue
		}
		s.receiveAck(ack.EnvelopeID, ack.Payload)
	}
}

// dropConn forgets c, closes it and resends what was pending on it.
func (s *Server) dropConn(c *wsConn) {
	s.mu.Lock()
	found := false
	for i, x := range s.conns {
		if x == c {
			s.conns = append(s.conns[:i:i], s.conns[i+1:]...)
			found = true
			break
		}
	}
	var resend []*envelope
	if found && !s.closed {
		resend = s.orphanedLocked(c.id)
	}
	s.mu.Unlock()
	c.close()
	if !found {
		return
	}
	s.cfg.logger.Info("slacktest: socket mode connection closed", "conn", c.id)
	for _, e := range resend {
		s.deliver(e)
	}
	s.changed()
}

// pickConnLocked returns the next open connection, round robin, or nil.
func (s *Server) pickConnLocked() *wsConn {
	n := len(s.conns)
	for i := range n {
		c := s.conns[(s.rr+i)%n]
		if !c.isClosed() {
			s.rr = (s.rr + i + 1) % n
			return c
		}
	}
	return nil
}

// Disconnect sends {"type":"disconnect","reason":reason} to every connection, as
// Slack does before it refreshes ("refresh_requested"), warns ("warning") or
// disables ("link_disabled") a connection. slack-go reconnects on any of them.
func (s *Server) Disconnect(reason string) {
	b, _ := json.Marshal(map[string]any{
		"type":       "disconnect",
		"reason":     reason,
		"debug_info": map[string]any{"host": "slacktest"},
	})
	s.mu.Lock()
	conns := append([]*wsConn(nil), s.conns...)
	s.mu.Unlock()
	for _, c := range conns {
		c.send(b)
	}
}

// DropConnections closes every Socket Mode connection abruptly, without a close
// frame, as a network failure would. They go all at once: an event pending
// on one of them is sent again once (retry_attempt one higher) when a
// connection opens, not passed from one closing connection to the next.
func (s *Server) DropConnections() {
	s.mu.Lock()
	conns := s.conns
	s.conns = nil
	var resend []*envelope
	if !s.closed {
		for _, c := range conns {
			resend = append(resend, s.orphanedLocked(c.id)...)
		}
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.close()
		s.cfg.logger.Info("slacktest: socket mode connection closed", "conn", c.id)
	}
	for _, e := range resend {
		s.deliver(e)
	}
	s.changed()
}

// Connections is the number of open Socket Mode connections.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Connects is the number of Socket Mode connections ever opened, reconnections included.
func (s *Server) Connects() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connects
}

// WaitConnections waits until at least n connections are open (for n = 0,
// until none is), or ctx ends.
func (s *Server) WaitConnections(ctx context.Context, n int) error {
	return s.WaitFor(ctx, func() bool {
		c := s.Connections()
		if n == 0 {
			return c == 0
		}
		return c >= n
	})
}
