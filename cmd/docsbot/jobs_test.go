package main

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store/redistest"
)

// apiRunner returns a runner configured for srv through its environment.
func apiRunner(t *testing.T, srv *docsapitest.Server) (*runner, *docsapitest.LogBuffer, *docsapitest.LogBuffer) {
	t.Helper()
	env := map[string]string{envAPIURL: srv.URL, envAPIKey: srv.Key, envProject: srv.ProjectID}
	r, _, _ := testRunner(t, env, "")
	stdout, stderr := new(docsapitest.LogBuffer), new(docsapitest.LogBuffer)
	r.stdout, r.stderr = stdout, stderr
	return r, stdout, stderr
}

// newServer starts a test API server that stops with the test.
func newServer(t *testing.T, opts ...docsapitest.Option) *docsapitest.Server {
	t.Helper()
	srv := docsapitest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}

// lifecycle ends every job with outcome after polls active polls.
func lifecycle(polls int, outcome docsapitest.Outcome) docsapitest.Option {
	return docsapitest.WithLifecycle(func(string) docsapitest.Lifecycle {
		return docsapitest.Lifecycle{ActivePolls: polls, Outcome: outcome}
	})
}

// onlyJob returns the one job on srv.
func onlyJob(t *testing.T, srv *docsapitest.Server) docsapi.Job {
	t.Helper()
	jobs := srv.Jobs()
	if len(jobs) != 1 {
		t.Fatalf("server has %d jobs, want 1", len(jobs))
	}
	return jobs[0]
}

// createdJob is an API test server whose jobs end with outcome after polls
// active polls, with one job, created by `docsbot jobs create --prompt
// prompt`.
func createdJob(t *testing.T, polls int, outcome docsapitest.Outcome, prompt string) (*docsapitest.Server, docsapi.Job) {
	t.Helper()
	srv := newServer(t, lifecycle(polls, outcome))
	r, _, stderr := apiRunner(t, srv)
	if code := runCode(r, []string{"jobs", "create", "--prompt", prompt}); code != 0 {
		t.Fatalf("create: exit %d: %s", code, stderr)
	}
	return srv, onlyJob(t, srv)
}

func TestJobsCreateAndMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		stdin   string
		prompts []string
	}{
		{"prompt flag", []string{"jobs", "create", "--prompt", "Document the rate limits"}, "", []string{"Document the rate limits"}},
		{"prompt words", []string{"jobs", "create", "Fix", "the", "--format", "text", "typos"}, "", []string{"Fix the typos"}},
		{"prompt from stdin", []string{"jobs", "create", "--prompt", "-"}, "Line one\nline two\n", []string{"Line one\nline two"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t)
			r, stdout, stderr := apiRunner(t, srv)
			r.stdin = strings.NewReader(tt.stdin)
			if code := runCode(r, tt.args); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			job := onlyJob(t, srv)
			if got := srv.Prompts(job.ID); !reflect.DeepEqual(got, tt.prompts) {
				t.Fatalf("server got prompts %q, want %q", got, tt.prompts)
			}
			for _, want := range []string{job.ID, string(job.Status), "docsbot jobs watch " + job.ID} {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout %q does not contain %q", stdout, want)
				}
			}

			// A follow-up with the ID before and the flags after.
			r2, stdout2, stderr2 := apiRunner(t, srv)
			if code := runCode(r2, []string{"jobs", "message", job.ID, "--prompt", "Also the changelog", "--format", "json"}); code != 0 {
				t.Fatalf("message: exit %d: %s", code, stderr2)
			}
			if got := srv.Prompts(job.ID); len(got) != len(tt.prompts)+1 || got[len(got)-1] != "Also the changelog" {
				t.Fatalf("prompts after message = %q", got)
			}
			var printed docsapi.Job
			if err := json.Unmarshal([]byte(stdout2.String()), &printed); err != nil {
				t.Fatalf("message --format json printed %q: %v", stdout2, err)
			}
			if printed.ID != job.ID || printed.Status != docsapi.StatusActive {
				t.Errorf("message printed %+v, want job %s active", printed, job.ID)
			}
		})
	}
}

