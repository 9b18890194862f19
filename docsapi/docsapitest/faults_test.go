package docsapitest

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store/redistest"
)

func TestFaultAnswers(t *testing.T) {
	t.Parallel()
	const html = "<html><body><h1>502 Bad Gateway</h1></body></html>"
	for _, tc := range []struct {
		name        string
		fault       Fault
		status      int    // wanted status; 0 = transport error
		contentType string // wanted prefix
		body        string // wanted exact body, if set
		errMsg      string // wanted {"error"} message, if set
		retryAfter  string
		invalidJSON bool
		jobs        int // jobs existing afterwards
	}{
		{name: "status", fault: Fault{Status: http.StatusServiceUnavailable},
			status: 503, contentType: "application/json", errMsg: "service unavailable"},
		{name: "429 with Retry-After", fault: Fault{Status: http.StatusTooManyRequests, RetryAfter: 1500 * time.Millisecond},
			status: 429, contentType: "application/json", errMsg: msgRateLimited, retryAfter: "2"},
		{name: "HTML proxy page", fault: Fault{Status: http.StatusBadGateway, Body: html},
			status: 502, contentType: "text/html", body: html},
		{name: "raw body with success status", fault: Fault{Body: `{"id":"job_x","status":"active","extra":1}`},
			status: 201, contentType: "application/json", body: `{"id":"job_x","status":"active","extra":1}`},
		{name: "empty error page", fault: Fault{Status: http.StatusInternalServerError, Body: " "},
			status: 500, body: " "},
		{name: "malformed", fault: Fault{Malformed: true},
			status: 201, contentType: "application/json", invalidJSON: true},
		{name: "malformed with status", fault: Fault{Malformed: true, Status: http.StatusOK},
			status: 200, contentType: "application/json", invalidJSON: true},
		{name: "close connection", fault: Fault{CloseConn: true}},
		{name: "status after act", fault: Fault{Status: http.StatusGatewayTimeout, AfterAct: true},
			status: 504, contentType: "application/json", errMsg: "gateway timeout", jobs: 1},
		{name: "malformed after act", fault: Fault{Malformed: true, AfterAct: true},
			status: 201, contentType: "application/json", invalidJSON: true, jobs: 1},
		{name: "close after act", fault: Fault{CloseConn: true, AfterAct: true}, jobs: 1},
		{name: "short latency only", fault: Fault{Latency: time.Millisecond},
			status: 201, contentType: "application/json", jobs: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t)
			tc.fault.Endpoint = EndpointCreate
			srv.AddFault(tc.fault)
			r, err := send(t, context.Background(), http.MethodPost, srv.URL+jobsPath(srv), "Bearer "+srv.Key, promptBody("x"))
			if tc.status == 0 {
				if err == nil {
					t.Fatalf("got status %d, want a transport error", r.status)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if r.status != tc.status {
					t.Errorf("status %d, want %d", r.status, tc.status)
				}
				if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, tc.contentType) {
					t.Errorf("Content-Type %q, want %q", ct, tc.contentType)
				}
				if tc.body != "" && string(r.body) != tc.body {
					t.Errorf("body %q, want %q", r.body, tc.body)
				}
				if tc.errMsg != "" {
					if e := mustError(t, r, tc.status); e.Error != tc.errMsg {
						t.Errorf("error %q, want %q", e.Error, tc.errMsg)
					}
				}
				if got := r.header.Get("Retry-After"); got != tc.retryAfter {
					t.Errorf("Retry-After %q, want %q", got, tc.retryAfter)
				}
				if tc.invalidJSON && (json.Valid(r.body) || len(r.body) == 0) {
					t.Errorf("body %q is valid JSON, want malformed", r.body)
				}
			}
			srv.Close() // waits for the handler, so the work is done or not
			if got := len(srv.Jobs()); got != tc.jobs {
				t.Errorf("%d jobs, want %d", got, tc.jobs)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].Status != tc.status {
				t.Errorf("recorded %+v, want one request with status %d", reqs, tc.status)
			}
		})
	}
}

func TestFaultMalformedAfterActIsRealBodyCut(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	srv.AddFault(Fault{Endpoint: EndpointCreate, Malformed: true, AfterAct: true, Times: 1})
	r := do(t, srv, http.MethodPost, jobsPath(srv), promptBody("x"))
	jobs := srv.Jobs()
	if len(jobs) != 1 {
		t.Fatalf("%d jobs, want 1", len(jobs))
	}
	full, _ := json.Marshal(jobs[0])
	if len(r.body) == 0 || !strings.HasPrefix(string(full), string(r.body)) || len(r.body) >= len(full) {
		t.Errorf("body %q is not a cut of %q", r.body, full)
	}
}

