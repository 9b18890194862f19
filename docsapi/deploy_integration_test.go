package docsapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// follow polls a deployment until it is done, with a bound on the polls.
func follow(t *testing.T, c *docsapi.Client, id string) (*docsapi.DeployStatus, []docsapi.DeployState) {
	t.Helper()
	var seen []docsapi.DeployState
	for range 10 {
		st, err := c.DeployStatus(t.Context(), id)
		if err != nil {
			t.Fatalf("DeployStatus: %v", err)
		}
		seen = append(seen, st.Status)
		if st.Status.Done() {
			return st, seen
		}
	}
	t.Fatalf("deployment %s not done after 10 polls: %v", id, seen)
	return nil, nil
}

func TestDeployAgainstServer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		setup   func(srv *docsapitest.Server)
		start   func(c *docsapi.Client) (*docsapi.Deployment, error)
		want    docsapi.DeployState
		ref     string
		preview string
	}{
		{"deploy", nil, func(c *docsapi.Client) (*docsapi.Deployment, error) { return c.Deploy(context.Background()) },
			docsapi.DeploySuccess, "main", ""},
		{"failing deploy", func(srv *docsapitest.Server) { srv.FailNextDeploy() },
			func(c *docsapi.Client) (*docsapi.Deployment, error) { return c.Deploy(context.Background()) },
			docsapi.DeployFailure, "main", ""},
		{"preview", nil, func(c *docsapi.Client) (*docsapi.Deployment, error) {
			return c.Preview(context.Background(), "feature/webhooks")
		}, docsapi.DeploySuccess, "feature/webhooks", "https://acme-feature-webhooks.mintlify.app"},
		{"failing preview", nil, func(c *docsapi.Client) (*docsapi.Deployment, error) {
			return c.Preview(context.Background(), "fix/fail-links")
		}, docsapi.DeployFailure, "fix/fail-links", "https://acme-fix-fail-links.mintlify.app"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, []docsapitest.Option{docsapitest.WithFloatCounts(true)})
			if tt.setup != nil {
				tt.setup(e.srv)
			}
			d, err := tt.start(e.c)
			if err != nil {
				t.Fatalf("start: %v", err)
			}
			if d.StatusID == "" || d.PreviewURL != tt.preview {
				t.Errorf("Deployment %+v, want previewUrl %q", d, tt.preview)
			}
			st, seen := follow(t, e.c, d.StatusID)
			if want := []docsapi.DeployState{docsapi.DeployQueued, docsapi.DeployInProgress, tt.want}; strings.Join(states(seen), ",") != strings.Join(states(want), ",") {
				t.Errorf("states %v, want %v", seen, want)
			}
			srvSt, ok := e.srv.Deployment(d.StatusID)
			if !ok {
				t.Fatal("server does not know the deployment")
			}
			got, _ := json.Marshal(st)
			want, _ := json.Marshal(srvSt)
			if string(got) != string(want) {
				t.Errorf("client saw\n%s\nserver has\n%s", got, want)
			}
			if st.Commit.Ref != tt.ref || st.Author == nil || st.Author.GitHubUserID != 1000001 || st.CreatedAt.IsZero() || st.EndedAt.IsZero() {
				t.Errorf("status %+v", st)
			}
			if last := st.Logs[len(st.Logs)-1]; (tt.want == docsapi.DeployFailure) != strings.HasPrefix(last, "Error:") {
				t.Errorf("last log line %q", last)
			}
			start := docsapitest.EndpointDeploy
			if tt.preview != "" {
				start = docsapitest.EndpointPreview
			}
			if n := e.srv.Count(start); n != 1 {
				t.Errorf("%d requests to %s, want 1", n, start)
			}
		})
	}
}

func states(s []docsapi.DeployState) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return out
}