func TestJobsGet(t *testing.T) {
	t.Parallel()
	srv, job := createdJob(t, 0, docsapitest.OutcomeNoChange, "Nothing to change")
	id := job.ID

	r, stdout, stderr := apiRunner(t, srv)
	if code := runCode(r, []string{"jobs", "get", id, "--format", "json"}); code != 0 {
		t.Fatalf("get json: exit %d: %s", code, stderr)
	}
	var printed docsapi.Job
	if err := json.Unmarshal([]byte(stdout.String()), &printed); err != nil {
		t.Fatal(err)
	}
	want, _ := srv.Job(id)
	if !reflect.DeepEqual(printed, want) {
		t.Fatalf("get printed %+v\nserver has   %+v", printed, want)
	}
	if printed.Status != docsapi.StatusCompleted || printed.PRLink != nil {
		t.Fatalf("job is %s with PR %v, want completed without PR", printed.Status, printed.PRLink)
	}

	r, stdout, stderr = apiRunner(t, srv)
	if code := runCode(r, []string{"jobs", "get", id}); code != 0 {
		t.Fatalf("get text: exit %d: %s", code, stderr)
	}
	for _, want := range []string{id, "completed", want.Model, want.Source.Repository + "@" + *want.Source.Ref, term.Time(*want.CreatedAt), "no pull request (no files changed)"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("get does not show %q:\n%s", want, stdout)
		}
	}

	srv.SetJobStatus(id, "queued", nil)
	r, stdout, _ = apiRunner(t, srv)
	if code := runCode(r, []string{"jobs", "get", id}); code != 0 || !strings.Contains(stdout.String(), "queued") {
		t.Fatalf("get of an unknown status: exit %d, stdout %q", code, stdout)
	}
}

func TestJobsErrors(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		fault    *docsapitest.Fault
		wantCode int
		want     string
	}{
		{"unknown job", []string{"jobs", "get", "job_0000000000000000"}, nil, nil, cli.ExitFailure,
			"job job_0000000000000000 not found in project " + srv.ProjectID},
		{"wrong key", []string{"jobs", "get", "job_1"}, map[string]string{envAPIKey: "mint_wrong_key_abcdefghijklmnop"}, nil, cli.ExitFailure, "check DOCS_API_KEY"},
		{"wrong project", []string{"visitors"}, map[string]string{envProject: "proj_other"}, nil, cli.ExitFailure, "project proj_other not found"},
		{"server error on create", []string{"jobs", "create", "--prompt", "x"}, nil,
			&docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Status: http.StatusBadGateway, AfterAct: true, Times: 1}, cli.ExitFailure,
			"the request may have reached the API"},
		{"rate limited create", []string{"jobs", "create", "--prompt", "x"}, nil,
			&docsapitest.Fault{Endpoint: docsapitest.EndpointCreate, Status: http.StatusTooManyRequests, RetryAfter: time.Hour, Times: 1}, cli.ExitFailure,
			"rate limited by the docs API: try again in 1h0m0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Not parallel: faults are server-wide.
			if tt.fault != nil {
				srv.AddFault(*tt.fault)
				defer srv.ClearFaults()
			}
			env := map[string]string{envAPIURL: srv.URL, envAPIKey: srv.Key, envProject: srv.ProjectID}
			for k, v := range tt.env {
				env[k] = v
			}
			r, stdout, stderr := testRunner(t, env, "")
			code := runCode(r, tt.args)
			if code != tt.wantCode || !strings.Contains(stderr.String(), tt.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q (stdout %q)", code, stderr, tt.wantCode, tt.want, stdout)
			}
			if k := env[envAPIKey]; strings.Contains(stderr.String()+stdout.String(), k) {
				t.Fatalf("output shows the API key: %s", stderr)
			}
		})
	}
}

func TestJobsWatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		outcome  docsapitest.Outcome
		faults   []docsapitest.Fault
		wantCode int
		want     []string
	}{
		{"pull request", docsapitest.OutcomePR, nil, 0, []string{": active (", "completed: pull request https://"}},
		{"no change", docsapitest.OutcomeNoChange, nil, 0, []string{"completed: no pull request (no files changed)"}},
		{"archived", docsapitest.OutcomeArchived, nil, 0, []string{"archived: no pull request\n"}},
		{"failed", docsapitest.OutcomeFailed, nil, cli.ExitFailure, []string{"failed: no pull request\n", "docsbot: job ", " failed\n", "docsbot jobs message "}},
		{"server errors are retried", docsapitest.OutcomePR,
			[]docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Status: http.StatusServiceUnavailable, Times: 2}},
			0, []string{"the docs API failed", "503 Service Unavailable", "; polling again in", "completed: pull request"}},
		{"request timeouts are retried", docsapitest.OutcomePR,
			[]docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Status: http.StatusRequestTimeout, Times: 1}},
			0, []string{"408 Request Timeout", "; polling again in", "completed: pull request"}},
		{"broken connections are retried", docsapitest.OutcomePR,
			[]docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, CloseConn: true, Times: 1}},
			0, []string{"cannot reach the docs API", "completed: pull request"}},
		{"rate limit without Retry-After", docsapitest.OutcomePR,
			[]docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Status: http.StatusTooManyRequests, Times: 1}},
			0, []string{"rate limited by the docs API", "completed: pull request"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, job := createdJob(t, 2, tt.outcome, "Document it")
			id := job.ID
			for _, f := range tt.faults {
				srv.AddFault(f)
			}
			r, stdout, stderr := apiRunner(t, srv)
			code := runCode(r, []string{"jobs", "watch", id, "--interval", "5ms", "--max-interval", "20ms"})
			out := stdout.String() + stderr.String()
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d:\n%s", code, tt.wantCode, out)
			}
			final, _ := srv.Job(id)
			want := append(tt.want, "job "+id+": ")
			if pr := final.PR(); pr != "" {
				want = append(want, pr)
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("output does not contain %q:\n%s", w, out)
				}
			}
			// Not a terminal: one line per status seen, no redraws.
			if strings.Contains(out, "\r") || strings.Count(stdout.String(), "job "+id+": active") != 1 {
				t.Errorf("progress on a non-terminal should be one line per status:\n%q", stdout)
			}
		})
	}
}

