package slacktest

import (
	"encoding/json"
	"time"
)

const (
	typeEventsAPI     = "events_api"
	typeSlashCommands = "slash_commands"
	// maxRetries is the highest retry_attempt Slack sends.
	maxRetries = 3
	// envelopeHistory is how many envelopes the server keeps once they are
	// acknowledged, for Redeliver and EnvelopeOfEvent: in a long run (a
	// sandbox left open, a load test) older acknowledged envelopes are
	// forgotten. Envelopes not yet acknowledged are always kept.
	envelopeHistory = 10000
)

// envelope is a Socket Mode request and its delivery state. Guarded by Server.mu.
type envelope struct {
	id       string
	typ      string
	payload  json.RawMessage
	accepts  bool
	attempt  int    // retry_attempt of the latest sending
	reason   string // retry_reason of the latest sending
	connID   int    // connection of the latest sending, 0 before the first
	sentAt   time.Time
	acks     int // acks received
	firstAck *Ack
	queued   bool
	timer    *time.Timer
	resp     *responseURL // slash commands: where an ack payload is answered
	// onAckLocked, when set, acts on the first ack's payload (nil when none)
	// under Server.mu, such as a view_submission's response_action.
	onAckLocked func(payload json.RawMessage)
	// eventID is an events_api envelope's event_id.
	eventID string
	// gaveUp is set once an unacknowledged event's last retry failed: no
	// ack came within the redelivery time, or its connection closed first
	// (lastLost). Slack sends it no more.
	gaveUp, lastLost bool
}

func (e *envelope) stopTimer() {
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
}

// frame renders e as Slack sends it.
func (e *envelope) frame() []byte {
	b, _ := json.Marshal(map[string]any{
		"envelope_id":              e.id,
		"payload":                  e.payload,
		"type":                     e.typ,
		"accepts_response_payload": e.accepts,
		"retry_attempt":            e.attempt,
		"retry_reason":             e.reason,
	})
	return b
}

// newEnvelopeLocked registers a new envelope of typ carrying payload.
func (s *Server) newEnvelopeLocked(typ string, payload any) *envelope {
	raw, _ := json.Marshal(payload)
	e := &envelope{id: newUUID(), typ: typ, payload: raw, accepts: typ == typeSlashCommands}
	s.envs[e.id] = e
	s.envOrder = append(s.envOrder, e.id)
	s.forgetEnvelopesLocked()
	return e
}

// forgetEnvelopesLocked drops the oldest acknowledged envelopes beyond the
// history the server keeps. It runs once the list has grown by a tenth of
// the history since the last time, so that its cost per envelope stays
// constant even when many envelopes wait for their ack.
func (s *Server) forgetEnvelopesLocked() {
	keep := s.cfg.envelopes
	if len(s.envOrder) <= max(keep, s.envKept)+keep/10 {
		return
	}
	excess := len(s.envOrder) - keep
	kept := make([]string, 0, len(s.envOrder)-excess)
	for _, id := range s.envOrder {
		if e := s.envs[id]; excess > 0 && e.settled() {
			delete(s.envs, id)
			if s.byEvent[e.eventID] == e {
				delete(s.byEvent, e.eventID)
			}
			excess--
			continue
		}
		kept = append(kept, id)
	}
	s.envOrder, s.envKept = kept, len(kept)
}

// settled reports whether e is acknowledged and waits for nothing: no
// redelivery armed, not queued for a connection.
func (e *envelope) settled() bool {
	return e.acks > 0 && e.timer == nil && !e.queued
}

// deliver sends e to one open connection (round robin), or queues it until a
// connection opens. It does not wait for the ack.
func (s *Server) deliver(e *envelope) {
	if s.cfg.http.base != "" {
		s.deliverHTTP(e)
		return
	}
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return
		}
		c := s.pickConnLocked()
		if c == nil {
			if !e.queued {
				e.queued = true
				s.queue = append(s.queue, e)
			}
			s.mu.Unlock()
			return
		}
		e.connID = c.id
		e.sentAt = time.Now()
		b := e.frame()
		attempt := e.attempt
		s.armTimerLocked(e)
		s.mu.Unlock()
		if c.send(b) {
			s.cfg.logger.Debug("slacktest: envelope sent", "type", e.typ, "envelope_id", e.id, "retry_attempt", attempt, "conn", c.id)
			return
		}
		// The connection closed under us: the frame went nowhere, so it is
		// no sending on c (dropConn must not resend it a second time);
		// forget c and try another.
		s.mu.Lock()
		if e.connID == c.id {
			e.connID = 0
		}
		s.mu.Unlock()
		s.dropConn(c)
	}
}