func TestDeployErrors(t *testing.T) {
	t.Parallel()
	type op int
	const (
		deploy op = iota
		preview
		status
	)
	endpointOf := map[op]docsapitest.Endpoint{deploy: docsapitest.EndpointDeploy, preview: docsapitest.EndpointPreview, status: docsapitest.EndpointDeployStatus}
	tests := []struct {
		name        string
		op          op
		arg         string // branch or status id; "" uses "docs" or a started deployment
		srvOpts     []docsapitest.Option
		faults      []docsapitest.Fault
		wantOK      bool
		wantStatus  int
		wantIs      []error
		wantNotIs   []error
		retryAfter  time.Duration // RetryAfter of the *APIError, when set
		requests    int           // requests to the operation's endpoint
		deployments int           // deployments on the server afterwards, -1 to skip
	}{
		{name: "deploy 400", op: deploy, faults: []docsapitest.Fault{{Status: 400, Body: `{"error":"no deployment branch"}`}},
			wantStatus: 400, wantIs: []error{docsapi.ErrInvalidRequest}, wantNotIs: []error{docsapi.ErrOutcomeUnknown}, requests: 1},
		{name: "deploy 403 is no preview matter", op: deploy, faults: []docsapitest.Fault{{Status: 403}},
			wantStatus: 403, wantIs: []error{docsapi.ErrUnauthorized}, wantNotIs: []error{docsapi.ErrPreviewsNotAllowed, docsapi.ErrOutcomeUnknown}, requests: 1},
		{name: "deploy 500 is not retried", op: deploy, faults: []docsapitest.Fault{{Status: 500}},
			wantStatus: 500, wantIs: []error{docsapi.ErrOutcomeUnknown}, requests: 1, deployments: 0},
		{name: "deploy 502 after acting", op: deploy, faults: []docsapitest.Fault{{Status: 502, AfterAct: true}},
			wantStatus: 502, wantIs: []error{docsapi.ErrOutcomeUnknown}, requests: 1, deployments: 1},
		{name: "deploy connection dropped", op: deploy, faults: []docsapitest.Fault{{CloseConn: true, AfterAct: true}},
			wantIs: []error{docsapi.ErrOutcomeUnknown}, requests: 1, deployments: 1},
		{name: "deploy answer unreadable", op: deploy, faults: []docsapitest.Fault{{Malformed: true, AfterAct: true}},
			wantIs: []error{docsapi.ErrOutcomeUnknown, docsapi.ErrMalformedResponse}, requests: 1, deployments: 1},
		{name: "deploy answer without id", op: deploy, faults: []docsapitest.Fault{{Body: `{"ok":true}`}},
			wantIs: []error{docsapi.ErrOutcomeUnknown, docsapi.ErrMalformedResponse}, requests: 1},
		{name: "deploy 429 retried", op: deploy, faults: []docsapitest.Fault{{Status: 429, Times: 1}},
			wantOK: true, requests: 2, deployments: 1},
		{name: "deploy 429 with a long Retry-After", op: deploy, faults: []docsapitest.Fault{{Status: 429, RetryAfter: 30 * time.Second}},
			wantStatus: 429, wantIs: []error{docsapi.ErrRateLimited}, wantNotIs: []error{docsapi.ErrOutcomeUnknown}, retryAfter: 30 * time.Second, requests: 1, deployments: 0},
		{name: "deploy over the server's limit", op: deploy, srvOpts: []docsapitest.Option{docsapitest.WithLimits(docsapitest.Limits{Deploy: 1})},
			faults:     nil, // the setup deployment used the one allowed
			wantStatus: 429, wantIs: []error{docsapi.ErrRateLimited}, retryAfter: 10 * time.Second, requests: 1, deployments: 1},
		{name: "preview with previews off", op: preview, srvOpts: []docsapitest.Option{docsapitest.WithPreviews(false)},
			wantStatus: 403, wantIs: []error{docsapi.ErrPreviewsNotAllowed, docsapi.ErrUnauthorized}, wantNotIs: []error{docsapi.ErrOutcomeUnknown}, requests: 1, deployments: 1},
		{name: "preview refused", op: preview, faults: []docsapitest.Fault{{Status: 400, Body: `{"error":"branch not found"}`}},
			wantStatus: 400, wantIs: []error{docsapi.ErrInvalidRequest}, wantNotIs: []error{docsapi.ErrPreviewsNotAllowed}, requests: 1, deployments: 1},
		{name: "preview 503 is not retried", op: preview, faults: []docsapitest.Fault{{Status: 503}},
			wantStatus: 503, wantIs: []error{docsapi.ErrOutcomeUnknown}, requests: 1, deployments: 1},
		{name: "status unknown", op: status, arg: "ffffffffffffffffffffffff",
			wantStatus: 404, wantIs: []error{docsapi.ErrNotFound}, requests: 1, deployments: 1},
		{name: "status 500 retried", op: status, faults: []docsapitest.Fault{{Status: 500, Times: 1}},
			wantOK: true, requests: 2, deployments: 1},
		{name: "status unreadable", op: status, faults: []docsapitest.Fault{{Malformed: true}},
			wantIs: []error{docsapi.ErrMalformedResponse}, wantNotIs: []error{docsapi.ErrOutcomeUnknown}, requests: 1, deployments: 1},
		{name: "status not an object", op: status, faults: []docsapitest.Fault{{Body: `["queued"]`}},
			wantIs: []error{docsapi.ErrMalformedResponse}, requests: 1, deployments: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, tt.srvOpts)
			ctx := context.Background()
			// Every case but the deploy ones starts from one deployment made
			// beforehand; so does the deploy limit case, to use the limit up.
			var setup *docsapi.Deployment
			if tt.op != deploy || strings.Contains(tt.name, "limit") {
				var err error
				if setup, err = e.c.Deploy(ctx); err != nil {
					t.Fatalf("setup Deploy: %v", err)
				}
			}
			e.srv.ResetRequests()
			for _, f := range tt.faults {
				f.Endpoint = endpointOf[tt.op]
				e.srv.AddFault(f)
			}
			var err error
			switch tt.op {
			case deploy:
				_, err = e.c.Deploy(ctx)
			case preview:
				arg := tt.arg
				if arg == "" {
					arg = "docs"
				}
				_, err = e.c.Preview(ctx, arg)
			case status:
				arg := tt.arg
				if arg == "" {
					arg = setup.StatusID
				}
				_, err = e.c.DeployStatus(ctx, arg)
			}
			assertNoKey(t, e.srv.Key, err)
			if tt.wantOK != (err == nil) {
				t.Fatalf("err = %v, want ok %v", err, tt.wantOK)
			}
			var ae *docsapi.APIError
			if errors.As(err, &ae) != (tt.wantStatus != 0) || (ae != nil && ae.StatusCode != tt.wantStatus) {
				t.Errorf("APIError %+v, want status %d", ae, tt.wantStatus)
			}
			if ae != nil && tt.retryAfter != 0 && (ae.RetryAfter <= 0 || ae.RetryAfter > tt.retryAfter) {
				t.Errorf("RetryAfter %s, want up to %s", ae.RetryAfter, tt.retryAfter)
			}
			for _, target := range tt.wantIs {
				if !errors.Is(err, target) {
					t.Errorf("err %v does not match %v", err, target)
				}
			}
			for _, target := range tt.wantNotIs {
				if errors.Is(err, target) {
					t.Errorf("err %v matches %v", err, target)
				}
			}
			if n := e.srv.Count(endpointOf[tt.op]); n != tt.requests {
				t.Errorf("%d requests to %s, want %d", n, endpointOf[tt.op], tt.requests)
			}
			if n := len(e.srv.Deployments()); tt.deployments >= 0 && n != tt.deployments {
				t.Errorf("%d deployments, want %d", n, tt.deployments)
			}
		})
	}
}

