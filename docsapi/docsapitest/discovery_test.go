package docsapitest

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func askPath(srv *Server) string {
	return srv.DiscoveryURL + "/v2/assistant/" + srv.Domain + "/message"
}

// askRaw posts body to the assistant with the assistant key.
func askRaw(t *testing.T, srv *Server, body string) reply {
	t.Helper()
	r, err := send(t, context.Background(), http.MethodPost, askPath(srv), "Bearer "+srv.AssistantKey, body)
	if err != nil {
		t.Fatalf("ask: %v", err)
	}
	return r
}

const minimalAsk = `{"fp":"anonymous","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"How do I get started"}]}]}`

// events splits an SSE body into its data values.
func events(body string) []string {
	var out []string
	for _, ev := range strings.Split(strings.TrimSpace(body), "\n\n") {
		out = append(out, strings.TrimPrefix(ev, "data: "))
	}
	return out
}

func TestAssistantStream(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithSourceURLs(true))
	r := askRaw(t, srv, minimalAsk)
	if r.status != 200 || r.header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q: %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	id, key := r.header.Get("X-Thread-Id"), r.header.Get("X-Thread-Key")
	if len(id) != 26 || key == "" {
		t.Errorf("thread headers %q, %q", id, key)
	}
	evs := events(string(r.body))
	var types []string
	text := ""
	for _, ev := range evs[:len(evs)-1] {
		var ch struct{ Type, Delta, ThreadID string }
		if err := json.Unmarshal([]byte(ev), &ch); err != nil {
			t.Fatalf("event %q: %v", ev, err)
		}
		types = append(types, ch.Type)
		text += ch.Delta
		if ch.Type == "finish" && ch.ThreadID != id {
			t.Errorf("finish thread %q, want %q", ch.ThreadID, id)
		}
	}
	if evs[len(evs)-1] != "[DONE]" {
		t.Errorf("last event %q, want [DONE]", evs[len(evs)-1])
	}
	joined := strings.Join(types, " ")
	for _, want := range []string{"start start-step tool-input-start tool-input-available tool-output-available source-url",
		"text-start text-delta text-delta", "text-end finish-step finish"} {
		if !strings.Contains(joined, want) {
			t.Errorf("chunk types %q lack %q", joined, want)
		}
	}
	th, ok := srv.Thread(id)
	if !ok || th.Answers[0] != text || !strings.Contains(text, "[Quickstart](/quickstart)") {
		t.Errorf("text %q, thread %+v", text, th)
	}
	// The same question on a fresh server gives the same answer.
	srv2 := startServer(t, WithSourceURLs(true))
	r2 := askRaw(t, srv2, minimalAsk)
	th2, _ := srv2.Thread(r2.header.Get("X-Thread-Id"))
	if th2.Answers[0] != text {
		t.Errorf("answers differ between servers: %q and %q", th2.Answers[0], text)
	}
}

func TestAssistantRequests(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	first := askRaw(t, srv, minimalAsk)
	id, key := first.header.Get("X-Thread-Id"), first.header.Get("X-Thread-Key")
	follow := func(threadID, threadKey string) string {
		return `{"fp":"u1","threadId":"` + threadID + `","threadKey":"` + threadKey + `","messages":[{"id":"m2","role":"user","parts":[{"type":"text","text":"webhooks?"}]}]}`
	}
	for _, tc := range []struct {
		name, body string
		status     int
		msg        string
	}{
		{"unknown fields and part types ignored", `{"fp":"x","id":"chat1","trigger":"submit-message","messageId":null,"context":[{"type":"code","value":"x"}],` +
			`"messages":[{"id":"a","role":"assistant","parts":[{"type":"tool-search","state":"output-available"},{"type":"step-start"}]},` +
			`{"id":"b","role":"user","metadata":{},"parts":[{"type":"file","mediaType":"image/png","url":"x"},{"type":"text","text":"custom domains"}]}],"future":1}`, 200, ""},
		{"continued thread", follow(id, key), 200, ""},
		{"wrong thread key", follow(id, "tk_wrong"), 404, msgNoThread},
		{"missing thread key", `{"fp":"x","threadId":"` + id + `","messages":[{"id":"m","role":"user","parts":[{"type":"text","text":"q"}]}]}`, 404, msgNoThread},
		{"unknown thread", follow("01ARZ3NDEKTSV4RRFFQ69G5FAV", key), 404, msgNoThread},
		{"not JSON", `{`, 400, msgBadJSON},
		{"no fp", `{"messages":[]}`, 400, msgFpRequired},
		{"no messages", `{"fp":"x","messages":[]}`, 400, msgMessagesRequired},
		{"a file part that does not decode", `{"fp":"x","messages":[{"id":"m","role":"user","parts":[{"type":"file","mediaType":"image/png","url":"data:image/png;base64,%%"},{"type":"text","text":"q"}]}]}`, 400, msgBadFile},
		{"a file part without its media type", `{"fp":"x","messages":[{"id":"m","role":"user","parts":[{"type":"file","url":"data:,x"},{"type":"text","text":"q"}]}]}`, 400, msgBadFile},
		{"last message not the user's", `{"fp":"x","messages":[{"id":"m","role":"assistant","parts":[{"type":"text","text":"a"}]}]}`, 400, msgNoQuestion},
	} {
		r := askRaw(t, srv, tc.body)
		if r.status != tc.status || (tc.msg != "" && !strings.Contains(string(r.body), tc.msg)) {
			t.Errorf("%s: %d %s, want %d %s", tc.name, r.status, r.body, tc.status, tc.msg)
		}
		if tc.status == 200 && tc.name == "continued thread" && r.header.Get("X-Thread-Key") != "" {
			t.Errorf("%s: a continued thread sent a new key", tc.name)
		}
	}
	th, _ := srv.Thread(id)
	if len(th.Questions) != 2 || !strings.Contains(th.Answers[1], `earlier question ("How do I get started")`) {
		t.Errorf("thread %+v", th)
	}
	if n := srv.Questions(); n != 3 {
		t.Errorf("questions = %d, want 3", n)
	}
}

