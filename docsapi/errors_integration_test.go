package docsapi_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store/redistest"
)

const htmlPage = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>Bad Gateway</h1><p>The upstream server sent an invalid response.</p></body></html>\n"

// errCase is one call against the test server and what must come of it.
type errCase struct {
	name       string
	op         docsapitest.Endpoint // which client call to make
	faults     []docsapitest.Fault
	srvOpts    []docsapitest.Option
	clientOpts []docsapi.Option
	key        string // client key instead of the server's
	project    string // client project instead of the server's
	jobID      string // job to get or message; "" uses a job created beforehand
	setup      func(t *testing.T, e *env)
	ctxTimeout time.Duration

	wantOK       bool
	wantStatus   int // status of the *APIError in the chain; 0 for none
	wantIs       []error
	wantNotIs    []error
	wantText     []string // substrings of err.Error()
	wantNotText  []string
	retryAfter   bool          // the *APIError carries a RetryAfter
	wantRequests int           // requests to op's endpoint
	minGap       time.Duration // least time from the first request to op's endpoint to the second
	wantJobs     int           // jobs on the server afterwards, for op create; -1 to skip
	check        func(t *testing.T, e *env, jobID string)
}

// slowAttempt is the time limit of the cases that wait on a slow answer:
// ample for a loaded machine to deliver a request, short enough to keep the
// test quick.
const slowAttempt = 2 * time.Second

