package slacktest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/store/redistest"
)

const testSigningSecret = "test-signing-secret"

// appRequest is a request the test app accepted as signed by Slack.
type appRequest struct {
	path        string
	retryNum    string
	retryReason string
	body        []byte
}

// signedApp is a minimal HTTP-mode app: it reads at most 1 MiB, verifies the
// signature with slack-go's SecretsVerifier (401 when it fails), answers
// url_verification, and leaves the rest to answer (nil: 200, no body).
type signedApp struct {
	seen   recorder[appRequest]
	answer func(n int, req appRequest, w http.ResponseWriter, r *http.Request) bool
}

func (a *signedApp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	sv, err := slack.NewSecretsVerifier(r.Header, testSigningSecret)
	if err != nil {
		http.Error(w, "unsigned", http.StatusUnauthorized)
		return
	}
	_, _ = sv.Write(body)
	if sv.Ensure() != nil {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var probe struct{ Type, Challenge string }
	if r.URL.Path == PathEvents && json.Unmarshal(body, &probe) == nil && probe.Type == "url_verification" {
		_, _ = w.Write([]byte(probe.Challenge))
		return
	}
	req := appRequest{path: r.URL.Path, retryNum: r.Header.Get("X-Slack-Retry-Num"), retryReason: r.Header.Get("X-Slack-Retry-Reason"), body: body}
	n := a.seen.len()
	a.seen.add(req)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if a.answer == nil || !a.answer(n, req, w, r) {
		w.WriteHeader(http.StatusOK)
	}
}

func newHTTPModeServer(t *testing.T, app *signedApp, opts ...Option) *Server {
	t.Helper()
	ts := httptest.NewServer(app)
	t.Cleanup(ts.Close)
	return newTestServer(t, append([]Option{WithHTTPDelivery(ts.URL, testSigningSecret), WithEchoBotMessages(false)}, opts...)...)
}

func TestHTTPModeDelivery(t *testing.T) {
	t.Parallel()
	app := &signedApp{answer: func(_ int, req appRequest, w http.ResponseWriter, r *http.Request) bool {
		switch req.path {
		case PathCommands:
			cmd, err := slack.SlashCommandParse(r)
			if err != nil || cmd.Command != "/docs-agent" || cmd.TriggerID == "" {
				http.Error(w, "bad command", http.StatusBadRequest)
				return true
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"text":"Starting the docs agent"}`))
			return true
		case PathInteractive:
			cb, err := slack.InteractionCallbackParse(r)
			if err != nil || cb.Type != slack.InteractionTypeShortcut {
				http.Error(w, "bad payload", http.StatusBadRequest)
				return true
			}
		}
		return false
	}}
	s := newHTTPModeServer(t, app)
	ctx := testContext(t)
	if err := s.VerifyURL(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	ack, err := s.SlashCommand(ctx, SlashCommand{Command: "/docs-agent", Text: "fix typos", UserID: "U0ALICE", ChannelID: "C0GENERAL"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Shortcut(ctx, Shortcut{UserID: "U0BOB", CallbackID: "ask"}); err != nil {
		t.Fatal(err)
	}
	got := app.seen.all()
	wantPaths := []string{PathEvents, PathCommands, PathInteractive}
	if len(got) != len(wantPaths) {
		t.Fatalf("the app saw %d requests, want %d", len(got), len(wantPaths))
	}
	for i, p := range wantPaths {
		if got[i].path != p {
			t.Errorf("request %d went to %s, want %s", i, got[i].path, p)
		}
	}
	var cb struct {
		Type  string `json:"type"`
		Event struct{ Type, Text string }
	}
	if err := json.Unmarshal(got[0].body, &cb); err != nil || cb.Type != "event_callback" || cb.Event.Text != "hello" {
		t.Errorf("event body = %s", got[0].body)
	}
	if ack.Payload == nil || len(s.Ephemerals("U0ALICE")) != 1 {
		t.Errorf("the command's answer %s was not shown to alice", ack.Payload)
	}
}

func TestHTTPModeRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// answer answers the n-th request; true when it wrote the answer.
		answer     func(n int, w http.ResponseWriter, r *http.Request) bool
		wantTries  int
		wantReason string
		wantAck    bool
		// wantFate is what Slack made of the event in the end.
		wantFate EventFate
	}{
		{"error then success", func(n int, w http.ResponseWriter, _ *http.Request) bool {
			if n == 0 {
				http.Error(w, "boom", http.StatusInternalServerError)
				return true
			}
			return false
		}, 2, "http_error", true, EventFate{Acked: true, Attempt: 1}},
		{"no answer in time then success", func(n int, _ http.ResponseWriter, r *http.Request) bool {
			if n == 0 {
				<-r.Context().Done() // the server gives up after its timeout
				return true
			}
			return false
		}, 2, "http_timeout", true, EventFate{Acked: true, Attempt: 1}},
		{"X-Slack-No-Retry stops retries", func(_ int, w http.ResponseWriter, _ *http.Request) bool {
			w.Header().Set("X-Slack-No-Retry", "1")
			http.Error(w, "not now", http.StatusServiceUnavailable)
			return true
		}, 1, "", false, EventFate{GaveUp: true}},
		{"always failing: three retries", func(_ int, w http.ResponseWriter, _ *http.Request) bool {
			http.Error(w, "boom", http.StatusInternalServerError)
			return true
		}, 4, "http_error", false, EventFate{Attempt: 3, GaveUp: true}},
		// A load balancer's answer for a replica that went away with the
		// request: the last try was lost, not refused by the app.
		{"502 from the load balancer every time", func(_ int, w http.ResponseWriter, _ *http.Request) bool {
			w.WriteHeader(http.StatusBadGateway)
			return true
		}, 4, "http_error", false, EventFate{Attempt: 3, GaveUp: true, LastLost: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := &signedApp{answer: func(n int, _ appRequest, w http.ResponseWriter, r *http.Request) bool { return tc.answer(n, w, r) }}
			s := newHTTPModeServer(t, app, WithHTTPRetries(200*time.Millisecond, 0, 0, 0))
			ctx, cancel := context.WithCancel(testContext(t))
			defer cancel()
			acked := make(chan error, 1)
			go func() {
				_, err := s.DeliverEvent(ctx, map[string]any{"type": "message", "channel": "C0GENERAL", "user": "U0ALICE", "text": "x", "ts": "1.000001"})
				acked <- err
			}()
			if err := s.WaitFor(testContext(t), func() bool { return app.seen.len() >= tc.wantTries }); err != nil {
				t.Fatalf("the app saw %d requests, want %d", app.seen.len(), tc.wantTries)
			}
			var ev struct {
				EventID string `json:"event_id"`
			}
			_ = json.Unmarshal(app.seen.all()[0].body, &ev)
			if fate := waitFate(t, s, ev.EventID, EventFate.Settled); fate != tc.wantFate {
				t.Errorf("fate %+v, want %+v", fate, tc.wantFate)
			}
			var err error
			if tc.wantAck {
				// The last answer's ack first: Close would cut short a
				// request the app has seen but not yet answered.
				err = <-acked
				s.Close()
			} else {
				s.Close() // waits for the deliveries in flight: no retry comes later
				cancel()
				err = <-acked
			}
			if (err == nil) != tc.wantAck {
				t.Errorf("DeliverEvent: %v, want acked %v", err, tc.wantAck)
			}
			got := app.seen.all()
			if len(got) != tc.wantTries {
				t.Fatalf("the app saw %d requests, want %d", len(got), tc.wantTries)
			}
			for i, req := range got[1:] {
				if req.retryNum != string(rune('1'+i)) || req.retryReason != tc.wantReason {
					t.Errorf("retry %d: X-Slack-Retry-Num %q reason %q, want %d %q", i+1, req.retryNum, req.retryReason, i+1, tc.wantReason)
				}
			}
			if d := s.HTTPDeliveries(); len(d) != tc.wantTries {
				t.Errorf("HTTPDeliveries lists %d, want %d", len(d), tc.wantTries)
			}
		})
	}
}

func TestHTTPModeFaults(t *testing.T) {
	t.Parallel()
	app := &signedApp{}
	s := newHTTPModeServer(t, app)
	ctx := testContext(t)
	body := []byte(`{"type":"event_callback"}`)
	tests := []struct {
		name string
		send func() (HTTPAnswer, error)
		want int
	}{
		{"signed", func() (HTTPAnswer, error) { return s.SendSigned(ctx, HTTPRequest{Path: PathEvents, Body: body}) }, http.StatusOK},
		{"wrong signature", func() (HTTPAnswer, error) { return s.SendBadSignature(ctx, PathEvents, body) }, http.StatusUnauthorized},
		{"stale timestamp", func() (HTTPAnswer, error) { return s.SendStale(ctx, PathEvents, body, 6*time.Minute) }, http.StatusUnauthorized},
		{"oversized body", func() (HTTPAnswer, error) { return s.SendOversized(ctx, PathEvents, 2<<20) }, http.StatusRequestEntityTooLarge},
	}
	for _, tc := range tests {
		ans, err := tc.send()
		if err != nil || ans.Status != tc.want {
			t.Errorf("%s: status %d, %v; want %d", tc.name, ans.Status, err, tc.want)
		}
	}
}

// TestHTTPModeAppGone: an event that could never be delivered (nothing
// listens at the request URL) is tried as Slack tries it, then given up,
// its last try lost.
func TestHTTPModeAppGone(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithHTTPDelivery("http://"+redistest.FreeAddr(), testSigningSecret), WithHTTPRetries(time.Second, 0, 0, 0))
	id := postUnwaited(t, s, "anyone there?")
	if f := waitFate(t, s, id, EventFate.Settled); f != (EventFate{Attempt: 3, GaveUp: true, LastLost: true}) {
		t.Errorf("fate %+v, want given up after 3 retries, the last lost", f)
	}
	if d := s.HTTPDeliveries(); len(d) != 4 || d[3].RetryReason != "connection_failed" {
		t.Errorf("deliveries %+v, want 4, retried for connection_failed", d)
	}
}