// TestPreviewRateLimit: the server allows 5 previews a minute; the sixth is
// refused with a Retry-After longer than the client waits, and is not
// repeated.
func TestPreviewRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	for i := range 5 {
		if _, err := e.c.Preview(ctx, "docs"); err != nil {
			t.Fatalf("preview %d: %v", i+1, err)
		}
	}
	_, err := e.c.Preview(ctx, "docs")
	var ae *docsapi.APIError
	if !errors.Is(err, docsapi.ErrRateLimited) || errors.Is(err, docsapi.ErrOutcomeUnknown) || !errors.As(err, &ae) ||
		ae.RetryAfter <= 50*time.Second || ae.RetryAfter > time.Minute {
		t.Fatalf("sixth preview: %v (%+v)", err, ae)
	}
	if n := e.srv.Count(docsapitest.EndpointPreview); n != 6 {
		t.Errorf("%d preview requests, want 6", n)
	}
	if _, err := e.c.Deploy(ctx); err != nil {
		t.Errorf("deploy after previews: %v (the limits are apart)", err)
	}
}

func TestDeployValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		call  func() error
		field string
	}{
		{"empty status id", func() error { _, err := e.c.DeployStatus(ctx, " "); return err }, "status id"},
		{"dot status id", func() error { _, err := e.c.DeployStatus(ctx, ".."); return err }, "status id"},
	} {
		err := tc.call()
		var ve *docsapi.ValidationError
		if !errors.As(err, &ve) || ve.Field != tc.field {
			t.Errorf("%s: err %v, want a ValidationError on %s", tc.name, err, tc.field)
		}
	}
	for _, branch := range []string{"", "  ", "-x", ".hidden", "a..b", "a b", "a~1", "x^", "a:b", "what?", "a*", "a[0]", `a\b`, "a/", "/a", "a//b",
		"a/.b", "x.lock", "x.", "@", "a@{1}", "tab\there", strings.Repeat("b", docsapi.MaxBranchLength+1), "bad\xffutf8"} {
		_, err := e.c.Preview(ctx, branch)
		var ve *docsapi.ValidationError
		if !errors.As(err, &ve) || ve.Field != "branch" {
			t.Errorf("Preview(%q): err %v, want a ValidationError on branch", branch, err)
		}
	}
	if n := len(e.srv.Requests()); n != 0 {
		t.Errorf("%d requests sent for invalid input", n)
	}
	for _, branch := range []string{"main", "feature/webhooks", "release-1.2", "docs_v2", "été", "a.b/c-d", strings.Repeat("b", docsapi.MaxBranchLength)} {
		if _, err := e.c.Preview(ctx, branch); err != nil {
			t.Errorf("Preview(%q): %v", branch, err)
		}
		e.srv.SetLimits(docsapitest.Limits{})
	}
}

func TestDeployRequestShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	if _, err := e.c.Deploy(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.Preview(ctx, "feature/a"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.DeployStatus(ctx, "st/1"); !errors.Is(err, docsapi.ErrNotFound) {
		t.Fatalf("DeployStatus(st/1): %v, want not found", err)
	}
	reqs := e.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, want := range []struct{ method, path, body string }{
		{http.MethodPost, "/v1/project/update/" + e.srv.ProjectID, ""},
		{http.MethodPost, "/v1/project/preview/" + e.srv.ProjectID, `{"branch":"feature/a"}`},
		{http.MethodGet, "/v1/project/update-status/st/1", ""},
	} {
		r := reqs[i]
		if r.Method != want.method || r.Path != want.path || r.Body != want.body {
			t.Errorf("request %d: %s %s %q, want %s %s %q", i, r.Method, r.Path, r.Body, want.method, want.path, want.body)
		}
	}
	// The status id is one path segment: its slash was escaped.
	if reqs[2].Endpoint != docsapitest.EndpointDeployStatus {
		t.Errorf("status request routed to %s", reqs[2].Endpoint)
	}
}

func TestDeployStatusDecoding(t *testing.T) {
	t.Parallel()
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339Nano, s); return v }
	tests := []struct {
		name  string
		body  string
		check func(t *testing.T, st *docsapi.DeployStatus)
	}{
		{"full", `{"_id":"s1","projectId":"p","status":"success","createdAt":"2026-01-02T03:04:05.678Z","endedAt":"2026-01-02T03:05:00Z",
			"summary":"ok","logs":["a","b"],"subdomain":"acme","screenshot":"x.png",
			"author":{"name":"n","avatarUrl":"u","githubUserId":12.0},
			"commit":{"sha":"abc","ref":"main","message":"m","filesChanged":{"added":["a.mdx"],"modified":[],"removed":["r.mdx"]}},"source":"github"}`,
			func(t *testing.T, st *docsapi.DeployStatus) {
				if st.ID != "s1" || st.ProjectID != "p" || st.Status != docsapi.DeploySuccess || !st.Status.Done() ||
					!st.CreatedAt.Equal(at("2026-01-02T03:04:05.678Z")) || !st.EndedAt.Equal(at("2026-01-02T03:05:00Z")) ||
					st.Summary != "ok" || len(st.Logs) != 2 || st.Subdomain != "acme" || st.Source != "github" ||
					st.Author == nil || st.Author.GitHubUserID != 12 || st.Author.Name != "n" ||
					st.Commit.SHA != "abc" || len(st.Commit.FilesChanged.Added) != 1 || len(st.Commit.FilesChanged.Removed) != 1 {
					t.Errorf("%+v", st)
				}
			}},
		{"empty object", `{}`, func(t *testing.T, st *docsapi.DeployStatus) {
			if st.ID != "asked" || st.Status != "" || st.Status.Done() || st.Author != nil || !st.CreatedAt.IsZero() || st.Logs != nil {
				t.Errorf("%+v", st)
			}
		}},
		{"unknown state kept", `{"_id":"s1","status":"cancelled"}`, func(t *testing.T, st *docsapi.DeployStatus) {
			if st.Status != "cancelled" || st.Status.Done() || st.Status.Known() {
				t.Errorf("%+v", st)
			}
		}},
		{"nulls", `{"_id":null,"status":"queued","createdAt":null,"endedAt":null,"logs":null,"author":null,"commit":null,"summary":null}`,
			func(t *testing.T, st *docsapi.DeployStatus) {
				if st.ID != "asked" || st.Status != docsapi.DeployQueued || st.Author != nil || st.Logs != nil || st.Commit.SHA != "" {
					t.Errorf("%+v", st)
				}
			}},
		{"odd types", `{"id":"s2","status":"in_progress","createdAt":"yesterday","endedAt":1767322800,"summary":42,"logs":"one line",
			"author":{"githubUserId":"77"},"commit":{"sha":123,"filesChanged":null}}`,
			func(t *testing.T, st *docsapi.DeployStatus) {
				if st.ID != "s2" || !st.CreatedAt.IsZero() || !st.EndedAt.IsZero() || st.Summary != "42" ||
					len(st.Logs) != 1 || st.Logs[0] != "one line" || st.Author == nil || st.Author.GitHubUserID != 77 || st.Commit.SHA != "123" {
					t.Errorf("%+v", st)
				}
			}},
		{"log entries of other kinds", `{"_id":"s3","logs":["plain",{"message":"from an object"},{"text":"t"},7,null]}`,
			func(t *testing.T, st *docsapi.DeployStatus) {
				if strings.Join(st.Logs, "|") != "plain|from an object|t|7" {
					t.Errorf("logs %q", st.Logs)
				}
			}},
		{"space in the time", `{"_id":"s4","createdAt":"2026-01-02 03:04:05Z"}`, func(t *testing.T, st *docsapi.DeployStatus) {
			if !st.CreatedAt.Equal(at("2026-01-02T03:04:05Z")) {
				t.Errorf("createdAt %v", st.CreatedAt)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, nil)
			e.srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointDeployStatus, Body: tt.body})
			st, err := e.c.DeployStatus(context.Background(), "asked")
			if err != nil {
				t.Fatalf("DeployStatus: %v", err)
			}
			tt.check(t, st)
		})
	}
}