// TestErrorPaths runs every call against the test server through its error
// paths: status codes, retries, faults, timeouts and outcome-unknown POSTs.
func TestErrorPaths(t *testing.T) {
	t.Parallel()
	rateLimited := []error{docsapi.ErrRateLimited}
	unknown := []error{docsapi.ErrOutcomeUnknown}
	tests := []errCase{
		// 4xx answers
		{name: "400 with message on create", op: docsapitest.EndpointCreate,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, Status: 400, Body: `{"error":"prompt is too long"}`}},
			wantStatus: 400, wantIs: []error{docsapi.ErrInvalidRequest}, wantNotIs: unknown,
			wantText: []string{"docsapi: POST /v2/agent/", "/job: 400 Bad Request: prompt is too long"}, wantRequests: 1, wantJobs: 0},
		{name: "400 with details on visitors", op: docsapitest.EndpointVisitors,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, Status: 400,
				Body: `{"error":"Invalid query parameters","details":[{"message":"dateFrom: invalid date"},{"message":"limit: too large"}]}`}},
			wantStatus: 400, wantIs: []error{docsapi.ErrInvalidRequest},
			wantText: []string{"400 Bad Request: Invalid query parameters (dateFrom: invalid date; limit: too large)"}, wantRequests: 1},
		{name: "422 on message", op: docsapitest.EndpointMessage,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointMessage, Status: 422}},
			wantStatus: 422, wantIs: []error{docsapi.ErrInvalidRequest}, wantNotIs: unknown, wantRequests: 1},
		{name: "401 wrong key on get", op: docsapitest.EndpointGet, key: "mint_wrong_key_0123456789abcdef",
			wantStatus: 401, wantIs: []error{docsapi.ErrUnauthorized}, wantText: []string{"401 Unauthorized: missing or invalid API key"}, wantRequests: 1},
		{name: "401 wrong key on create", op: docsapitest.EndpointCreate, key: "mint_wrong_key_0123456789abcdef",
			wantStatus: 401, wantIs: []error{docsapi.ErrUnauthorized}, wantNotIs: unknown, wantRequests: 1, wantJobs: 0},
		{name: "401 wrong key on visitors", op: docsapitest.EndpointVisitors, key: "mint_wrong_key_0123456789abcdef",
			wantStatus: 401, wantIs: []error{docsapi.ErrUnauthorized}, wantRequests: 1},
		{name: "403 on visitors", op: docsapitest.EndpointVisitors,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, Status: 403}},
			wantStatus: 403, wantIs: []error{docsapi.ErrUnauthorized}, wantRequests: 1},
		{name: "404 unknown job on get", op: docsapitest.EndpointGet, jobID: "job_ffffffffffffffff",
			wantStatus: 404, wantIs: []error{docsapi.ErrNotFound}, wantNotIs: []error{docsapi.ErrUnauthorized},
			wantText: []string{"GET /v2/agent/", "/job/job_ffffffffffffffff: 404 Not Found: job not found"}, wantRequests: 1},
		{name: "404 unknown job on message", op: docsapitest.EndpointMessage, jobID: "job_ffffffffffffffff",
			wantStatus: 404, wantIs: []error{docsapi.ErrNotFound}, wantNotIs: unknown, wantRequests: 1},
		{name: "404 wrong project", op: docsapitest.EndpointGet, project: "someone-else", jobID: "job_1",
			wantStatus: 404, wantIs: []error{docsapi.ErrNotFound}, wantText: []string{"/v2/agent/someone-else/job/job_1: 404"}, wantRequests: 1},

		// 429
		{name: "429 short Retry-After on get is retried", op: docsapitest.EndpointGet,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Status: 429, RetryAfter: time.Second, Times: 1}},
			wantOK: true, wantRequests: 2, minGap: time.Second},
		{name: "429 short Retry-After on visitors is retried", op: docsapitest.EndpointVisitors,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, Status: 429, RetryAfter: time.Second, Times: 1}},
			wantOK: true, wantRequests: 2, minGap: time.Second},
		{name: "429 long Retry-After on get is returned", op: docsapitest.EndpointGet,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Status: 429, RetryAfter: time.Minute}},
			wantStatus: 429, wantIs: rateLimited, retryAfter: true,
			wantText: []string{"429 Too Many Requests: rate limit exceeded (retry after 1m0s)"}, wantRequests: 1},
		{name: "429 Retry-After beyond the caller's deadline is returned", op: docsapitest.EndpointGet, ctxTimeout: time.Second,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Status: 429, RetryAfter: 2 * time.Second}},
			wantStatus: 429, wantIs: rateLimited, wantNotIs: []error{context.DeadlineExceeded}, retryAfter: true, wantRequests: 1},
		{name: "429 without Retry-After is retried until attempts run out", op: docsapitest.EndpointGet,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Status: 429}},
			wantStatus: 429, wantIs: rateLimited, wantRequests: 3},
		{name: "429 on create is retried", op: docsapitest.EndpointCreate,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, Status: 429, RetryAfter: time.Second, Times: 1}},
			wantOK: true, wantRequests: 2, wantJobs: 1, minGap: time.Second},
		{name: "429 on message is retried and delivered once", op: docsapitest.EndpointMessage,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointMessage, Status: 429, Times: 2}},
			wantOK: true, wantRequests: 3,
			check: func(t *testing.T, e *env, id string) {
				if p := e.srv.Prompts(id); len(p) != 2 {
					t.Errorf("server prompts %q, want the create prompt and one follow-up", p)
				}
			}},
		{name: "429 long Retry-After on create is returned", op: docsapitest.EndpointCreate,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, Status: 429, RetryAfter: time.Minute}},
			wantStatus: 429, wantIs: rateLimited, wantNotIs: unknown, retryAfter: true, wantRequests: 1, wantJobs: 0},
		{name: "hourly create limit reached", op: docsapitest.EndpointCreate,
			srvOpts:    []docsapitest.Option{docsapitest.WithLimits(docsapitest.Limits{Create: 1})},
			setup:      func(t *testing.T, e *env) { mustCreate(t, e) },
			wantStatus: 429, wantIs: rateLimited, wantNotIs: unknown, retryAfter: true, wantRequests: 1, wantJobs: 0},
		{name: "hourly analytics limit reached", op: docsapitest.EndpointVisitors,
			srvOpts: []docsapitest.Option{docsapitest.WithLimits(docsapitest.Limits{Visitors: 1})},
			setup: func(t *testing.T, e *env) {
				if _, err := e.c.Visitors(context.Background(), docsapi.VisitorsParams{}); err != nil {
					t.Fatal(err)
				}
			},
			wantStatus: 429, wantIs: rateLimited, retryAfter: true, wantRequests: 1},

		// 5xx and 408
		{name: "500 on get is retried", op: docsapitest.EndpointGet,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Status: 500, Times: 2}},
			wantOK: true, wantRequests: 3},
		{name: "503 on get every time", op: docsapitest.EndpointGet,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Status: 503}},
			wantStatus: 503, wantText: []string{"503 Service Unavailable"}, wantRequests: 3},
		{name: "408 on visitors is retried", op: docsapitest.EndpointVisitors,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, Status: 408, Times: 1}},
			wantOK: true, wantRequests: 2},
		{name: "500 on visitors is retried", op: docsapitest.EndpointVisitors,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, Status: 500, Times: 1}},
			wantOK: true, wantRequests: 2},
		{name: "500 after the job was created is not retried", op: docsapitest.EndpointCreate,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, Status: 500, AfterAct: true}},
			wantStatus: 500, wantIs: unknown, wantText: []string{"500 Internal Server Error", "outcome unknown"}, wantRequests: 1, wantJobs: 1},
		{name: "500 before creating is not retried either", op: docsapitest.EndpointCreate,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, Status: 500}},
			wantStatus: 500, wantIs: unknown, wantRequests: 1, wantJobs: 0},
		{name: "502 after the message was delivered is not retried", op: docsapitest.EndpointMessage,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointMessage, Status: 502, AfterAct: true}},
			wantStatus: 502, wantIs: unknown, wantRequests: 1,
			check: func(t *testing.T, e *env, id string) {
				if p := e.srv.Prompts(id); len(p) != 2 {
					t.Errorf("server prompts %q, want the follow-up delivered once", p)
				}
			}},
		{name: "408 on create is not retried", op: docsapitest.EndpointCreate,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, Status: 408}},
			wantStatus: 408, wantIs: unknown, wantRequests: 1, wantJobs: 0},

		// bodies that are not the API's JSON
		{name: "HTML 502 on get", op: docsapitest.EndpointGet,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Status: 502, Body: htmlPage}},
			wantStatus: 502, wantText: []string{"/job/", ": 502 Bad Gateway"}, wantNotText: []string{"<", "html", "upstream"}, wantRequests: 3},
		{name: "HTML 502 on create", op: docsapitest.EndpointCreate,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, Status: 502, Body: htmlPage}},
			wantStatus: 502, wantIs: unknown, wantNotText: []string{"<", "html"}, wantRequests: 1, wantJobs: 0},
		{name: "HTML 401 from a proxy", op: docsapitest.EndpointVisitors,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, Status: 401, Body: "<html><body>Sign in</body></html>"}},
			wantStatus: 401, wantIs: []error{docsapi.ErrUnauthorized}, wantNotText: []string{"<", "Sign in"}, wantRequests: 1},
		{name: "plain text 503", op: docsapitest.EndpointVisitors,
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, Status: 503, Body: "upstream connect error\n  or disconnect/reset before headers\n"}},
			wantStatus: 503, wantText: []string{"503 Service Unavailable: upstream connect error or disconnect/reset before headers"}, wantRequests: 3},
		{name: "malformed 200 on get is not retried", op: docsapitest.EndpointGet,
			faults:    []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Malformed: true}},
			wantIs:    []error{docsapi.ErrMalformedResponse},
			wantNotIs: unknown, wantText: []string{"malformed response (200 OK)"}, wantRequests: 1},
		{name: "malformed 201 after create", op: docsapitest.EndpointCreate,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, Malformed: true, AfterAct: true}},
			wantIs: []error{docsapi.ErrMalformedResponse, docsapi.ErrOutcomeUnknown}, wantText: []string{"malformed response (201 Created)"},
			wantRequests: 1, wantJobs: 1},
		{name: "malformed 200 on visitors", op: docsapitest.EndpointVisitors,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, Malformed: true}},
			wantIs: []error{docsapi.ErrMalformedResponse}, wantText: []string{"GET /v1/analytics/", "malformed response (200 OK)"}, wantRequests: 1},
		{name: "2xx HTML page on get", op: docsapitest.EndpointGet,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Body: htmlPage}},
			wantIs: []error{docsapi.ErrMalformedResponse}, wantText: []string{"malformed response (200 OK)"}, wantNotText: []string{"Bad Gateway"}, wantRequests: 1},

		// connections. net/http itself resends an idempotent request once when
		// a reused keep-alive connection is closed, so these reads use fresh
		// connections to count only the client's own attempts.
		{name: "closed connection on get is retried", op: docsapitest.EndpointGet, clientOpts: noKeepAlive(),
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, CloseConn: true, Times: 1}},
			wantOK: true, wantRequests: 2},
		{name: "closed connection on get every time", op: docsapitest.EndpointGet, clientOpts: noKeepAlive(),
			faults:   []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, CloseConn: true}},
			wantText: []string{"docsapi: GET /v2/agent/"}, wantNotIs: unknown, wantRequests: 3},
		{name: "closed connection on visitors every time", op: docsapitest.EndpointVisitors,
			faults:   []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, CloseConn: true}},
			wantText: []string{"docsapi: GET /v1/analytics/"}, wantRequests: 3},
		{name: "closed connection on create", op: docsapitest.EndpointCreate,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, CloseConn: true}},
			wantIs: unknown, wantText: []string{"docsapi: POST /v2/agent/"}, wantRequests: 1, wantJobs: 0},
		{name: "closed connection after create", op: docsapitest.EndpointCreate,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, CloseConn: true, AfterAct: true}},
			wantIs: unknown, wantRequests: 1, wantJobs: 1},
		{name: "closed connection after message", op: docsapitest.EndpointMessage,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointMessage, CloseConn: true, AfterAct: true}},
			wantIs: unknown, wantRequests: 1},
		// Slow answers. The delay is unbounded (it ends when the client hangs
		// up or the server closes) and the time limits are long enough that a
		// loaded machine still gets a request to the server before they expire.
		{name: "attempt timeout on create", op: docsapitest.EndpointCreate,
			clientOpts: []docsapi.Option{docsapi.WithAttemptTimeout(slowAttempt)},
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, Latency: time.Hour}},
			wantIs:     []error{docsapi.ErrOutcomeUnknown, context.DeadlineExceeded}, wantText: []string{"timed out"}, wantRequests: 1, wantJobs: 0},
		{name: "attempt timeout after create", op: docsapitest.EndpointCreate,
			clientOpts: []docsapi.Option{docsapi.WithAttemptTimeout(slowAttempt)},
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointCreate, Latency: time.Hour, Status: 201, AfterAct: true}},
			wantIs:     unknown, wantRequests: 1, wantJobs: 1},
		{name: "attempt timeout on get is retried", op: docsapitest.EndpointGet,
			clientOpts: []docsapi.Option{docsapi.WithAttemptTimeout(slowAttempt)},
			faults:     []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Latency: time.Hour, Times: 1}},
			wantOK:     true, wantRequests: 2},
		{name: "caller deadline during a slow get", op: docsapitest.EndpointGet, ctxTimeout: slowAttempt,
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Latency: time.Hour}},
			wantIs: []error{context.DeadlineExceeded}, wantNotIs: unknown, wantRequests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			runErrCase(t, tt)
		})
	}
}

