package slacktest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// httpConfig is HTTP-mode delivery's setting (WithHTTPDelivery).
type httpConfig struct {
	base    string
	secret  string
	timeout time.Duration
	retries []time.Duration
}

func defaultHTTPConfig() httpConfig {
	return httpConfig{timeout: 3 * time.Second, retries: []time.Duration{0, time.Minute, 5 * time.Minute}}
}

// WithHTTPDelivery makes the server deliver to the app over HTTP, as Slack
// does for an app without Socket Mode, instead of over Socket Mode: events
// as JSON to baseURL+PathEvents, slash commands form-encoded to
// baseURL+PathCommands, interactions as a form with payload= to
// baseURL+PathInteractive, each signed with signingSecret
// (X-Slack-Request-Timestamp, X-Slack-Signature). A 2xx answer is the ack
// (its body the ack payload: a slash command's response, a
// view_submission's response_action). An event not answered 2xx within 3 s
// is sent again, at once, after 1 minute and after 5 minutes, with
// X-Slack-Retry-Num and X-Slack-Retry-Reason (http_timeout, http_error,
// connection_failed), unless the answer carried X-Slack-No-Retry: 1.
func WithHTTPDelivery(baseURL, signingSecret string) Option {
	return func(c *config) { c.http.base, c.http.secret = baseURL, signingSecret }
}

// WithHTTPRetries sets how long the app has to answer an HTTP delivery
// (default 3s) and the delays before each retry of an event (default 0,
// 1 minute, 5 minutes; none disables retries).
func WithHTTPRetries(timeout time.Duration, delays ...time.Duration) Option {
	return func(c *config) { c.http.timeout, c.http.retries = timeout, append([]time.Duration(nil), delays...) }
}

// HTTPDelivery is one HTTP request the server sent to the app.
type HTTPDelivery struct {
	EnvelopeID string
	Path       string
	// RetryNum and RetryReason are the X-Slack-Retry-* headers sent (0, "" first).
	RetryNum    int
	RetryReason string
	// Status is the app's HTTP status, 0 when it did not answer in time or
	// could not be reached.
	Status int
	// NoRetry is set when the answer carried X-Slack-No-Retry: 1.
	NoRetry bool
	At      time.Time
}

// HTTPDeliveries lists the HTTP requests sent to the app, oldest first.
func (s *Server) HTTPDeliveries() []HTTPDelivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]HTTPDelivery(nil), s.httpSent...)
}

// deliverHTTP posts e to the app in the background (HTTP mode).
func (s *Server) deliverHTTP(e *envelope) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.wg.Go(func() { s.postEnvelope(e) })
}

// httpRequestOf renders e as Slack's HTTP request.
func httpRequestOf(e *envelope) (HTTPRequest, error) {
	switch e.typ {
	case typeEventsAPI:
		return HTTPRequest{Path: PathEvents, Body: e.payload}, nil
	case typeInteractive:
		return HTTPRequest{Path: PathInteractive, Body: []byte(url.Values{"payload": {string(e.payload)}}.Encode())}, nil
	case typeSlashCommands:
		var fields map[string]any
		if err := json.Unmarshal(e.payload, &fields); err != nil {
			return HTTPRequest{}, fmt.Errorf("slacktest: slash command payload: %w", err)
		}
		form := url.Values{}
		for k, v := range fields {
			form.Set(k, fmt.Sprint(v))
		}
		return HTTPRequest{Path: PathCommands, Body: []byte(form.Encode())}, nil
	}
	return HTTPRequest{}, fmt.Errorf("slacktest: no HTTP form for envelope type %q", e.typ)
}

