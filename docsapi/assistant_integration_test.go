package docsapi_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestAskStreamsInSteps holds the fake's answer before its second text delta
// and checks that everything before it has already arrived: the search call,
// its sources and the first piece of text.
func TestAskStreamsInSteps(t *testing.T) {
	t.Parallel()
	pace := make(chan struct{})
	e := newAskEnv(t, nil)
	e.srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Pace: pace})
	s, err := e.a.Ask(context.Background(), docsapi.Question("How do I install the CLI?"))
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	defer s.Close()

	var kinds []string
	for {
		ev, err := s.Next()
		if err != nil {
			t.Fatalf("Next before the first delta: %v", err)
		}
		switch ev := ev.(type) {
		case docsapi.StartEvent:
			kinds = append(kinds, "start")
		case docsapi.ToolCallEvent:
			kinds = append(kinds, "tool-call:"+ev.Name+":"+ev.Query)
		case docsapi.ToolResultEvent:
			kinds = append(kinds, "tool-result:"+ev.Name)
		case docsapi.SourcesEvent:
			kinds = append(kinds, "sources:"+ev.Sources[0].Path)
		case docsapi.TextEvent:
			kinds = append(kinds, "text")
		default:
			t.Fatalf("unexpected event %T before the first delta", ev)
		}
		if kinds[len(kinds)-1] == "text" {
			break
		}
	}
	want := []string{"start", "tool-call:search:How do I install the CLI?", "tool-result:search", "sources:/installation", "text"}
	if !slices.Equal(kinds, want) {
		t.Errorf("events = %q, want %q", kinds, want)
	}
	// The server waits on pace: the answer is not over, yet its thread is
	// known from the headers.
	th := s.Thread()
	if th.ID == "" || th.Key == "" {
		t.Errorf("thread %+v not known from the headers", th)
	}
	if got := e.srv.Questions(); got != 1 {
		t.Errorf("questions = %d, want 1", got)
	}
	close(pace)
	ans, err := s.Answer()
	if err != nil {
		t.Fatalf("Answer: %v", err)
	}
	st, ok := e.srv.Thread(th.ID)
	if !ok || len(st.Answers) != 1 || ans.Text != st.Answers[0] {
		t.Errorf("answer %q, server thread %+v", ans.Text, st)
	}
	if ans.FinishReason != "stop" || ans.Thread != th || !slices.Equal(ans.Queries, []string{"How do I install the CLI?"}) {
		t.Errorf("answer = %+v", ans)
	}
}

// askCase is one question to the fake and what must come of it.
type askCase struct {
	name     string
	srvOpts  []docsapitest.Option
	opts     []docsapi.Option
	faults   []docsapitest.Fault
	key      string // client key instead of the server's
	domain   string // client domain instead of the server's
	question string

	wantAskErr    []error // errors.Is targets of Ask's error
	wantStreamErr []error // errors.Is targets of the stream's error
	wantStatus    int     // status of the *APIError, if any
	wantText      []string
	wantSources   []string // keys of the sources, in order
	wantThread    bool     // the answer names a thread with a key
	wantNoKey     bool     // the answer names a thread without a key
	wantRequests  int
	wantQuestions int
	check         func(t *testing.T, e *askEnv, err error)
}