func TestDeploymentDecoding(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body    string
		id, url string
	}{
		{`{"statusId":"s1"}`, "s1", ""},
		{`{"statusId":"s1","previewUrl":"https://x.mintlify.app","extra":[1]}`, "s1", "https://x.mintlify.app"},
		{`{"_id":"s2"}`, "s2", ""},
		{`{"statusId":12.0}`, "12.0", ""},
	} {
		e := newEnv(t, nil)
		e.srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointPreview, Body: tc.body})
		d, err := e.c.Preview(context.Background(), "b")
		if err != nil || d.StatusID != tc.id || d.PreviewURL != tc.url {
			t.Errorf("%s: %+v, %v; want %q %q", tc.body, d, err, tc.id, tc.url)
		}
	}
}

func TestDeployStateDone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s           docsapi.DeployState
		done, known bool
	}{
		{docsapi.DeployQueued, false, true},
		{docsapi.DeployInProgress, false, true},
		{docsapi.DeploySuccess, true, true},
		{docsapi.DeployFailure, true, true},
		{"", false, false},
		{"SUCCESS", false, false},
		{"cancelled", false, false},
	} {
		if tc.s.Done() != tc.done || tc.s.Known() != tc.known {
			t.Errorf("%q: Done %v Known %v, want %v %v", tc.s, tc.s.Done(), tc.s.Known(), tc.done, tc.known)
		}
	}
}