// postEnvelope sends e until the app answers 2xx, retrying events as Slack does.
func (s *Server) postEnvelope(e *envelope) {
	req, err := httpRequestOf(e)
	if err != nil {
		s.cfg.logger.Error("slacktest: HTTP delivery", "err", err)
		return
	}
	client := &http.Client{Timeout: s.cfg.http.timeout}
	s.mu.Lock()
	first, reason := e.attempt, e.reason // more than 0 when Redeliver sends it again
	s.mu.Unlock()
	for attempt := first; ; attempt++ {
		req.Header = http.Header{}
		if attempt > 0 {
			req.Header.Set("X-Slack-Retry-Num", fmt.Sprint(attempt))
			req.Header.Set("X-Slack-Retry-Reason", reason)
		}
		s.mu.Lock()
		e.sentAt = time.Now()
		e.attempt, e.reason = attempt, reason
		s.mu.Unlock()
		ans, err := s.sendSigned(s.ctx, client, req)
		d := HTTPDelivery{EnvelopeID: e.id, Path: req.Path, RetryNum: attempt, RetryReason: reason, Status: ans.Status, At: time.Now()}
		d.NoRetry = ans.Header.Get("X-Slack-No-Retry") == "1"
		s.mu.Lock()
		s.httpSent = append(s.httpSent, d)
		s.mu.Unlock()
		s.changed()
		switch {
		case err == nil && ans.Status/100 == 2:
			s.receiveAck(e.id, ackPayloadOf(ans.Body))
			return
		case s.ctx.Err() != nil:
			return
		case isTimeout(err) || errors.Is(err, context.DeadlineExceeded):
			reason = "http_timeout"
		case err != nil:
			reason = "connection_failed"
		default:
			reason = "http_error"
		}
		if e.typ != typeEventsAPI || d.NoRetry || attempt >= len(s.cfg.http.retries) {
			s.giveUpHTTP(e, err, ans.Status)
			return
		}
		t := time.NewTimer(s.cfg.http.retries[attempt])
		select {
		case <-t.C:
		case <-s.ctx.Done():
			t.Stop()
			return
		}
		s.mu.Lock()
		s.redelivered++
		s.mu.Unlock()
	}
}

// giveUpHTTP records that Slack sends event e no more: its last try was
// answered err (nil when the app answered) and status. The try was lost
// (EventFate.LastLost) when nothing answered for the app: the connection
// failed, or a load balancer answered 502 Bad Gateway because the replica
// that had the request went away with it. A timeout is not: the app was
// there and did not answer in time.
func (s *Server) giveUpHTTP(e *envelope, err error, status int) {
	if e.typ != typeEventsAPI {
		return
	}
	s.mu.Lock()
	e.gaveUp = true
	e.lastLost = (err != nil && !isTimeout(err) && !errors.Is(err, context.DeadlineExceeded)) || status == http.StatusBadGateway
	s.mu.Unlock()
	s.changed()
}

func isTimeout(err error) bool {
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
}

// ackPayloadOf turns the app's answer body into an ack payload: JSON as it
// is, plain text as a message's text, nothing as nil.
func ackPayloadOf(body []byte) json.RawMessage {
	t := nonNull(body)
	switch {
	case len(t) == 0:
		return nil
	case json.Valid(t):
		return t
	default:
		b, _ := json.Marshal(map[string]string{"text": string(t)})
		return b
	}
}

// VerifyURL sends the url_verification request Slack sends when the
// request URL is configured, and checks that the app echoes the challenge
// (as plain text or as {"challenge": ...}).
func (s *Server) VerifyURL(ctx context.Context) error {
	challenge := randomString(32)
	body, _ := json.Marshal(map[string]string{"token": s.verify, "challenge": challenge, "type": "url_verification"})
	ans, err := s.SendSigned(ctx, HTTPRequest{Path: PathEvents, Body: body})
	if err != nil {
		return err
	}
	if ans.Status/100 != 2 {
		return fmt.Errorf("slacktest: url_verification answered HTTP %d", ans.Status)
	}
	var got struct {
		Challenge string `json:"challenge"`
	}
	if string(ans.Body) == challenge || (json.Unmarshal(ans.Body, &got) == nil && got.Challenge == challenge) {
		return nil
	}
	return fmt.Errorf("slacktest: url_verification: the app did not echo the challenge")
}