func TestAsk(t *testing.T) {
	t.Parallel()
	unknown := []error{docsapi.ErrOutcomeUnknown}
	tests := []askCase{
		{name: "answer with sources from the search tool", question: "How do I create an API key?",
			wantText:    []string{"According to Authentication: Every API request needs an API key", "See [Authentication](/authentication)"},
			wantSources: []string{"/authentication", "/api-reference/rate-limits"}, wantThread: true, wantRequests: 1, wantQuestions: 1},
		{name: "sources from source-url chunks too", srvOpts: []docsapitest.Option{docsapitest.WithSourceURLs(true)},
			question:    "custom domain CNAME",
			wantSources: []string{"/guides/custom-domains", "https://acme.mintlify.app/guides/custom-domains"}, wantThread: true, wantRequests: 1, wantQuestions: 1},
		{name: "no match", question: "zebra xylophone", wantText: []string{"could not find anything"}, wantSources: nil,
			wantThread: true, wantRequests: 1, wantQuestions: 1},
		{name: "thread from the finish chunk without headers", question: "webhook signature",
			faults:    []docsapitest.Fault{{Endpoint: docsapitest.EndpointAssistant, NoThreadHeaders: true}},
			wantNoKey: true, wantRequests: 1, wantQuestions: 1},
		{name: "error chunk mid-answer", question: "webhook signature",
			faults:        []docsapitest.Fault{{Endpoint: docsapitest.EndpointAssistant, StreamError: "model overloaded", AfterDeltas: 2}},
			wantStreamErr: []error{docsapi.ErrAnswerFailed}, wantRequests: 1, wantQuestions: 1,
			check: func(t *testing.T, e *askEnv, err error) {
				var ae *docsapi.AnswerError
				if !errors.As(err, &ae) || ae.ErrorText != "model overloaded" {
					t.Errorf("error %v is not an AnswerError with the text", err)
				}
			}},
		{name: "stream cut mid-answer", question: "webhook signature",
			faults:        []docsapitest.Fault{{Endpoint: docsapitest.EndpointAssistant, CutStream: true, AfterDeltas: 1}},
			wantStreamErr: []error{docsapi.ErrStreamCut}, wantRequests: 1, wantQuestions: 1},
		{name: "401 wrong key", question: "install", key: docsapi.AssistantKeyPrefix + "wrong0123456789abcdef",
			wantAskErr: []error{docsapi.ErrUnauthorized}, wantStatus: 401, wantRequests: 1, wantQuestions: 0,
			check: func(t *testing.T, e *askEnv, err error) {
				if !strings.Contains(err.Error(), "401 Unauthorized: Unauthorized") {
					t.Errorf("error %q lacks the plain-text body", err)
				}
			}},
		{name: "unknown domain", question: "install", domain: "other",
			wantAskErr: []error{docsapi.ErrNotFound}, wantStatus: 404, wantRequests: 1,
			check: func(t *testing.T, e *askEnv, err error) {
				if errors.Is(err, docsapi.ErrThreadNotFound) {
					t.Errorf("a 404 without a thread is not ErrThreadNotFound: %v", err)
				}
			}},
		{name: "429 retried after Retry-After", question: "install",
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointAssistant, Status: 429, RetryAfter: time.Second, Times: 1}},
			wantThread: true, wantRequests: 2, wantQuestions: 1,
			check: func(t *testing.T, e *askEnv, err error) {
				reqs := e.srv.Requests()
				if gap := reqs[1].At.Sub(reqs[0].At); gap < 900*time.Millisecond {
					t.Errorf("retried after %v, before Retry-After", gap)
				}
			}},
		{name: "429 with a wait past MaxWait", question: "install",
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointAssistant, Status: 429, RetryAfter: time.Minute}},
			wantAskErr: []error{docsapi.ErrRateLimited}, wantStatus: 429, wantRequests: 1,
			check: func(t *testing.T, e *askEnv, err error) {
				var ae *docsapi.APIError
				if !errors.As(err, &ae) || ae.RetryAfter != time.Minute {
					t.Errorf("error %v lacks RetryAfter 1m", err)
				}
			}},
		{name: "502 is not retried", question: "install",
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointAssistant, Status: 502}},
			wantAskErr: append([]error{}, unknown...), wantStatus: 502, wantRequests: 1},
		{name: "502 after the question was taken is not retried", question: "install",
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointAssistant, Status: 502, AfterAct: true}},
			wantAskErr: unknown, wantStatus: 502, wantRequests: 1, wantQuestions: 1},
		{name: "connection closed before an answer is not retried", question: "install",
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointAssistant, CloseConn: true}},
			wantAskErr: unknown, wantRequests: 1},
		{name: "unknown server is retried: nothing was sent", question: "install",
			opts:       []docsapi.Option{docsapi.WithDiscoveryURL("http://127.0.0.1:1/discovery")},
			wantAskErr: []error{}, wantRequests: 0,
			check: func(t *testing.T, e *askEnv, err error) {
				var te *docsapi.TransportError
				if !errors.As(err, &te) || errors.Is(err, docsapi.ErrOutcomeUnknown) {
					t.Errorf("error %v: want a TransportError without outcome unknown", err)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newAskEnv(t, tc.srvOpts)
			for _, f := range tc.faults {
				e.srv.AddFault(f)
			}
			a := e.a
			if tc.key != "" || tc.domain != "" || tc.opts != nil {
				key, domain := e.srv.AssistantKey, e.srv.Domain
				if tc.key != "" {
					key = tc.key
				}
				if tc.domain != "" {
					domain = tc.domain
				}
				a, _, _ = newAssistant(t, e.srv.DiscoveryURL, key, domain, tc.opts...)
			}
			s, err := a.Ask(context.Background(), docsapi.Question(tc.question))
			var ans *docsapi.Answer
			if err == nil {
				defer s.Close()
				ans, err = s.Answer()
				checkIs(t, "stream", err, tc.wantStreamErr)
			} else if tc.wantAskErr == nil {
				t.Fatalf("Ask: %v", err)
			} else {
				checkIs(t, "Ask", err, tc.wantAskErr)
			}
			if tc.wantStatus != 0 {
				var ae *docsapi.APIError
				if !errors.As(err, &ae) || ae.StatusCode != tc.wantStatus {
					t.Errorf("error %v: want an APIError with status %d", err, tc.wantStatus)
				}
			}
			if tc.wantAskErr == nil && tc.wantStreamErr == nil && err != nil {
				t.Fatalf("answer: %v", err)
			}
			if ans != nil {
				for _, w := range tc.wantText {
					if !strings.Contains(ans.Text, w) {
						t.Errorf("answer %q lacks %q", ans.Text, w)
					}
				}
				if tc.wantSources != nil || err == nil {
					var keys []string
					for _, src := range ans.Sources {
						keys = append(keys, src.Key())
					}
					if len(tc.wantSources) > 0 && !slices.Equal(keys[:min(len(keys), len(tc.wantSources))], tc.wantSources) {
						t.Errorf("sources = %q, want them to begin with %q", keys, tc.wantSources)
					}
					if tc.wantSources == nil && tc.wantText != nil && len(keys) > 0 {
						t.Errorf("sources = %q, want none", keys)
					}
				}
				if tc.wantThread || tc.wantNoKey {
					th := ans.Thread
					if _, ok := e.srv.Thread(th.ID); !ok {
						t.Errorf("thread %q unknown to the server", th.ID)
					}
					if tc.wantThread && th.Key == "" {
						t.Errorf("thread %q has no key", th.ID)
					}
					if tc.wantNoKey && th.Key != "" {
						t.Errorf("thread key %v read from nowhere", th.Key)
					}
				}
			}
			if got := e.srv.Count(docsapitest.EndpointAssistant); got != tc.wantRequests {
				t.Errorf("requests = %d, want %d", got, tc.wantRequests)
			}
			if got := e.srv.Questions(); got != tc.wantQuestions {
				t.Errorf("questions = %d, want %d", got, tc.wantQuestions)
			}
			if tc.check != nil {
				tc.check(t, e, err)
			}
		})
	}
}

