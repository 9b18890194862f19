package docsapi_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestCheck tries a good setup and faults, and checks that Check spends one
// request whatever happens, even with a client that retries.
func TestCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault *docsapitest.Fault
		want  error
	}{
		{"good key and project", nil, nil},
		{"refused key", &docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: http.StatusUnauthorized}, docsapi.ErrUnauthorized},
		{"unknown project", &docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: http.StatusNotFound}, docsapi.ErrNotFound},
		{"server error, not retried", &docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: http.StatusServiceUnavailable}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, nil)
			if tt.fault != nil {
				e.srv.AddFault(*tt.fault)
			}
			err := e.c.Check(t.Context(), time.Now())
			switch {
			case tt.fault == nil && err != nil:
				t.Errorf("Check: %v, want nil", err)
			case tt.fault != nil && err == nil:
				t.Errorf("Check: nil, want an error")
			case tt.want != nil && !errors.Is(err, tt.want):
				t.Errorf("Check: %v, want %v", err, tt.want)
			}
			if n := e.srv.Count(docsapitest.EndpointVisitors); n != 1 {
				t.Errorf("Check made %d requests, want 1", n)
			}
		})
	}
}
