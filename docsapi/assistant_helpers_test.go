package docsapi_test

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// testAssistantKey returns a fresh, recognisable assistant key.
func testAssistantKey(t *testing.T) string {
	t.Helper()
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return docsapi.AssistantKeyPrefix + hex.EncodeToString(b[:])
}

// askEnv is a test server and an assistant client pointed at it.
type askEnv struct {
	srv       *docsapitest.Server
	a         *docsapi.Assistant
	logs      *docsapitest.LogBuffer
	transport *http.Transport
}

// newAskEnv starts a test server with a fresh assistant key and a client
// using it, with its own transport. At the end of the test it checks that
// the log never shows the key.
func newAskEnv(t *testing.T, srvOpts []docsapitest.Option, opts ...docsapi.Option) *askEnv {
	t.Helper()
	srv := docsapitest.NewServer(append([]docsapitest.Option{docsapitest.WithAssistantKey(testAssistantKey(t))}, srvOpts...)...)
	t.Cleanup(srv.Close)
	a, logs, tr := newAssistant(t, srv.DiscoveryURL, srv.AssistantKey, srv.Domain, opts...)
	return &askEnv{srv: srv, a: a, logs: logs, transport: tr}
}

// newAssistant builds an assistant client with quick retries, its own
// transport and a debug logger whose output is checked for the key.
func newAssistant(t *testing.T, discoveryURL, key, domain string, opts ...docsapi.Option) (*docsapi.Assistant, *docsapitest.LogBuffer, *http.Transport) {
	t.Helper()
	logs := &docsapitest.LogBuffer{}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	all := append([]docsapi.Option{
		docsapi.WithDiscoveryURL(discoveryURL),
		docsapi.WithHTTPClient(&http.Client{Transport: tr}),
		docsapi.WithRetryPolicy(testPolicy()),
		docsapi.WithAttemptTimeout(5 * time.Second),
		docsapi.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
	}, opts...)
	a, err := docsapi.NewAssistant(key, domain, all...)
	if err != nil {
		t.Fatalf("NewAssistant: %v", err)
	}
	t.Cleanup(func() {
		if out := logs.String(); strings.Contains(out, key) {
			t.Errorf("client log contains the assistant key:\n%s", out)
		}
	})
	return a, logs, tr
}

// sse builds a stream body from chunks, each sent as one "data: " event.
func sse(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\n\n")
	}
	return b.String()
}

// collect reads a stream to its end and returns the events and the error
// that ended it (nil for io.EOF).
func collect(t *testing.T, s *docsapi.AnswerStream) ([]docsapi.AnswerEvent, error) {
	t.Helper()
	var evs []docsapi.AnswerEvent
	for {
		ev, err := s.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return evs, nil
			}
			return evs, err
		}
		evs = append(evs, ev)
	}
}
