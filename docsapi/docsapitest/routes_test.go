package docsapitest

import (
	"net/http"
	"testing"
)

func TestRoutes(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	job := createJob(t, srv, "x")
	for _, tc := range []struct {
		name, method, path string
		status             int
		msg, allow         string
	}{
		{"root", http.MethodGet, "/", http.StatusNotFound, msgNotFound, ""},
		{"unknown version", http.MethodPost, "/v3/agent/" + srv.ProjectID + "/job", http.StatusNotFound, msgNotFound, ""},
		{"trailing slash", http.MethodPost, jobsPath(srv) + "/", http.StatusNotFound, msgNotFound, ""},
		{"empty project", http.MethodPost, "/v2/agent//job", http.StatusNotFound, msgNotFound, ""},
		{"extra segment", http.MethodGet, messagePath(srv, job.ID) + "/more", http.StatusNotFound, msgNotFound, ""},
		{"list jobs", http.MethodGet, jobsPath(srv), http.StatusMethodNotAllowed, msgMethodNotAllowed, http.MethodPost},
		{"post to job", http.MethodPost, jobPath(srv, job.ID), http.StatusMethodNotAllowed, msgMethodNotAllowed, http.MethodGet},
		{"delete job", http.MethodDelete, jobPath(srv, job.ID), http.StatusMethodNotAllowed, msgMethodNotAllowed, http.MethodGet},
		{"get message", http.MethodGet, messagePath(srv, job.ID), http.StatusMethodNotAllowed, msgMethodNotAllowed, http.MethodPost},
		{"post visitors", http.MethodPost, visitorsPath(srv), http.StatusMethodNotAllowed, msgMethodNotAllowed, http.MethodGet},
		{"unknown job get", http.MethodGet, jobPath(srv, "job_ffffffffffffffff"), http.StatusNotFound, msgNoJob, ""},
		{"unknown job message", http.MethodPost, messagePath(srv, "job_ffffffffffffffff"), http.StatusNotFound, msgNoJob, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := ""
			if tc.method == http.MethodPost {
				body = promptBody("hello")
			}
			e := mustError(t, do(t, srv, tc.method, tc.path, body), tc.status)
			if e.Error != tc.msg {
				t.Errorf("error %q, want %q", e.Error, tc.msg)
			}
		})
	}
	t.Run("Allow header", func(t *testing.T) {
		r := do(t, srv, http.MethodGet, jobsPath(srv), "")
		if got := r.header.Get("Allow"); got != http.MethodPost {
			t.Errorf("Allow %q, want POST", got)
		}
	})
	t.Run("wrong method is recorded as unknown", func(t *testing.T) {
		srv.ResetRequests()
		do(t, srv, http.MethodGet, jobsPath(srv), "")
		if got := srv.Count(EndpointUnknown); got != 1 {
			t.Errorf("Count(unknown) = %d, want 1", got)
		}
		if got := srv.Count(EndpointCreate); got != 0 {
			t.Errorf("Count(create) = %d, want 0", got)
		}
	})
}