func TestJobsWatchUnknownStatusKeepsWatching(t *testing.T) {
	t.Parallel()
	srv, job := createdJob(t, 1, docsapitest.Outcome("queued"), "x")
	id := job.ID
	r, stdout, stderr := apiRunner(t, srv)
	done := make(chan int, 1)
	go func() {
		done <- runCode(r, []string{"jobs", "watch", id, "--interval", "5ms", "--max-interval", "10ms", "--format", "json"})
	}()

	// Let it see the unknown status a few times, then finish the job.
	redistest.Until(t, "polls of the queued job", func() bool {
		j, _ := srv.Job(id)
		return j.Status == "queued" && srv.Count(docsapitest.EndpointGet) >= 4
	})
	pr := "https://github.com/acme/docs/pull/99"
	srv.SetJobStatus(id, docsapi.StatusCompleted, &pr)
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "queued, an unknown status: still watching") {
		t.Errorf("stderr does not show the unknown status:\n%s", stderr)
	}
	var printed docsapi.Job
	if err := json.Unmarshal([]byte(stdout.String()), &printed); err != nil {
		t.Fatalf("stdout is not the job JSON: %v\n%s", err, stdout)
	}
	if printed.PR() != pr || printed.Status != docsapi.StatusCompleted {
		t.Errorf("printed %+v, want completed with %s", printed, pr)
	}
}

func TestJobsWatchHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	srv, job := createdJob(t, 1, docsapitest.OutcomePR, "x")
	id := job.ID
	srv.ResetRequests()
	srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointGet, Status: http.StatusTooManyRequests, RetryAfter: time.Second, Times: 1})
	r, stdout, stderr := apiRunner(t, srv)
	if code := runCode(r, []string{"jobs", "watch", id, "--interval", "5ms", "--max-interval", "10ms"}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout.String(), "try again in 1s") || !strings.Contains(stdout.String(), "polling again in 1s") {
		t.Errorf("output does not show the wait:\n%s", stdout)
	}
	reqs := srv.Requests()
	if len(reqs) < 2 || reqs[0].Status != http.StatusTooManyRequests {
		t.Fatalf("requests: %+v", reqs)
	}
	if gap := reqs[1].At.Sub(reqs[0].At); gap < time.Second {
		t.Errorf("polled again %s after a 429 asking for 1s", gap)
	}
}

func TestJobsWatchStops(t *testing.T) {
	t.Parallel()
	srv, job := createdJob(t, 1_000_000, docsapitest.OutcomePR, "x")
	id := job.ID

	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		r, _, stderr := apiRunner(t, srv)
		code := runCode(r, []string{"jobs", "watch", id, "--interval", "5ms", "--max-interval", "5ms", "--timeout", "50ms"})
		if code != cli.ExitFailure || !strings.Contains(stderr.String(), "timed out after 50ms watching job "+id) {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("interrupt", func(t *testing.T) {
		t.Parallel()
		r, _, stderr := apiRunner(t, srv)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan int, 1)
		before := srv.Count(docsapitest.EndpointGet)
		go func() {
			done <- runCodeContext(ctx, r, []string{"jobs", "watch", id, "--interval", "5ms", "--max-interval", "5ms"})
		}()
		redistest.Until(t, "a few polls", func() bool { return srv.Count(docsapitest.EndpointGet) >= before+3 })
		cancel()
		code := <-done
		if code != cli.ExitInterrupted || !strings.Contains(stderr.String(), "interrupted: stopped watching job "+id) ||
			!strings.Contains(stderr.String(), "resume with: docsbot jobs watch "+id) {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("unknown job", func(t *testing.T) {
		t.Parallel()
		r, _, stderr := apiRunner(t, srv)
		code := runCode(r, []string{"jobs", "watch", "job_ffffffffffffffff", "--interval", "5ms"})
		if code != cli.ExitFailure || !strings.Contains(stderr.String(), "job job_ffffffffffffffff not found in project") {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
	})
}
