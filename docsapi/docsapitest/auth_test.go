package docsapitest

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

func TestAuth(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	job := createJob(t, srv, "seed job")

	endpoints := []struct {
		name   string
		method string
		path   string
		body   string
		ok     int
	}{
		{"create", http.MethodPost, jobsPath(srv), promptBody("x"), http.StatusCreated},
		{"message", http.MethodPost, messagePath(srv, job.ID), promptBody("y"), http.StatusOK},
		{"get", http.MethodGet, jobPath(srv, job.ID), "", http.StatusOK},
		{"visitors", http.MethodGet, visitorsPath(srv), "", http.StatusOK},
	}
	auths := []struct {
		name   string
		header string
		want   int
	}{
		{"missing", "", http.StatusUnauthorized},
		{"basic scheme", "Basic " + srv.Key, http.StatusUnauthorized},
		{"bearer without token", "Bearer", http.StatusUnauthorized},
		{"bearer blank token", "Bearer   ", http.StatusUnauthorized},
		{"wrong key", "Bearer mint_wrong_key_1111111111111111", http.StatusUnauthorized},
		{"key with prefix only", "Bearer " + srv.Key[:5], http.StatusUnauthorized},
		{"lower-case scheme", "bearer " + srv.Key, 0},
		{"right key", "Bearer " + srv.Key, 0},
	}
	for _, ep := range endpoints {
		for _, a := range auths {
			t.Run(ep.name+"/"+a.name, func(t *testing.T) {
				r, err := send(t, context.Background(), ep.method, srv.URL+ep.path, a.header, ep.body)
				if err != nil {
					t.Fatal(err)
				}
				want := a.want
				if want == 0 {
					want = ep.ok
				}
				if want == http.StatusUnauthorized {
					e := mustError(t, r, want)
					if e.Error != msgUnauthorized {
						t.Errorf("error %q, want %q", e.Error, msgUnauthorized)
					}
					if strings.Contains(string(r.body), srv.Key) {
						t.Errorf("body echoes the key")
					}
					return
				}
				if r.status != want {
					t.Errorf("status %d, want %d; body %s", r.status, want, r.body)
				}
			})
		}
	}
}

func TestWrongProject(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithProjectID("proj_a"), WithKey("mint_custom"))
	job := createJob(t, srv, "x")
	if srv.ProjectID != "proj_a" || srv.Key != "mint_custom" {
		t.Fatalf("options not applied: %q %q", srv.ProjectID, srv.Key)
	}
	for _, tc := range []struct {
		name, method, path, body string
	}{
		{"create", http.MethodPost, "/v2/agent/proj_b/job", promptBody("x")},
		{"message", http.MethodPost, "/v2/agent/proj_b/job/" + job.ID + "/message", promptBody("x")},
		{"get", http.MethodGet, "/v2/agent/proj_b/job/" + job.ID, ""},
		{"visitors", http.MethodGet, "/v1/analytics/proj_b/visitors", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustError(t, do(t, srv, tc.method, tc.path, tc.body), http.StatusNotFound)
			if e.Error != msgNoProject {
				t.Errorf("error %q, want %q", e.Error, msgNoProject)
			}
		})
	}
	// A wrong key on a wrong project still says 401, revealing nothing.
	r, err := send(t, context.Background(), http.MethodGet, srv.URL+"/v1/analytics/proj_b/visitors", "Bearer nope", "")
	if err != nil {
		t.Fatal(err)
	}
	mustError(t, r, http.StatusUnauthorized)
}
