package slackweb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

const (
	// coalesce gathers the changes of one burst (a post, its echo, the
	// ack, ...) into one event.
	coalesce = 25 * time.Millisecond
	// keepAlive is how often an idle stream sends a comment, so proxies and
	// browsers keep it open.
	keepAlive = 20 * time.Second
	// reconnectMillis is how soon a browser reconnects a dropped stream.
	reconnectMillis = 1000
)

// serveEvents answers GET /api/events with a server-sent event stream of
// what the person it acts for (ActingParam) sees: a "state" event holding
// the State JSON at once, then again after each change that alters it. It
// ends when the client goes away or the server's base context ends.
func (h *Handler) serveEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	changes, stop := h.srv.Changes()
	defer stop()

	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprintf(w, "retry: %d\n\n", reconnectMillis); err != nil {
		return
	}

	ctx := r.Context()
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	var last []byte
	for {
		b, err := json.Marshal(h.stateOf(me(r)))
		if err != nil {
			h.cfg.logger.Error("slackweb: encoding the state", "err", err)
			return
		}
		if !bytes.Equal(b, last) {
			if _, err := fmt.Fprintf(w, "event: state\ndata: %s\n\n", b); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				h.cfg.logger.Warn("slackweb: event stream cannot flush", "err", err)
				return
			}
			last = b
		}
		select {
		case <-ctx.Done():
			return
		case <-ping.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
			continue
		case <-changes:
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(coalesce):
		}
	}
}