// armTimerLocked schedules the timeout redelivery of an unacknowledged
// event; after its last retry, the moment Slack gives up on it.
func (s *Server) armTimerLocked(e *envelope) {
	e.stopTimer()
	if s.cfg.redelivery <= 0 || e.typ != typeEventsAPI || e.acks > 0 || e.gaveUp {
		return
	}
	if e.attempt >= maxRetries {
		e.timer = time.AfterFunc(s.cfg.redelivery, func() {
			s.mu.Lock()
			if s.closed || e.acks > 0 {
				s.mu.Unlock()
				return
			}
			e.timer = nil
			e.gaveUp = true
			s.mu.Unlock()
			s.changed()
		})
		return
	}
	e.timer = time.AfterFunc(s.cfg.redelivery, func() {
		s.mu.Lock()
		if s.closed || e.acks > 0 || e.attempt >= maxRetries {
			s.mu.Unlock()
			return
		}
		e.timer = nil
		e.attempt++
		e.reason = "timeout"
		s.redelivered++
		s.mu.Unlock()
		s.deliver(e)
	})
}

// orphanedLocked returns the unacknowledged events last sent on connection id,
// prepared for sending again, when redelivery is on. An event whose last
// retry was pending there is given up on: Slack sends it no more.
func (s *Server) orphanedLocked(connID int) []*envelope {
	if s.cfg.redelivery <= 0 {
		return nil
	}
	var out []*envelope
	for _, e := range s.envs {
		if e.connID != connID || e.acks > 0 || e.typ != typeEventsAPI || e.queued || e.gaveUp {
			continue
		}
		if e.attempt >= maxRetries {
			e.stopTimer()
			e.gaveUp, e.lastLost = true, true
			continue
		}
		e.stopTimer()
		e.attempt++
		e.reason = "timeout"
		s.redelivered++
		out = append(out, e)
	}
	return out
}

// EventFate is what became of an Events API event's deliveries at Slack.
type EventFate struct {
	// Acked is set once any delivery was acknowledged (late acks included).
	Acked bool
	// Attempt is the retry_attempt of the latest sending (0 before any).
	Attempt int
	// GaveUp is set when the event was not acknowledged and Slack sends it
	// no more: its last retry (retry_attempt 3) had no ack within the
	// redelivery time, or the connection it went to closed first. Over
	// HTTP (WithHTTPDelivery): its last try was not answered 2xx, or an
	// answer said X-Slack-No-Retry.
	GaveUp bool
	// LastLost is set when Slack gave up because the connection that
	// carried the last retry closed before an ack: the app's process died
	// or its socket dropped while the last try was in its hands. Over
	// HTTP: the last try could not be delivered, or a load balancer
	// answered it 502 Bad Gateway (the replica that had it went away).
	LastLost bool
}

// Settled reports whether Slack is done with the event: acknowledged, or
// given up on.
func (f EventFate) Settled() bool { return f.Acked || f.GaveUp }

// EventFate returns the fate of the Events API event eventID, false when the
// server does not know it (or no longer keeps it; see Redeliver).
func (s *Server) EventFate(eventID string) (EventFate, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byEvent[eventID]
	if !ok {
		return EventFate{}, false
	}
	return EventFate{Acked: e.acks > 0, Attempt: e.attempt, GaveUp: e.acks == 0 && e.gaveUp, LastLost: e.acks == 0 && e.lastLost}, true
}

// Redelivered is the number of times an unacknowledged event was sent again
// (WithRedelivery), after a timeout or a dropped connection.
func (s *Server) Redelivered() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.redelivered
}

// receiveAck records an ack from a client.
func (s *Server) receiveAck(envelopeID string, payload json.RawMessage) {
	now := time.Now()
	s.mu.Lock()
	e, ok := s.envs[envelopeID]
	if !ok {
		s.mu.Unlock()
		s.cfg.logger.Warn("slacktest: ack for an unknown envelope", "envelope_id", envelopeID)
		return
	}
	if len(payload) == 0 || string(payload) == "null" {
		payload = nil
	}
	ack := Ack{EnvelopeID: envelopeID, Payload: cloneRaw(payload), Latency: now.Sub(e.sentAt), At: now}
	s.acks = append(s.acks, ack)
	e.acks++
	var echo []*envelope
	if e.firstAck == nil {
		first := ack
		e.firstAck = &first
		e.stopTimer()
		if e.resp != nil && payload != nil {
			echo = s.answerAckLocked(e.resp, payload)
		}
		if e.onAckLocked != nil {
			e.onAckLocked(payload)
		}
	}
	s.mu.Unlock()
	for _, x := range echo {
		s.deliver(x)
	}
	s.changed()
}

// Acks lists every ack received, in arrival order.
func (s *Server) Acks() []Ack {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Ack, len(s.acks))
	for i, a := range s.acks {
		a.Payload = cloneRaw(a.Payload)
		out[i] = a
	}
	return out
}
