package docsapi_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// TestWatch follows jobs on the test server through passing faults to their
// end, and stops at a failure that will not pass.
func TestWatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		faults  []docsapitest.Fault
		unknown bool
		want    error
		retries int
	}{
		{name: "to the end"},
		{name: "through 503 and 429", retries: 2, faults: []docsapitest.Fault{
			{Endpoint: docsapitest.EndpointGet, Status: http.StatusServiceUnavailable, Times: 1},
			{Endpoint: docsapitest.EndpointGet, Status: http.StatusTooManyRequests, RetryAfter: time.Millisecond, Times: 1}}},
		{name: "unknown job", unknown: true, want: docsapi.ErrNotFound},
		{name: "refused key", want: docsapi.ErrUnauthorized, faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Status: http.StatusUnauthorized}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, []docsapitest.Option{docsapitest.WithLifecycle(func(string) docsapitest.Lifecycle {
				return docsapitest.Lifecycle{ActivePolls: 2, Outcome: docsapitest.OutcomeNoChange}
			})})
			job, err := e.c.CreateJob(t.Context(), "Document the rate limits")
			if err != nil {
				t.Fatal(err)
			}
			id := job.ID
			if tt.unknown {
				id = "job_ffffffffffffffff"
			}
			for _, f := range tt.faults {
				e.srv.AddFault(f)
			}
			var statuses []docsapi.Status
			retries := 0
			got, err := e.c.Watch(t.Context(), id, docsapi.WatchOptions{First: time.Millisecond, Max: 2 * time.Millisecond,
				OnJob: func(j *docsapi.Job, changed bool) {
					if changed {
						statuses = append(statuses, j.Status)
					}
				},
				OnRetry: func(error, time.Duration) { retries++ }})
			if tt.want != nil {
				if !errors.Is(err, tt.want) {
					t.Fatalf("Watch: %v, want %v", err, tt.want)
				}
				if n := e.srv.Count(docsapitest.EndpointGet); n != 1 {
					t.Errorf("%d polls after a failure that will not pass, want 1", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("Watch: %v", err)
			}
			if !got.Status.Final() || len(statuses) != 2 || statuses[1] != got.Status {
				t.Errorf("Watch ended with %s after the changes %v, want an active then a final status", got.Status, statuses)
			}
			if retries != tt.retries {
				t.Errorf("%d retries, want %d", retries, tt.retries)
			}
		})
	}
}

func TestWatchStopsWithTheContext(t *testing.T) {
	t.Parallel()
	e := newEnv(t, []docsapitest.Option{docsapitest.WithLifecycle(func(string) docsapitest.Lifecycle {
		return docsapitest.Lifecycle{ActivePolls: 1 << 20}
	})})
	job, err := e.c.CreateJob(t.Context(), "Never ends")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	_, err = e.c.Watch(ctx, job.ID, docsapi.WatchOptions{First: time.Millisecond, Max: time.Millisecond,
		OnJob: func(*docsapi.Job, bool) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Watch: %v, want context.Canceled", err)
	}
}
