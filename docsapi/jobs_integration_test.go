package docsapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestJobLifecycle creates a job, polls it to its end, sends a follow-up and
// compares every answer with the server's own view of the job.
func TestJobLifecycle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		prompt string
		check  func(t *testing.T, j *docsapi.Job)
	}{
		{"pull request", "Fix the typo in quickstart.mdx", func(t *testing.T, j *docsapi.Job) {
			if j.Status != docsapi.StatusCompleted || j.PR() == "" {
				t.Errorf("job %+v: want completed with a PR link", j)
			}
		}},
		{"no change", "Check the intro " + docsapitest.KeywordNoChange, func(t *testing.T, j *docsapi.Job) {
			if j.Status != docsapi.StatusCompleted || j.PRLink != nil {
				t.Errorf("job %+v: want completed with prLink null", j)
			}
		}},
		{"failed", "Break " + docsapitest.KeywordFail, func(t *testing.T, j *docsapi.Job) {
			if j.Status != docsapi.StatusFailed || j.PRLink != nil {
				t.Errorf("job %+v: want failed", j)
			}
		}},
		{"archived", "Old " + docsapitest.KeywordArchive, func(t *testing.T, j *docsapi.Job) {
			if j.Status != docsapi.StatusArchived || j.ArchivedAt == nil {
				t.Errorf("job %+v: want archived with archivedAt", j)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, nil)
			ctx := context.Background()

			job, err := e.c.CreateJob(ctx, tt.prompt)
			if err != nil {
				t.Fatalf("CreateJob: %v", err)
			}
			want, ok := e.srv.Job(job.ID)
			if !ok || !sameJob(*job, want) {
				t.Fatalf("created job %+v, server has %+v (found %v)", job, want, ok)
			}
			if job.Status != docsapi.StatusActive || job.PRLink != nil || job.ArchivedAt != nil || job.CreatedAt == nil {
				t.Errorf("new job %+v: want active, no PR, no archivedAt, a createdAt", job)
			}

			polls := 0
			for !job.Status.Final() {
				if polls++; polls > 20 {
					t.Fatalf("job still %q after %d polls", job.Status, polls)
				}
				if job, err = e.c.GetJob(ctx, job.ID); err != nil {
					t.Fatalf("GetJob: %v", err)
				}
			}
			if want, _ := e.srv.Job(job.ID); !sameJob(*job, want) {
				t.Errorf("final job %+v, server has %+v", job, want)
			}
			tt.check(t, job)

			const follow = "Also update the changelog"
			again, err := e.c.SendMessage(ctx, job.ID, follow)
			if err != nil {
				t.Fatalf("SendMessage: %v", err)
			}
			if want, _ := e.srv.Job(job.ID); !sameJob(*again, want) || again.Status != docsapi.StatusActive {
				t.Errorf("job after follow-up %+v, server has %+v; want active again", again, want)
			}
			if got := e.srv.Prompts(job.ID); !slices.Equal(got, []string{tt.prompt, follow}) {
				t.Errorf("server prompts %q, want %q", got, []string{tt.prompt, follow})
			}
			for _, r := range e.srv.Requests() {
				if r.Method != http.MethodPost {
					continue
				}
				var body map[string]any
				if err := json.Unmarshal([]byte(r.Body), &body); err != nil || len(body) != 1 || body["prompt"] == nil {
					t.Errorf("POST %s body %q: want exactly {\"prompt\": ...}", r.Path, r.Body)
				}
			}
		})
	}
}