// TestWatchDeploy follows deployments through passing faults to their end,
// and stops at a failure that will not pass.
func TestWatchDeploy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		faults  []docsapitest.Fault
		id      string
		want    error
		retries int
	}{
		{name: "to the end"},
		{name: "through 503 and 429", retries: 2, faults: []docsapitest.Fault{
			{Endpoint: docsapitest.EndpointDeployStatus, Status: http.StatusServiceUnavailable, Times: 1},
			{Endpoint: docsapitest.EndpointDeployStatus, Status: http.StatusTooManyRequests, RetryAfter: time.Millisecond, Times: 1}}},
		{name: "unknown deployment", id: "ffffffffffffffffffffffff", want: docsapi.ErrNotFound},
		{name: "refused key", want: docsapi.ErrUnauthorized, faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointDeployStatus, Status: http.StatusUnauthorized}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, nil)
			d, err := e.c.Deploy(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			id := d.StatusID
			if tt.id != "" {
				id = tt.id
			}
			for _, f := range tt.faults {
				e.srv.AddFault(f)
			}
			var seen []docsapi.DeployState
			retries := 0
			got, err := e.c.WatchDeploy(t.Context(), id, docsapi.DeployWatchOptions{First: time.Millisecond, Max: 2 * time.Millisecond,
				OnStatus: func(st *docsapi.DeployStatus, changed bool) {
					if changed {
						seen = append(seen, st.Status)
					}
				},
				OnRetry: func(error, time.Duration) { retries++ }})
			if tt.want != nil {
				if !errors.Is(err, tt.want) || got != nil {
					t.Fatalf("WatchDeploy: %v, %v; want %v", got, err, tt.want)
				}
				return
			}
			if err != nil || got.Status != docsapi.DeploySuccess {
				t.Fatalf("WatchDeploy: %+v, %v", got, err)
			}
			if strings.Join(states(seen), ",") != "queued,in_progress,success" || retries != tt.retries {
				t.Errorf("states %v retries %d, want queued,in_progress,success and %d", seen, retries, tt.retries)
			}
		})
	}
}