func checkIs(t *testing.T, what string, err error, targets []error) {
	t.Helper()
	if targets == nil {
		if err != nil {
			t.Errorf("%s: unexpected error %v", what, err)
		}
		return
	}
	if err == nil {
		t.Errorf("%s: no error, want one matching %v", what, targets)
		return
	}
	for _, target := range targets {
		if !errors.Is(err, target) {
			t.Errorf("%s: error %v does not match %v", what, err, target)
		}
	}
}

// TestAskContinuesThread asks a follow-up question in the thread of the
// first answer, then tries the thread with a wrong and a missing key.
func TestAskContinuesThread(t *testing.T) {
	t.Parallel()
	e := newAskEnv(t, nil)
	ctx := context.Background()
	first, err := ask(ctx, e.a, docsapi.Question("How do I install the CLI?"))
	if err != nil {
		t.Fatalf("first question: %v", err)
	}
	th := first.Thread
	follow := docsapi.Question("And how do I authenticate?")
	follow.Thread = th
	second, err := ask(ctx, e.a, follow)
	if err != nil {
		t.Fatalf("follow-up: %v", err)
	}
	if second.Thread != th {
		t.Errorf("follow-up thread %+v, want %+v kept", second.Thread, th)
	}
	if !strings.Contains(second.Text, `earlier question ("How do I install the CLI?")`) {
		t.Errorf("follow-up %q does not see the earlier question", second.Text)
	}
	st, _ := e.srv.Thread(th.ID)
	if !slices.Equal(st.Questions, []string{"How do I install the CLI?", "And how do I authenticate?"}) {
		t.Errorf("server thread questions = %q", st.Questions)
	}
	if reqs := e.srv.Requests(); !strings.Contains(reqs[1].Body, `"threadKey":"`+string(th.Key)+`"`) {
		t.Errorf("follow-up body %s lacks the thread key", reqs[1].Body)
	}

	for name, bad := range map[string]docsapi.Thread{
		"wrong key":      {ID: th.ID, Key: "tk_wrong_wrong_wrong_wrong"},
		"missing key":    {ID: th.ID},
		"unknown thread": {ID: "01ARZ3NDEKTSV4RRFFQ69G5FAV", Key: th.Key},
	} {
		q := docsapi.Question("Anything else?")
		q.Thread = bad
		_, err := e.a.Ask(ctx, q)
		if !errors.Is(err, docsapi.ErrThreadNotFound) || !errors.Is(err, docsapi.ErrNotFound) {
			t.Errorf("%s: error %v, want ErrThreadNotFound", name, err)
		}
		for _, k := range []string{string(bad.Key), string(th.Key)} {
			if k != "" && err != nil && strings.Contains(err.Error(), k) {
				t.Errorf("%s: error shows a thread key: %v", name, err)
			}
		}
	}
	if got := e.srv.Questions(); got != 2 {
		t.Errorf("questions = %d, want 2: refused follow-ups cost nothing", got)
	}
}

