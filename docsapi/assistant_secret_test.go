package docsapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/docsapi"
)

// TestAssistantKeysNeverLeak runs a hostile server that echoes the assistant
// key and the thread key into every kind of answer, and checks that neither
// shows, whole or in part, in an error, a log line or a printed value.
func TestAssistantKeysNeverLeak(t *testing.T) {
	t.Parallel()
	answers := map[string]struct {
		status      int
		contentType string
		body        func(key, tk string) string
	}{
		"text-401": {401, "text/plain", func(k, tk string) string { return strings.Repeat("u", 190) + " Bearer " + k + " " + tk }},
		"json-404": {404, "application/json", func(k, tk string) string {
			return `{"message":"` + strings.Repeat("x", 480) + ` thread key ` + tk + ` key ` + k + `"}`
		}},
		"details-400": {400, "application/json", func(k, tk string) string {
			return `{"error":"bad","details":[{"message":"` + tk + `"},"` + k + `"]}`
		}},
		"rate-429": {429, "application/json", func(k, tk string) string { return `{"error":"slow down ` + k + tk + `"}` }},
		"html-502": {502, "text/html", func(k, tk string) string { return "<html>" + k + tk + "</html>" }},
		"error-chunk": {200, "text/event-stream", func(k, tk string) string {
			return sse(delta("a"), `{"type":"error","errorText":"`+strings.Repeat("e", 495)+` `+k+` and `+tk+`"}`)
		}},
		"error-chunk-header-key": {200, "text/event-stream", func(k, tk string) string {
			return sse(`{"type":"error","errorText":"new key HEADERKEY0123456789abcdef"}`)
		}},
		"cut": {200, "text/event-stream", func(k, tk string) string { return sse(delta(k + tk)) }},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		b, _ := io.ReadAll(r.Body)
		var req struct{ ThreadID, ThreadKey string }
		_ = json.Unmarshal(b, &req)
		a, ok := answers[req.ThreadID]
		if !ok {
			a = answers["json-404"]
		}
		w.Header().Set("Content-Type", a.contentType)
		w.Header().Set("Retry-After", key)
		if req.ThreadID == "error-chunk-header-key" {
			w.Header().Set("X-Thread-Id", "new")
			w.Header().Set("X-Thread-Key", "HEADERKEY0123456789abcdef")
		}
		w.WriteHeader(a.status)
		_, _ = io.WriteString(w, a.body(key, req.ThreadKey))
	}))
	t.Cleanup(srv.Close)

	key := testAssistantKey(t)
	const threadKey = "tk_secret_0123456789abcdef0123"
	logs := &strings.Builder{}
	a, clientLogs, _ := newAssistant(t, srv.URL, key, "acme")
	var texts []string
	for kind := range answers {
		req := docsapi.Question("q")
		req.Thread = docsapi.Thread{ID: kind, Key: threadKey}
		s, err := a.Ask(context.Background(), req)
		if err == nil {
			_, err = s.Answer()
			texts = append(texts, fmt.Sprintf("%v %+v %#v", s.Thread(), s.Thread(), s.Thread()))
			s.Close()
		}
		if err == nil {
			t.Errorf("%s: no error from the hostile server", kind)
			continue
		}
		texts = append(texts, err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err))
		texts = append(texts, fmt.Sprintf("%v %+v %#v", req, req, req))
	}
	// A printed request or thread, and a logged one, show no thread key.
	l := slog.New(slog.NewTextHandler(logs, nil))
	l.Info("thread", "thread", docsapi.Thread{ID: "t", Key: threadKey}, "key", docsapi.ThreadKey(threadKey), "assistant", a)
	texts = append(texts, logs.String(), clientLogs.String(), fmt.Sprintf("%v %#v", a, a))
	all := strings.Join(texts, "\n")
	for _, secret := range []string{key, threadKey, "HEADERKEY0123456789abcdef"} {
		for i := 0; i+12 <= len(secret); i++ {
			if strings.Contains(all, secret[i:i+12]) {
				t.Fatalf("output shows part of a secret %q:\n%s", secret[i:i+12], all)
			}
		}
	}
}