// TestJobStatusesAsServed checks statuses the client does not know and the
// nullable fields, as served by the test server.
func TestJobStatusesAsServed(t *testing.T) {
	t.Parallel()
	link := "https://github.com/acme/docs/pull/99"
	tests := []struct {
		name         string
		status       docsapi.Status
		prLink       *string
		final, known bool
	}{
		{"unknown queued", "queued", nil, false, false},
		{"unknown with PR", "needs_review", &link, false, false},
		{"completed with PR", docsapi.StatusCompleted, &link, true, true},
		{"completed without PR", docsapi.StatusCompleted, nil, true, true},
		{"archived", docsapi.StatusArchived, &link, true, true},
		{"active", docsapi.StatusActive, nil, false, true},
	}
	e := newEnv(t, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			job, err := e.c.CreateJob(ctx, "Prompt for "+tt.name)
			if err != nil {
				t.Fatal(err)
			}
			e.srv.SetJobStatus(job.ID, tt.status, tt.prLink)
			got, err := e.c.GetJob(ctx, job.ID)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := e.srv.Job(job.ID)
			if !sameJob(*got, want) {
				t.Errorf("GetJob = %+v, server has %+v", got, want)
			}
			if got.Status != tt.status || got.Status.Final() != tt.final || got.Status.Known() != tt.known {
				t.Errorf("status %q final %v known %v, want %q %v %v", got.Status, got.Status.Final(), got.Status.Known(), tt.status, tt.final, tt.known)
			}
			if (got.PRLink == nil) != (tt.prLink == nil) || (got.ArchivedAt != nil) != (tt.status == docsapi.StatusArchived) {
				t.Errorf("prLink %v archivedAt %v for %+v", got.PRLink, got.ArchivedAt, tt)
			}
		})
	}
}

// TestUnknownOutcomeFromLifecycle lets the server end a job with a status the
// client does not know: the client keeps it and does not treat it as final.
func TestUnknownOutcomeFromLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, []docsapitest.Option{docsapitest.WithLifecycle(func(string) docsapitest.Lifecycle {
		return docsapitest.Lifecycle{Outcome: "queued"}
	})})
	ctx := context.Background()
	job, err := e.c.CreateJob(ctx, "Translate the guide")
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.c.GetJob(ctx, job.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != docsapi.Status("queued") || got.Status.Final() || got.Status.Known() {
		t.Errorf("status %q (final %v, known %v), want queued, not final, not known", got.Status, got.Status.Final(), got.Status.Known())
	}
}

// TestJobBodiesDecoding serves raw job bodies through the test server: null
// and absent optional fields, unknown fields and unknown statuses.
func TestJobBodiesDecoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		body          string
		status        docsapi.Status
		ref, pr       bool // whether Source.Ref and PRLink are set
		created, arch bool
	}{
		{"nulls", `{"id":"job_1","status":"completed","source":{"repository":"https://github.com/acme/docs","ref":null},"model":"m","prLink":null,"createdAt":"2025-11-03T10:04:05.123Z","archivedAt":null}`,
			docsapi.StatusCompleted, false, false, true, false},
		{"absent", `{"id":"job_1","status":"failed"}`, docsapi.StatusFailed, false, false, false, false},
		{"all set and extra fields", `{"id":"job_1","status":"archived","source":{"repository":"r","ref":"main","sha":"abc"},"prLink":"https://github.com/acme/docs/pull/3","createdAt":"2025-11-03T10:04:05Z","archivedAt":"2025-11-04T10:04:05Z","cost":{"usd":1.5}}`,
			docsapi.StatusArchived, true, true, true, true},
		{"unknown status", `{"id":"job_1","status":"queued","prLink":null}`, "queued", false, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, nil)
			e.srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointGet, Body: tt.body})
			j, err := e.c.GetJob(context.Background(), "job_1")
			if err != nil {
				t.Fatalf("GetJob: %v", err)
			}
			if j.ID != "job_1" || j.Status != tt.status || (j.Source.Ref != nil) != tt.ref || (j.PRLink != nil) != tt.pr ||
				(j.CreatedAt != nil) != tt.created || (j.ArchivedAt != nil) != tt.arch {
				t.Errorf("GetJob = %+v, want status %q ref %v pr %v created %v archived %v", j, tt.status, tt.ref, tt.pr, tt.created, tt.arch)
			}
		})
	}
}