func ask(ctx context.Context, a *docsapi.Assistant, req docsapi.AskRequest) (*docsapi.Answer, error) {
	s, err := a.Ask(ctx, req)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Answer()
}

// TestAskStalls cuts a stream that goes silent for longer than the attempt
// timeout, while one that keeps coming is never cut.
func TestAskStalls(t *testing.T) {
	t.Parallel()
	pace := make(chan struct{}) // never released
	e := newAskEnv(t, nil, docsapi.WithAttemptTimeout(300*time.Millisecond))
	e.srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Pace: pace})
	s, err := e.a.Ask(context.Background(), docsapi.Question("install"))
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	defer s.Close()
	_, err = s.Answer()
	if !errors.Is(err, docsapi.ErrStreamCut) || !strings.Contains(err.Error(), "no data for 300ms") {
		t.Errorf("error %v, want ErrStreamCut for a stall", err)
	}
	if s.Text() == "" {
		t.Error("the text before the stall was lost")
	}
}

func TestSearchAndPage(t *testing.T) {
	t.Parallel()
	e := newAskEnv(t, nil)
	ctx := context.Background()
	res, err := e.a.Search(ctx, docsapi.SearchParams{Query: "rate limit Retry-After", PageSize: 2})
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	if len(res) == 0 || res[0].Path != "/api-reference/rate-limits" || res[0].Title != "Rate limits" || res[0].Content == "" || len(res) > 2 {
		t.Errorf("search results = %+v", res)
	}
	pg, err := e.a.Page(ctx, res[0].Path)
	if err != nil || pg.Path != res[0].Path || !strings.HasPrefix(pg.Content, "The API allows 100 requests") {
		t.Errorf("Page = %+v, %v", pg, err)
	}
	_, err = e.a.Page(ctx, "/nowhere")
	var ae *docsapi.APIError
	if !errors.Is(err, docsapi.ErrNotFound) || !errors.As(err, &ae) || ae.Message != "page not found" {
		t.Errorf("Page of an unknown path: %v, want 404 with the {message} text", err)
	}
	// Reads are retried like GETs, a question never.
	e.srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointSearch, Status: 503, Times: 1})
	if _, err := e.a.Search(ctx, docsapi.SearchParams{Query: "webhooks"}); err != nil {
		t.Errorf("Search after a 503: %v", err)
	}
	for _, p := range []docsapi.SearchParams{{}, {Query: "x", PageSize: 51}, {Query: "x", ScoreThreshold: new(1.5)}} {
		var ve *docsapi.ValidationError
		if _, err := e.a.Search(ctx, p); !errors.As(err, &ve) {
			t.Errorf("Search(%+v) = %v, want a ValidationError", p, err)
		}
	}
}