func TestFaultLatency(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		afterAct bool
		jobs     int
	}{
		{"client gives up before the work", false, 0},
		{"client gives up after the work", true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t)
			srv.AddFault(Fault{Endpoint: EndpointCreate, Latency: time.Hour, AfterAct: tc.afterAct})
			// The client gives up only once the server holds the request (and,
			// after the work, once the job exists): a deadline on the request
			// could expire before it ever reached the server.
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			errc := make(chan error, 1)
			go func() {
				_, err := send(t, ctx, http.MethodPost, srv.URL+jobsPath(srv), "Bearer "+srv.Key, promptBody("x"))
				errc <- err
			}()
			redistest.Until(t, "the request to arrive", func() bool { return srv.Count(EndpointCreate) == 1 })
			if tc.afterAct {
				redistest.Until(t, "the job to be created", func() bool { return len(srv.Jobs()) == 1 })
			}
			cancel()
			if err := <-errc; err == nil {
				t.Fatal("request succeeded, want it cancelled")
			}
			srv.Close()
			if got := len(srv.Jobs()); got != tc.jobs {
				t.Errorf("%d jobs, want %d", got, tc.jobs)
			}
			if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Status != 0 {
				t.Errorf("recorded %+v, want one unanswered request", reqs)
			}
		})
	}
}

func TestCloseEndsLatency(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	srv.AddFault(Fault{Latency: time.Hour})
	errc := make(chan error, 1)
	go func() {
		_, err := send(t, context.Background(), http.MethodGet, srv.URL+visitorsPath(srv), "Bearer "+srv.Key, "")
		errc <- err
	}()
	// Wait for the request to arrive, then close under it.
	redistest.Until(t, "the request to arrive", func() bool { return srv.Count(EndpointVisitors) > 0 })
	srv.Close()
	if err := <-errc; err == nil {
		t.Error("request succeeded, want an error after Close")
	}
}

func TestFaultMatching(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	job := createJob(t, srv, "x")
	status := func(e Endpoint) int {
		t.Helper()
		var r reply
		switch e {
		case EndpointCreate:
			r = do(t, srv, http.MethodPost, jobsPath(srv), promptBody("x"))
		case EndpointMessage:
			r = do(t, srv, http.MethodPost, messagePath(srv, job.ID), promptBody("x"))
		case EndpointGet:
			r = do(t, srv, http.MethodGet, jobPath(srv, job.ID), "")
		case EndpointVisitors:
			r = do(t, srv, http.MethodGet, visitorsPath(srv), "")
		default:
			r = do(t, srv, http.MethodGet, "/nowhere", "")
		}
		return r.status
	}
	type step struct {
		e    Endpoint
		want int
	}
	for _, tc := range []struct {
		name   string
		faults []Fault
		steps  []step
	}{
		{"times", []Fault{{Status: 500, Times: 2}},
			[]step{{EndpointGet, 500}, {EndpointVisitors, 500}, {EndpointGet, 200}}},
		{"endpoint filter", []Fault{{Endpoint: EndpointGet, Status: 503}},
			[]step{{EndpointCreate, 201}, {EndpointMessage, 200}, {EndpointVisitors, 200}, {EndpointGet, 503}, {EndpointGet, 503}}},
		{"unknown endpoint", []Fault{{Endpoint: EndpointUnknown, Status: 418}},
			[]step{{EndpointUnknown, 418}, {EndpointGet, 200}}},
		{"first added wins, then the next", []Fault{{Status: 500, Times: 1}, {Status: 502, Times: 1}},
			[]step{{EndpointGet, 500}, {EndpointGet, 502}, {EndpointGet, 200}}},
		{"non-matching fault is skipped", []Fault{{Endpoint: EndpointCreate, Status: 500}, {Endpoint: EndpointGet, Status: 502, Times: 1}},
			[]step{{EndpointGet, 502}, {EndpointCreate, 500}, {EndpointGet, 200}}},
		{"latency only passes through", []Fault{{Latency: time.Millisecond, Times: 1}, {Status: 500, Times: 1}},
			[]step{{EndpointGet, 200}, {EndpointGet, 500}}},
		{"until cleared", []Fault{{Status: 500}},
			[]step{{EndpointGet, 500}, {EndpointGet, 500}, {EndpointGet, 500}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.ClearFaults()
			for _, f := range tc.faults {
				srv.AddFault(f)
			}
			for i, st := range tc.steps {
				if got := status(st.e); got != st.want {
					t.Errorf("step %d (%s): status %d, want %d", i, st.e, got, st.want)
				}
			}
		})
	}
	srv.ClearFaults()
	if got := status(EndpointGet); got != http.StatusOK {
		t.Errorf("after ClearFaults: %d", got)
	}
}

func TestFaultHold(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	hold := make(chan struct{})
	srv.AddFault(Fault{Endpoint: EndpointCreate, Hold: hold, Times: 1})
	errc := make(chan error, 1)
	go func() {
		_, err := send(t, context.Background(), http.MethodPost, srv.URL+jobsPath(srv), "Bearer "+srv.Key, promptBody("x"))
		errc <- err
	}()
	redistest.Until(t, "the request to arrive", func() bool { return srv.Count(EndpointCreate) == 1 })
	if n := len(srv.Jobs()); n != 0 {
		t.Fatalf("%d jobs created while the request was held, want 0", n)
	}
	close(hold)
	if err := <-errc; err != nil {
		t.Fatalf("held request: %v", err)
	}
	if n := len(srv.Jobs()); n != 1 {
		t.Errorf("%d jobs once the request was let through, want 1", n)
	}
}