// TestRequestShape checks, on a recording server, what goes on the wire:
// headers, escaped paths, bodies and queries.
func TestRequestShape(t *testing.T) {
	t.Parallel()
	type seen struct {
		method, path, query, body     string
		auth, ua, accept, contentType string
	}
	var (
		mu   sync.Mutex
		reqs []seen
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := make([]byte, 4096)
		n, _ := r.Body.Read(b)
		mu.Lock()
		reqs = append(reqs, seen{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(b[:n]),
			r.Header.Get("Authorization"), r.Header.Get("User-Agent"), r.Header.Get("Accept"), r.Header.Get("Content-Type")})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.URL.Path, "/visitors") {
			_, _ = w.Write([]byte(`{"totals":{"human":1,"ai":0,"total":1},"visitors":[],"hasMore":false}`))
			return
		}
		_, _ = w.Write([]byte(`{"id":"a/b c","status":"active"}`))
	}))
	t.Cleanup(srv.Close)
	key := testKey(t)
	c, _ := newClient(t, srv.URL+"/", key, "proj 1")
	ctx := context.Background()
	calls := []struct {
		name string
		do   func() error
		want seen
	}{
		{"create", func() error { _, err := c.CreateJob(ctx, "Say \"hi\"\n"); return err },
			seen{method: "POST", path: "/v2/agent/proj%201/job", body: `{"prompt":"Say \"hi\"\n"}`, contentType: "application/json"}},
		{"message", func() error { _, err := c.SendMessage(ctx, "a/b c", "again"); return err },
			seen{method: "POST", path: "/v2/agent/proj%201/job/a%2Fb%20c/message", body: `{"prompt":"again"}`, contentType: "application/json"}},
		{"get", func() error { _, err := c.GetJob(ctx, "a/b c"); return err },
			seen{method: "GET", path: "/v2/agent/proj%201/job/a%2Fb%20c"}},
		{"visitors", func() error {
			_, err := c.Visitors(ctx, docsapi.VisitorsParams{From: "2025-11-01", To: "2025-11-08T00:00:00+01:00", Limit: 250, Offset: 500})
			return err
		}, seen{method: "GET", path: "/v1/analytics/proj%201/visitors", query: "dateFrom=2025-11-01&dateTo=2025-11-08T00%3A00%3A00%2B01%3A00&limit=250&offset=500"}},
		{"visitors defaults", func() error { _, err := c.Visitors(ctx, docsapi.VisitorsParams{}); return err },
			seen{method: "GET", path: "/v1/analytics/proj%201/visitors"}},
	}
	for i, call := range calls {
		if err := call.do(); err != nil {
			t.Fatalf("%s: %v", call.name, err)
		}
		mu.Lock()
		got := reqs[i]
		mu.Unlock()
		want := call.want
		if !strings.HasPrefix(got.ua, "docsbot/") {
			t.Errorf("%s sent User-Agent %q, want docsbot/<version> (TestDefaultUserAgent)", call.name, got.ua)
		}
		want.auth, want.ua, want.accept = "Bearer "+key, got.ua, "application/json"
		if got != want {
			t.Errorf("%s sent\n %+v\nwant\n %+v", call.name, got, want)
		}
	}
}

// TestDefaultUserAgent checks the User-Agent sent when none is configured.
func TestDefaultUserAgent(t *testing.T) {
	t.Parallel()
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("User-Agent")
		_, _ = w.Write([]byte(`{"id":"j","status":"active"}`))
	}))
	t.Cleanup(srv.Close)
	c, _ := newClient(t, srv.URL, testKey(t), "p1")
	if _, err := c.GetJob(context.Background(), "j"); err != nil {
		t.Fatal(err)
	}
	if ua := <-got; ua != "docsbot/dev" && !strings.HasPrefix(ua, "docsbot/v") {
		t.Errorf("User-Agent %q, want docsbot/<version> or docsbot/dev", ua)
	}
}