func TestAskValidation(t *testing.T) {
	t.Parallel()
	e := newAskEnv(t, nil)
	withThread := docsapi.Question("q")
	withThread.Thread = docsapi.Thread{Key: "tk_x"}
	longPath := docsapi.Question("q")
	longPath.CurrentPath = "/" + strings.Repeat("a", docsapi.MaxCurrentPath)
	negative := docsapi.Question("q")
	negative.RetrievalPageSize = -1
	for name, req := range map[string]docsapi.AskRequest{
		"no messages":      {},
		"blank question":   docsapi.Question("  "),
		"ends with answer": {Messages: []docsapi.UIMessage{docsapi.UserText("", "q"), docsapi.AssistantText("", "a")}},
		"bad role":         {Messages: []docsapi.UIMessage{{Role: "robot", Parts: []docsapi.TextPart{{Text: "q"}}}}},
		"key without id":   withThread,
		"long path":        longPath,
		"negative size":    negative,
	} {
		var ve *docsapi.ValidationError
		if _, err := e.a.Ask(context.Background(), req); !errors.As(err, &ve) {
			t.Errorf("%s: error %v, want a ValidationError", name, err)
		}
	}
	if n := e.srv.Count(docsapitest.EndpointAssistant); n != 0 {
		t.Errorf("%d requests sent for invalid questions", n)
	}
}

func TestNewAssistant(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		key, domain string
		opts        []docsapi.Option
		ok          bool
	}{
		"assistant key":     {key: "mint_dsc_0123456789abcdef", domain: "acme", ok: true},
		"unknown key form":  {key: "sk-0123456789", domain: "acme", ok: true},
		"admin key":         {key: "mint_0123456789abcdef", domain: "acme"},
		"index key":         {key: "mint_us_0123456789abcdef", domain: "acme"},
		"empty domain":      {key: "mint_dsc_0123456789abcdef", domain: " "},
		"bad discovery url": {key: "mint_dsc_0123456789abcdef", domain: "acme", opts: []docsapi.Option{docsapi.WithDiscoveryURL("ftp://x")}},
	} {
		a, err := docsapi.NewAssistant(tc.key, tc.domain, tc.opts...)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v, want ok %v", name, err, tc.ok)
		}
		if err != nil && strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s: error shows the key: %v", name, err)
		}
		if a != nil && (strings.Contains(a.String(), tc.key) || strings.Contains(a.GoString(), tc.key)) {
			t.Errorf("%s: %s shows the key", name, a)
		}
	}
	// WithBaseURL, meant for the REST API, leaves the discovery URL alone.
	a, err := docsapi.NewAssistant("mint_dsc_0123456789abcdef", "acme", docsapi.WithBaseURL("http://127.0.0.1:9"))
	if err != nil || !strings.Contains(a.String(), docsapi.DefaultDiscoveryURL) {
		t.Errorf("NewAssistant with WithBaseURL = %v, %v", a, err)
	}
}