func TestDiscoveryRoutesAndKeys(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name, method, url, auth, body string
		status                        int
		contains                      string
	}{
		{"GET message", http.MethodGet, askPath(srv), "Bearer " + srv.AssistantKey, "", 405, msgMethodNotAllowed},
		{"admin key on the assistant", http.MethodPost, askPath(srv), "Bearer " + srv.Key, minimalAsk, 401, msgDiscoveryUnauthorized},
		{"no key", http.MethodPost, askPath(srv), "", minimalAsk, 401, msgDiscoveryUnauthorized},
		{"assistant key on agent jobs", http.MethodPost, srv.URL + jobsPath(srv), "Bearer " + srv.AssistantKey, `{"prompt":"x"}`, 401, msgUnauthorized},
		{"other domain", http.MethodPost, srv.DiscoveryURL + "/v2/assistant/other/message", "Bearer " + srv.AssistantKey, minimalAsk, 404, `{"message":"domain not found"}`},
		{"v1 message unknown", http.MethodPost, srv.DiscoveryURL + "/v1/assistant/" + srv.Domain + "/message", "Bearer " + srv.AssistantKey, minimalAsk, 404, msgNotFound},
		{"search", http.MethodPost, srv.DiscoveryURL + "/v1/search/" + srv.Domain, "Bearer " + srv.AssistantKey, `{"query":"webhook signature","pageSize":1}`, 200, `[{"content":"Webhooks send`},
		{"search without query", http.MethodPost, srv.DiscoveryURL + "/v1/search/" + srv.Domain, "Bearer " + srv.AssistantKey, `{}`, 400, msgQueryRequired},
		{"search page size", http.MethodPost, srv.DiscoveryURL + "/v1/search/" + srv.Domain, "Bearer " + srv.AssistantKey, `{"query":"x","pageSize":51}`, 400, msgBadPageSize},
		{"page", http.MethodPost, srv.DiscoveryURL + "/v1/page/" + srv.Domain, "Bearer " + srv.AssistantKey, `{"path":"/quickstart"}`, 200, `"path":"/quickstart"`},
		{"unknown page", http.MethodPost, srv.DiscoveryURL + "/v1/page/" + srv.Domain, "Bearer " + srv.AssistantKey, `{"path":"/x"}`, 404, `{"message":"page not found"}`},
	} {
		r, err := send(t, ctx, tc.method, tc.url, tc.auth, tc.body)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.status != tc.status || !strings.Contains(string(r.body), tc.contains) {
			t.Errorf("%s: %d %s, want %d with %s", tc.name, r.status, r.body, tc.status, tc.contains)
		}
	}
	if n := srv.Questions(); n != 0 {
		t.Errorf("questions = %d, want 0", n)
	}
}

