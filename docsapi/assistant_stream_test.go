package docsapi_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

const (
	chStart   = `{"type":"start","messageId":"m1"}`
	chFinish  = `{"type":"finish","finishReason":"stop"}`
	chDone    = `[DONE]`
	rawThread = "01J0000000000000000000TEST"
)

func delta(s string) string { return fmt.Sprintf(`{"type":"text-delta","id":"t1","delta":%q}`, s) }

// rawServer answers every request with status, headers and body as given.
func rawServer(t *testing.T, status int, header map[string]string, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestAnswerStreamWire reads streams written by hand: the tolerance of the
// decoder, where the thread comes from, and how a stream may end.
func TestAnswerStreamWire(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 1<<20) // past bufio.Scanner's 64 KiB
	bigResults := `{"type":"tool-output-available","toolCallId":"c1","output":{"results":[` +
		`{"path":"/big","content":"` + strings.Repeat("y", 300<<10) + `","metadata":{"title":"Big"}}]}}`
	tests := []struct {
		name       string
		header     map[string]string
		body       string
		wantText   string
		wantErr    error
		wantThread docsapi.Thread
		wantSrc    []string
		wantEvents []string // event types in order, when given
		aborted    bool
	}{
		{name: "plain", body: sse(chStart, delta("Hello, "), delta("world."), chFinish, chDone), wantText: "Hello, world.",
			wantEvents: []string{"StartEvent", "TextEvent", "TextEvent", "FinishEvent"}},
		{name: "no space after data, comments, CRLF, other fields",
			body:     ": keep-alive\r\nevent: message\r\nid: 1\r\ndata:" + chStart + "\r\n\r\nretry: 10\r\ndata:" + delta("a") + "\r\n\r\n:ping\r\n\r\ndata:" + chFinish + "\r\n\r\ndata:[DONE]\r\n\r\n",
			wantText: "a"},
		{name: "lone CR line ends", body: "data: " + delta("a") + "\r\rdata: " + delta("b") + "\r\rdata: " + chFinish + "\r\r\n", wantText: "ab"},
		{name: "one chunk over several data lines",
			body:     "data: {\"type\":\"text-delta\",\ndata:  \"id\":\"t1\",\ndata:  \"delta\":\"joined\"}\n\n" + sse(chFinish),
			wantText: "joined"},
		{name: "several chunks in one event", body: "data: " + delta("a") + "\ndata: " + delta("b") + "\n\n" + sse(chFinish), wantText: "ab"},
		{name: "unknown chunks, text-start/end and not JSON skipped",
			body: sse(`{"type":"data-weather","data":{"t":1}}`, `{"type":"reasoning-delta","id":"r","delta":"hmm"}`, `not json`, `{"type":42}`, `[1,2]`,
				`{"type":"text-start","id":"t1"}`, delta("ok"), `{"type":"text-delta","id":"t1","delta":7}`, `{"type":"text-end","id":"t1"}`, chFinish),
			wantText: "ok", wantEvents: []string{"TextEvent", "FinishEvent"}},
		{name: "big events", body: sse(delta(big), bigResults, chFinish), wantText: big, wantSrc: []string{"/big"}},
		{name: "sources from a bare array, a named search and source-url, without repeats",
			body: sse(`{"type":"tool-input-start","toolCallId":"c1","toolName":"search"}`,
				`{"type":"tool-input-available","toolCallId":"c1","toolName":"search","input":{"query":"q"}}`,
				`{"type":"tool-output-available","toolCallId":"c1","output":[{"path":"/a","content":"A","metadata":{"title":"A"}},{"content":"no path"}]}`,
				`{"type":"tool-output-available","toolCallId":"c2","output":{"results":[{"path":"/b"},{"path":"/a"}]}}`,
				`{"type":"tool-input-available","toolCallId":"c3","toolName":"markNotFound","input":{}}`,
				`{"type":"tool-output-available","toolCallId":"c3","output":[{"path":"/not-a-source"}]}`,
				`{"type":"source-url","sourceId":"s1","url":"https://docs.example.com/c","title":"C"}`,
				`{"type":"source-url","sourceId":"s2","url":"/b"}`, chFinish),
			wantSrc: []string{"/a", "/b", "https://docs.example.com/c"}},
		{name: "thread from headers wins", header: map[string]string{"X-Thread-Id": "hdr", "X-Thread-Key": "hdrkey"},
			body:     sse(delta("a"), `{"type":"finish","threadId":"fin"}`),
			wantText: "a", wantThread: docsapi.Thread{ID: "hdr", Key: "hdrkey"}},
		{name: "thread from finish top level", body: sse(delta("a"), `{"type":"finish","threadId":"`+rawThread+`"}`, chDone),
			wantText: "a", wantThread: docsapi.Thread{ID: rawThread}},
		{name: "thread from finish metadata", body: sse(delta("a"), `{"type":"finish","messageMetadata":{"threadId":"`+rawThread+`","threadKey":"mk"}}`),
			wantText: "a", wantThread: docsapi.Thread{ID: rawThread, Key: "mk"}},
		{name: "[DONE] without finish ends well", body: sse(delta("a"), chDone), wantText: "a"},
		{name: "finish without [DONE] ends well", body: sse(delta("a"), chFinish), wantText: "a"},
		{name: "last event without blank line", body: sse(delta("a")) + "data: " + chFinish, wantText: "a"},
		{name: "end before finish is a cut", body: sse(chStart, delta("a")), wantText: "a", wantErr: docsapi.ErrStreamCut},
		{name: "empty body is a cut", body: "", wantErr: docsapi.ErrStreamCut},
		{name: "error chunk", body: sse(delta("a"), `{"type":"error","errorText":"boom"}`, chFinish), wantText: "a", wantErr: docsapi.ErrAnswerFailed},
		{name: "error chunk without text", body: sse(`{"type":"error","errorText":{"code":1}}`), wantErr: docsapi.ErrAnswerFailed},
		{name: "abort", body: sse(delta("a"), `{"type":"abort","reason":"user"}`), wantText: "a", aborted: true,
			wantEvents: []string{"TextEvent", "AbortEvent"}},
		{name: "JSON content type and no stream header", header: map[string]string{"Content-Type": "application/json"},
			body: sse(delta("a"), chFinish), wantText: "a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url := rawServer(t, http.StatusOK, tc.header, tc.body)
			a, _, _ := newAssistant(t, url, testAssistantKey(t), "acme")
			s, err := a.Ask(context.Background(), docsapi.Question("q"))
			if err != nil {
				t.Fatalf("Ask: %v", err)
			}
			defer s.Close()
			evs, err := collect(t, s)
			if tc.wantErr == nil && err != nil || tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("error %v, want %v", err, tc.wantErr)
			}
			if got := s.Text(); got != tc.wantText {
				t.Errorf("text %.60q (%d bytes), want %.60q (%d bytes)", got, len(got), tc.wantText, len(tc.wantText))
			}
			if tc.wantThread != (docsapi.Thread{}) && s.Thread() != tc.wantThread {
				t.Errorf("thread %+v, want %+v", s.Thread(), tc.wantThread)
			}
			if tc.wantSrc != nil {
				var keys []string
				for _, src := range s.Sources() {
					keys = append(keys, src.Key())
				}
				if !slices.Equal(keys, tc.wantSrc) {
					t.Errorf("sources %q, want %q", keys, tc.wantSrc)
				}
			}
			if tc.wantEvents != nil {
				var kinds []string
				for _, ev := range evs {
					kinds = append(kinds, strings.TrimPrefix(fmt.Sprintf("%T", ev), "docsapi."))
				}
				if !slices.Equal(kinds, tc.wantEvents) {
					t.Errorf("events %q, want %q", kinds, tc.wantEvents)
				}
			}
			if ans, _ := s.Answer(); ans.Aborted != tc.aborted {
				t.Errorf("aborted = %v, want %v", ans.Aborted, tc.aborted)
			}
		})
	}
}