// TestAskStatusCodes checks the answers a question may get before any
// stream: each is an APIError, retried only on 429.
func TestAskNotRetriedOnceSent(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout, http.StatusRequestTimeout} {
		e := newAskEnv(t, nil)
		e.srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Status: status})
		_, err := e.a.Ask(context.Background(), docsapi.Question("install"))
		if !errors.Is(err, docsapi.ErrOutcomeUnknown) {
			t.Errorf("%d: error %v, want ErrOutcomeUnknown", status, err)
		}
		if n := e.srv.Count(docsapitest.EndpointAssistant); n != 1 {
			t.Errorf("%d: asked %d times", status, n)
		}
	}
}

// TestAskWithFiles: a question's files reach the assistant as file parts
// before its text, each a data: URL of the exact bytes with its media type
// and name; a 413 to a question with files matches ErrFilesRefused (the
// same answer to one without files does not), and files the request could
// not carry are refused before anything is sent.
func TestAskWithFiles(t *testing.T) {
	t.Parallel()
	e := newAskEnv(t, nil)
	ctx := context.Background()
	png := append([]byte("\x89PNG\r\n\x1a\n"), 0, 1, 2, 0xff, '+', '/')
	q := docsapi.Question("Why does this page look wrong?")
	q.Messages[0].Files = []docsapi.FilePart{docsapi.DataFile("image/png", "screen.png", png)}
	a, err := ask(ctx, e.a, q)
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	st, _ := e.srv.Thread(a.Thread.ID)
	if len(st.Files) != 1 || !bytes.Equal(st.Files[0].Data, png) || st.Files[0].MediaType != "image/png" || st.Files[0].Filename != "screen.png" {
		t.Errorf("the assistant received files %+v, want screen.png's bytes", st.Files)
	}
	body := e.srv.Requests()[0].Body
	if i, j := strings.Index(body, `"type":"file"`), strings.Index(body, `"type":"text"`); i < 0 || j < i {
		t.Errorf("the file part does not come before the text: %s", body)
	}
	for name, withFiles := range map[string]bool{"with files": true, "without": false} {
		e.srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Times: 1, Status: http.StatusRequestEntityTooLarge})
		q := docsapi.Question("And this one?")
		if withFiles {
			q.Messages[0].Files = []docsapi.FilePart{docsapi.DataFile("image/gif", "", []byte("GIF89a"))}
		}
		_, err := e.a.Ask(ctx, q)
		var api *docsapi.APIError
		if errors.Is(err, docsapi.ErrFilesRefused) != withFiles || !errors.As(err, &api) || api.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%s: a 413 gave %v", name, err)
		}
	}
	for name, msgs := range map[string][]docsapi.UIMessage{
		"no media type":   {{Role: docsapi.RoleUser, Parts: []docsapi.TextPart{{Text: "q"}}, Files: []docsapi.FilePart{{URL: "data:,x"}}}},
		"http url":        {{Role: docsapi.RoleUser, Parts: []docsapi.TextPart{{Text: "q"}}, Files: []docsapi.FilePart{{MediaType: "image/png", URL: "http://files.example.com/a.png"}}}},
		"assistant files": {{Role: docsapi.RoleAssistant, Parts: []docsapi.TextPart{{Text: "a"}}, Files: []docsapi.FilePart{docsapi.DataFile("image/png", "", png)}}, docsapi.UserText("", "q")},
	} {
		var ve *docsapi.ValidationError
		if _, err := e.a.Ask(ctx, docsapi.AskRequest{Messages: msgs}); !errors.As(err, &ve) {
			t.Errorf("%s: error %v, want a ValidationError", name, err)
		}
	}
	if n := e.srv.Count(docsapitest.EndpointAssistant); n != 3 {
		t.Errorf("%d requests, want 3 (the question, the two 413s)", n)
	}
}