// TestRawAnswers serves answers the test server cannot produce: empty error
// bodies and bodies beyond the caps on how much of an answer is read.
func TestRawAnswers(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	tests := []struct {
		name   string
		status int
		body   string
		call   func(c *docsapi.Client) error
		check  func(t *testing.T, err error)
	}{
		{"empty 404 body", 404, "",
			func(c *docsapi.Client) error { _, err := c.GetJob(context.Background(), "j1"); return err },
			func(t *testing.T, err error) {
				var apiErr *docsapi.APIError
				if !errors.As(err, &apiErr) || !errors.Is(err, docsapi.ErrNotFound) || apiErr.Message != "" || !strings.HasSuffix(err.Error(), "/job/j1: 404 Not Found") {
					t.Errorf("error %v: want a bare 404 APIError", err)
				}
			}},
		{"empty 503 body on create", 503, "",
			func(c *docsapi.Client) error { _, err := c.CreateJob(context.Background(), "x"); return err },
			func(t *testing.T, err error) {
				var apiErr *docsapi.APIError
				if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || !errors.Is(err, docsapi.ErrOutcomeUnknown) {
					t.Errorf("error %v: want a 503 APIError with outcome unknown", err)
				}
			}},
		{"empty 200 body", 200, "",
			func(c *docsapi.Client) error { _, err := c.GetJob(context.Background(), "j1"); return err },
			func(t *testing.T, err error) {
				if !errors.Is(err, docsapi.ErrMalformedResponse) || !strings.Contains(err.Error(), "200 OK") {
					t.Errorf("error %v: want a malformed 200 answer", err)
				}
			}},
		{"job over 1 MiB", 200, `{"id":"j1","status":"active","pad":"` + strings.Repeat("x", mib) + `"}`,
			func(c *docsapi.Client) error { _, err := c.GetJob(context.Background(), "j1"); return err },
			func(t *testing.T, err error) {
				if !errors.Is(err, docsapi.ErrMalformedResponse) || !strings.Contains(err.Error(), "larger than") {
					t.Errorf("error %v: want a malformed response that is too large", err)
				}
			}},
		{"created job over 1 MiB", 201, `{"id":"j1","status":"active","pad":"` + strings.Repeat("x", mib) + `"}`,
			func(c *docsapi.Client) error { _, err := c.CreateJob(context.Background(), "x"); return err },
			func(t *testing.T, err error) {
				if !errors.Is(err, docsapi.ErrMalformedResponse) || !errors.Is(err, docsapi.ErrOutcomeUnknown) {
					t.Errorf("error %v: want a malformed response with outcome unknown", err)
				}
			}},
		{"visitors page of 2 MiB is fine", 200, `{"totals":{"human":1,"ai":0,"total":1},"visitors":[],"hasMore":false,"pad":"` + strings.Repeat("x", 2*mib) + `"}`,
			func(c *docsapi.Client) error {
				_, err := c.Visitors(context.Background(), docsapi.VisitorsParams{})
				return err
			},
			func(t *testing.T, err error) {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
			}},
		{"huge text error body", 500, strings.Repeat("oops ", mib),
			func(c *docsapi.Client) error {
				_, err := c.Visitors(context.Background(), docsapi.VisitorsParams{})
				return err
			},
			func(t *testing.T, err error) {
				var apiErr *docsapi.APIError
				if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 || len([]rune(apiErr.Message)) > 201 || !strings.HasPrefix(apiErr.Message, "oops oops") {
					t.Errorf("error %v: want a 500 with a short excerpt", err)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			t.Cleanup(srv.Close)
			key := testKey(t)
			c, _ := newClient(t, srv.URL, key, "p1")
			err := tt.call(c)
			assertNoKey(t, key, err)
			tt.check(t, err)
		})
	}
}