func noKeepAlive() []docsapi.Option {
	return []docsapi.Option{docsapi.WithHTTPClient(&http.Client{Transport: &http.Transport{DisableKeepAlives: true}})}
}

func mustCreate(t *testing.T, e *env) *docsapi.Job {
	t.Helper()
	j, err := e.c.CreateJob(context.Background(), "Document the new endpoint")
	if err != nil {
		t.Fatalf("CreateJob: %v", err)
	}
	return j
}

func runErrCase(t *testing.T, tt errCase) {
	e := newEnv(t, tt.srvOpts, tt.clientOpts...)
	jobID := tt.jobID
	if jobID == "" && (tt.op == docsapitest.EndpointGet || tt.op == docsapitest.EndpointMessage) {
		jobID = mustCreate(t, e).ID
	}
	if tt.setup != nil {
		tt.setup(t, e)
	}
	c := e.c
	key := e.srv.Key
	if tt.key != "" || tt.project != "" {
		key, project := e.srv.Key, e.srv.ProjectID
		if tt.key != "" {
			key = tt.key
		}
		if tt.project != "" {
			project = tt.project
		}
		c, _ = newClient(t, e.srv.URL, key, project, tt.clientOpts...)
	}
	jobsBefore := len(e.srv.Jobs())
	e.srv.ResetRequests()
	for _, f := range tt.faults {
		e.srv.AddFault(f)
	}

	ctx := context.Background()
	if tt.ctxTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, tt.ctxTimeout)
		defer cancel()
	}
	var err error
	switch tt.op {
	case docsapitest.EndpointCreate:
		_, err = c.CreateJob(ctx, "Write a page about webhooks")
	case docsapitest.EndpointMessage:
		_, err = c.SendMessage(ctx, jobID, "Also add an example")
	case docsapitest.EndpointGet:
		_, err = c.GetJob(ctx, jobID)
	case docsapitest.EndpointVisitors:
		_, err = c.Visitors(ctx, docsapi.VisitorsParams{Limit: 5})
	default:
		t.Fatalf("unknown op %q", tt.op)
	}

	assertNoKey(t, e.srv.Key, err)
	assertNoKey(t, key, err)
	if tt.wantOK {
		if err != nil {
			t.Fatalf("call failed: %v", err)
		}
	} else if err == nil {
		t.Fatalf("call succeeded, want an error")
	}
	if err != nil {
		var apiErr *docsapi.APIError
		isAPI := errors.As(err, &apiErr)
		switch {
		case tt.wantStatus == 0 && isAPI:
			t.Errorf("error %v carries an APIError, want none", err)
		case tt.wantStatus != 0 && !isAPI:
			t.Errorf("error %v (%T) carries no APIError, want status %d", err, err, tt.wantStatus)
		case isAPI:
			if apiErr.StatusCode != tt.wantStatus {
				t.Errorf("StatusCode %d, want %d", apiErr.StatusCode, tt.wantStatus)
			}
			if (apiErr.RetryAfter > 0) != tt.retryAfter {
				t.Errorf("RetryAfter %v, want set: %v", apiErr.RetryAfter, tt.retryAfter)
			}
			if apiErr.Method == "" || !strings.HasPrefix(apiErr.Path, "/v") || strings.ContainsAny(apiErr.Path, "?") {
				t.Errorf("Method %q Path %q: want the method and a path without query", apiErr.Method, apiErr.Path)
			}
		}
		for _, target := range tt.wantIs {
			if !errors.Is(err, target) {
				t.Errorf("errors.Is(%v, %v) = false, want true", err, target)
			}
		}
		for _, target := range tt.wantNotIs {
			if errors.Is(err, target) {
				t.Errorf("errors.Is(%v, %v) = true, want false", err, target)
			}
		}
		for _, s := range tt.wantText {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q does not contain %q", err, s)
			}
		}
		for _, s := range tt.wantNotText {
			if strings.Contains(err.Error(), s) {
				t.Errorf("error %q contains %q", err, s)
			}
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("error %q spans lines", err)
		}
	}
	// A client that gave up on a slow answer may return before the server
	// has recorded the request or done the work. Once the client has
	// returned it sends nothing more, so waiting for the expected numbers
	// is a barrier, and the exact checks below still catch any extra.
	redistest.Until(t, fmt.Sprintf("the server to record %d %s requests", tt.wantRequests, tt.op),
		func() bool { return e.srv.Count(tt.op) >= tt.wantRequests })
	if tt.op == docsapitest.EndpointCreate && tt.wantJobs > 0 {
		redistest.Until(t, fmt.Sprintf("the server to create %d jobs", tt.wantJobs),
			func() bool { return len(e.srv.Jobs())-jobsBefore >= tt.wantJobs })
	}
	if got := e.srv.Count(tt.op); got != tt.wantRequests {
		t.Errorf("server saw %d %s requests, want %d", got, tt.op, tt.wantRequests)
	}
	if tt.minGap > 0 {
		// The server stamps each request on arrival, and the client sleeps
		// only after the first answer came back: a lower bound, not a race.
		var at []time.Time
		for _, r := range e.srv.Requests() {
			if r.Endpoint == tt.op {
				at = append(at, r.At)
			}
		}
		if len(at) < 2 || at[1].Sub(at[0]) < tt.minGap {
			t.Errorf("requests to %s at %v: want the second at least %s after the first", tt.op, at, tt.minGap)
		}
	}
	if tt.op == docsapitest.EndpointCreate && tt.wantJobs >= 0 {
		if got := len(e.srv.Jobs()) - jobsBefore; got != tt.wantJobs {
			t.Errorf("server created %d jobs, want %d", got, tt.wantJobs)
		}
	}
	if tt.check != nil {
		tt.check(t, e, jobID)
	}
}