func TestDiscoveryPrefixAndDocs(t *testing.T) {
	t.Parallel()
	docs := []DocPage{{Path: "/widgets", Title: "Widgets", Content: "Widgets spin. They are blue."}}
	for _, prefix := range []string{"", "/api/discovery/"} {
		srv := startServer(t, WithDiscoveryPrefix(prefix), WithDocs(docs), WithDomain("widgetco"))
		r := askRaw(t, srv, `{"fp":"x","messages":[{"id":"m","role":"user","parts":[{"type":"text","text":"widgets"}]}]}`)
		th, _ := srv.Thread(r.header.Get("X-Thread-Id"))
		if r.status != 200 || len(th.Answers) != 1 || th.Answers[0] != "According to Widgets: Widgets spin.\n\nSee [Widgets](/widgets) for more." {
			t.Errorf("prefix %q: %d %+v", prefix, r.status, th)
		}
		if job := do(t, srv, http.MethodPost, jobsPath(srv), `{"prompt":"x"}`); job.status != 201 {
			t.Errorf("prefix %q: agent jobs answer %d", prefix, job.status)
		}
	}
}

func TestAssistantLimitsAndFaults(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithLimits(Limits{Assistant: 1}))
	if r := askRaw(t, srv, minimalAsk); r.status != 200 {
		t.Fatalf("first: %d", r.status)
	}
	if r := askRaw(t, srv, minimalAsk); r.status != 429 || r.header.Get("Retry-After") == "" {
		t.Errorf("second: %d, Retry-After %q", r.status, r.header.Get("Retry-After"))
	}
	if n, q := srv.Count(EndpointAssistant), srv.Questions(); n != 2 || q != 1 {
		t.Errorf("count %d, questions %d; want 2 and 1", n, q)
	}

	srv = startServer(t)
	srv.AddFault(Fault{Endpoint: EndpointAssistant, StreamError: "overloaded", AfterDeltas: 1, NoThreadHeaders: true, Times: 1})
	r := askRaw(t, srv, minimalAsk)
	evs := events(string(r.body))
	if r.header.Get("X-Thread-Id") != "" || evs[len(evs)-2] != `{"errorText":"overloaded","type":"error"}` || evs[len(evs)-1] != "[DONE]" {
		t.Errorf("error fault: headers %v, events %q", r.header, evs)
	}
	srv.AddFault(Fault{Endpoint: EndpointAssistant, CutStream: true, AfterDeltas: 2})
	if _, err := send(t, context.Background(), http.MethodPost, askPath(srv), "Bearer "+srv.AssistantKey, minimalAsk); err == nil {
		t.Error("cut stream read without error")
	}
	if reqs := srv.Requests(); reqs[len(reqs)-1].Status != 200 {
		t.Errorf("cut stream recorded status %d, want 200 (sent before the cut)", reqs[len(reqs)-1].Status)
	}
}

// TestAssistantAnswerOfAFault: a fault's Deltas are the answer's text, sent
// as given after the search, and its SourceURLs come before the text; the
// thread records that text; the next answer is composed from the docs again.
func TestAssistantAnswerOfAFault(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	srv.AddFault(Fault{Endpoint: EndpointAssistant, Times: 1, Deltas: []string{"Ping <", "!here> and ", "[Login](https://evil.example/login)"},
		SourceURLs: []SourceURL{{URL: "https://evil.example/x", Title: "Evil"}}})
	r := askRaw(t, srv, minimalAsk)
	var types, deltas []string
	var source string
	for _, ev := range events(string(r.body)) {
		var ch struct{ Type, Delta, URL string }
		if ev == "[DONE]" || json.Unmarshal([]byte(ev), &ch) != nil {
			continue
		}
		types = append(types, ch.Type)
		if ch.Type == "text-delta" {
			deltas = append(deltas, ch.Delta)
		}
		if ch.Type == "source-url" {
			source = ch.URL
		}
	}
	if strings.Join(deltas, "|") != "Ping <|!here> and |[Login](https://evil.example/login)" || source != "https://evil.example/x" {
		t.Errorf("deltas %q, source %q", deltas, source)
	}
	if joined := strings.Join(types, " "); !strings.Contains(joined, "tool-output-available") || !strings.Contains(joined, "source-url text-start text-delta") {
		t.Errorf("chunk types %q: the source-url does not come before the text", joined)
	}
	th, _ := srv.Thread(r.header.Get("X-Thread-Id"))
	if len(th.Answers) != 1 || th.Answers[0] != "Ping <!here> and [Login](https://evil.example/login)" {
		t.Errorf("the thread recorded %q", th.Answers)
	}
	r = askRaw(t, srv, minimalAsk)
	th, _ = srv.Thread(r.header.Get("X-Thread-Id"))
	if len(th.Answers) != 1 || !strings.Contains(th.Answers[0], "Quickstart") {
		t.Errorf("the answer after the fault: %q", th.Answers)
	}
}
