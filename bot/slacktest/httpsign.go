package slacktest

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Paths Slack posts to in HTTP mode, under WithHTTPDelivery's base URL.
const (
	PathEvents      = "/slack/events"
	PathCommands    = "/slack/commands"
	PathInteractive = "/slack/interactive"
)

// HTTPRequest is a request the server sends to the app in HTTP mode, for
// SendSigned and the fault helpers.
type HTTPRequest struct {
	// Path is PathEvents, PathCommands or PathInteractive.
	Path string
	// ContentType defaults to application/json for PathEvents and
	// application/x-www-form-urlencoded otherwise.
	ContentType string
	Body        []byte
	// Timestamp is X-Slack-Request-Timestamp; zero means now.
	Timestamp time.Time
	// BadSignature signs with the wrong secret.
	BadSignature bool
	// Header is added to the request (X-Slack-Retry-Num, ...).
	Header http.Header
}

// HTTPAnswer is the app's answer to a request.
type HTTPAnswer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Sign computes Slack's request signature of body sent at ts with secret:
// "v0=" + hex(HMAC-SHA256(secret, "v0:{ts}:{body}")).
func Sign(secret string, ts time.Time, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%d:", ts.Unix())
	mac.Write(body)
	return "v0=" + hex.EncodeToString(mac.Sum(nil))
}

// SendSigned posts req to the app at WithHTTPDelivery's base URL, signed as
// Slack signs, and returns the answer. It waits for the whole answer (or
// ctx), without the delivery timeout.
func (s *Server) SendSigned(ctx context.Context, req HTTPRequest) (HTTPAnswer, error) {
	return s.sendSigned(ctx, http.DefaultClient, req)
}

func (s *Server) sendSigned(ctx context.Context, client *http.Client, req HTTPRequest) (HTTPAnswer, error) {
	if s.cfg.http.base == "" {
		return HTTPAnswer{}, fmt.Errorf("slacktest: HTTP mode is off (WithHTTPDelivery)")
	}
	ts := req.Timestamp
	if ts.IsZero() {
		ts = time.Now()
	}
	secret := s.cfg.http.secret
	if req.BadSignature {
		secret += "-wrong"
	}
	ctype := req.ContentType
	if ctype == "" {
		ctype = "application/x-www-form-urlencoded"
		if req.Path == PathEvents {
			ctype = "application/json"
		}
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(s.cfg.http.base, "/")+req.Path, bytes.NewReader(req.Body))
	if err != nil {
		return HTTPAnswer{}, fmt.Errorf("slacktest: request to the app: %w", err)
	}
	for k, v := range req.Header {
		hr.Header[k] = v
	}
	hr.Header.Set("Content-Type", ctype)
	hr.Header.Set("User-Agent", "Slackbot 1.0 (+https://api.slack.com/robots)")
	hr.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts.Unix(), 10))
	hr.Header.Set("X-Slack-Signature", Sign(secret, ts, req.Body))
	resp, err := client.Do(hr)
	if err != nil {
		return HTTPAnswer{}, fmt.Errorf("slacktest: request to the app: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return HTTPAnswer{}, fmt.Errorf("slacktest: reading the app's answer: %w", err)
	}
	return HTTPAnswer{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

// SendBadSignature posts body to path signed with the wrong secret: the app
// must refuse it.
func (s *Server) SendBadSignature(ctx context.Context, path string, body []byte) (HTTPAnswer, error) {
	return s.SendSigned(ctx, HTTPRequest{Path: path, Body: body, BadSignature: true})
}

// SendStale posts body to path correctly signed but with a timestamp age
// old: past 5 minutes the app must refuse it as a possible replay.
func (s *Server) SendStale(ctx context.Context, path string, body []byte, age time.Duration) (HTTPAnswer, error) {
	return s.SendSigned(ctx, HTTPRequest{Path: path, Body: body, Timestamp: time.Now().Add(-age)})
}

// SendOversized posts a correctly signed JSON body of size bytes to path,
// for the app's limit on what it reads.
func (s *Server) SendOversized(ctx context.Context, path string, size int) (HTTPAnswer, error) {
	const head, tail = `{"type":"event_callback","padding":"`, `"}`
	n := max(size-len(head)-len(tail), 0)
	body := make([]byte, 0, len(head)+n+len(tail))
	body = append(body, head...)
	body = append(body, bytes.Repeat([]byte("x"), n)...)
	body = append(body, tail...)
	return s.SendSigned(ctx, HTTPRequest{Path: path, ContentType: "application/json", Body: body})
}