// TestConnectionRefused checks that a request that cannot connect at all is
// retried, POST included, because nothing can have reached a server.
func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	tests := []struct {
		name string
		call func(c *docsapi.Client) error
	}{
		{"create", func(c *docsapi.Client) error { _, err := c.CreateJob(context.Background(), "x"); return err }},
		{"message", func(c *docsapi.Client) error { _, err := c.SendMessage(context.Background(), "job_1", "x"); return err }},
		{"get", func(c *docsapi.Client) error { _, err := c.GetJob(context.Background(), "job_1"); return err }},
		{"visitors", func(c *docsapi.Client) error {
			_, err := allVisitors(context.Background(), c, docsapi.VisitorsParams{})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			key := testKey(t)
			c, logs := newClient(t, "http://"+addr, key, "p1")
			err := tt.call(c)
			assertNoKey(t, key, err)
			var op *net.OpError
			if !errors.As(err, &op) || op.Op != "dial" {
				t.Fatalf("error %v: want a dial error", err)
			}
			if errors.Is(err, docsapi.ErrOutcomeUnknown) {
				t.Errorf("error %v wraps ErrOutcomeUnknown, but nothing was sent", err)
			}
			if te, ok := errors.AsType[*docsapi.TransportError](err); !ok || te.Path == "" || strings.Contains(err.Error(), "http://") {
				t.Errorf("error %v: want a *TransportError naming the request, not the base URL", err)
			}
			if n := strings.Count(logs.String(), "docsapi retry"); n != testPolicy().MaxAttempts-1 {
				t.Errorf("logged %d retries, want %d:\n%s", n, testPolicy().MaxAttempts-1, logs)
			}
		})
	}
}

// TestCancelledContextSendsNothing checks that a call with a finished context
// sends no request.
func TestCancelledContextSendsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := []func() error{
		func() error { _, err := e.c.CreateJob(ctx, "x"); return err },
		func() error { _, err := e.c.SendMessage(ctx, "job_1", "x"); return err },
		func() error { _, err := e.c.GetJob(ctx, "job_1"); return err },
		func() error { _, err := allVisitors(ctx, e.c, docsapi.VisitorsParams{}); return err },
	}
	for i, call := range calls {
		if err := call(); !errors.Is(err, context.Canceled) || errors.Is(err, docsapi.ErrOutcomeUnknown) {
			t.Errorf("call %d: error %v, want context.Canceled only", i, err)
		}
	}
	if n := len(e.srv.Requests()); n != 0 {
		t.Errorf("server saw %d requests, want 0", n)
	}
}
