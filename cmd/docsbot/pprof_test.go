package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestPprofHandlerServesNamedProfiles checks the profiling listener's
// named profiles: a known one is served, an unknown one is not found.
func TestPprofHandlerServesNamedProfiles(t *testing.T) {
	t.Parallel()
	h := pprofHandler()
	for _, tc := range []struct {
		path string
		code int
	}{
		{"/debug/pprof/heap", http.StatusOK},
		{"/debug/pprof/allocs", http.StatusOK},
		{"/debug/pprof/goroutine", http.StatusOK},
		{"/debug/pprof/nonesuch", http.StatusNotFound},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
		if rec.Code != tc.code || tc.code == http.StatusOK && rec.Body.Len() == 0 {
			t.Errorf("GET %s: %d with %d bytes, want %d", tc.path, rec.Code, rec.Body.Len(), tc.code)
		}
	}
}
