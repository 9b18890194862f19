package docsapitest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
)

// clockStart is a fixed afternoon used by tests that need a clock.
func clockStart() time.Time { return time.Date(2025, 11, 20, 14, 30, 0, 0, time.UTC) }

// startServer starts a server closed at the end of the test.
func startServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	srv := NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}

// reply is a response read in full.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// send makes a request with a raw Authorization header ("" sends none).
func send(t testing.TB, ctx context.Context, method, url, auth, body string) (reply, error) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return reply{}, err
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	// A fresh connection per request: Go's transport silently replays a GET
	// once when a reused connection closes without an answer, which would
	// hide CloseConn faults.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return reply{}, err
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: b}, nil
}

// do makes an authorized request to path on srv and fails the test on a
// transport error.
func do(t testing.TB, srv *Server, method, path, body string) reply {
	t.Helper()
	r, err := send(t, context.Background(), method, srv.URL+path, "Bearer "+srv.Key, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

func jobsPath(srv *Server) string { return "/v2/agent/" + srv.ProjectID + "/job" }

func jobPath(srv *Server, id string) string { return jobsPath(srv) + "/" + id }

func messagePath(srv *Server, id string) string { return jobPath(srv, id) + "/message" }

func visitorsPath(srv *Server) string { return "/v1/analytics/" + srv.ProjectID + "/visitors" }

func promptBody(p string) string {
	b, _ := json.Marshal(map[string]string{"prompt": p})
	return string(b)
}

// mustJob decodes a job answer with the wanted status code.
func mustJob(t testing.TB, r reply, want int) docsapi.Job {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d; body %s", r.status, want, r.body)
	}
	var j docsapi.Job
	if err := json.Unmarshal(r.body, &j); err != nil {
		t.Fatalf("decode job %s: %v", r.body, err)
	}
	return j
}

// createJob creates a job with prompt and returns it.
func createJob(t testing.TB, srv *Server, prompt string) docsapi.Job {
	t.Helper()
	return mustJob(t, do(t, srv, http.MethodPost, jobsPath(srv), promptBody(prompt)), http.StatusCreated)
}

// getJob fetches (polls) a job.
func getJob(t testing.TB, srv *Server, id string) docsapi.Job {
	t.Helper()
	return mustJob(t, do(t, srv, http.MethodGet, jobPath(srv, id), ""), http.StatusOK)
}

// apiError is an error body.
type apiError struct {
	Error   string `json:"error"`
	Details []struct {
		Message string `json:"message"`
	} `json:"details"`
}

// mustError checks the status and decodes the error body.
func mustError(t testing.TB, r reply, want int) apiError {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d; body %s", r.status, want, r.body)
	}
	var e apiError
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("decode error body %q: %v", r.body, err)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q, want JSON", ct)
	}
	return e
}

// mustPage decodes an analytics answer.
func mustPage(t testing.TB, r reply) docsapi.VisitorsPage {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200; body %s", r.status, r.body)
	}
	var p docsapi.VisitorsPage
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatalf("decode visitors %s: %v", r.body, err)
	}
	return p
}