// TestAskCancelMidStream cancels the context while Next waits on a held
// stream: Next returns at once with the context's error, and once the
// stream is closed no goroutine is left. It does not run in parallel, so
// that the goroutine count is its own.
func TestAskCancelMidStream(t *testing.T) {
	for _, how := range []string{"cancel", "close"} {
		t.Run(how, func(t *testing.T) {
			before := runtime.NumGoroutine()
			pace := make(chan struct{}) // never released: the stream waits mid-answer
			srv := docsapitest.NewServer(docsapitest.WithAssistantKey(testAssistantKey(t)))
			srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Pace: pace})
			a, _, tr := newAssistant(t, srv.DiscoveryURL, srv.AssistantKey, srv.Domain)

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s, err := a.Ask(ctx, docsapi.Question("install"))
			if err != nil {
				t.Fatalf("Ask: %v", err)
			}
			for {
				ev, err := s.Next()
				if err != nil {
					t.Fatalf("Next: %v", err)
				}
				if _, ok := ev.(docsapi.TextEvent); ok {
					break
				}
			}
			type result struct {
				err error
				at  time.Time
			}
			got := make(chan result, 1)
			go func() {
				_, err := s.Next() // blocks: the server waits on pace
				got <- result{err, time.Now()}
			}()
			start := time.Now()
			if how == "cancel" {
				cancel()
			} else {
				_ = s.Close()
			}
			r := <-got
			if d := r.at.Sub(start); d > 2*time.Second {
				t.Errorf("Next returned %v after the %s", d, how)
			}
			if how == "cancel" && !errors.Is(r.err, context.Canceled) {
				t.Errorf("error %v, want context.Canceled", r.err)
			}
			if r.err == nil || errors.Is(r.err, docsapi.ErrStreamCut) {
				t.Errorf("error %v: a stop asked for by the caller is no cut", r.err)
			}
			if _, err := s.Next(); err == nil {
				t.Error("Next after the end gave no error")
			}
			_ = s.Close()
			tr.CloseIdleConnections()
			srv.Close()
			// Goroutines of closed connections end on their own: wait for the
			// count to come back, with a deadline.
			deadline := time.Now().Add(5 * time.Second)
			for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
				runtime.Gosched()
				time.Sleep(5 * time.Millisecond)
			}
			if n := runtime.NumGoroutine(); n > before {
				buf := make([]byte, 1<<20)
				t.Errorf("%d goroutines left over, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
			}
		})
	}
}
