package main

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

func TestVisitorsMaxPages(t *testing.T) {
	t.Parallel()
	ds := docsapitest.NewDataset(613, 2)
	srv := newServer(t, docsapitest.WithDataset(ds))
	r, stdout, stderr := apiRunner(t, srv)
	if code := runCode(r, []string{"visitors", "--format", "json", "--max-pages", "2"}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got docsapi.VisitorsPage
	if err := json.Unmarshal([]byte(stdout.String()), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Visitors) != 2*docsapi.MaxVisitorsLimit || !got.HasMore {
		t.Fatalf("%d rows, hasMore %t; want %d and true", len(got.Visitors), got.HasMore, 2*docsapi.MaxVisitorsLimit)
	}
	if n := srv.Count(docsapitest.EndpointVisitors); n != 2 {
		t.Errorf("server saw %d requests, want 2", n)
	}
	if !strings.Contains(stderr.String(), "stopped after 2 requests (--max-pages): more paths exist") {
		t.Errorf("stderr = %q, want a note that more paths exist", stderr)
	}
}

func TestVisitorsFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		fault    docsapitest.Fault
		wantCode int
		want     string
	}{
		{"bad query", docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: http.StatusBadRequest}, cli.ExitFailure, "check --from and --to"},
		{"rate limited", docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: http.StatusTooManyRequests, RetryAfter: time.Hour}, cli.ExitFailure,
			"rate limited by the docs API: try again in 1h0m0s"},
		{"proxy page", docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: http.StatusBadRequest, Body: "<html>bad gateway</html>"}, cli.ExitFailure,
			"(400 Bad Request)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t)
			srv.AddFault(tt.fault)
			r, stdout, stderr := apiRunner(t, srv)
			code := runCode(r, []string{"visitors", "--from", "2025-11-01"})
			if code != tt.wantCode || !strings.Contains(stderr.String(), tt.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, tt.wantCode, tt.want)
			}
			if stdout.String() != "" {
				t.Errorf("stdout = %q, want nothing on failure", stdout)
			}
		})
	}
}

// TestVisitorsDates checks that --from and --to take exactly the dates the
// docs API client takes.
func TestVisitorsDates(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"2025-11-01", "2025-11-01T08:00:00Z", "2025-11-01T08:00:00.5+01:00", "2025-11-01T08:00:00",
		"2025-11-01T08:00:00+0100", "2025-11-01T08:00", "2025-11-01T08:00+01:00",
		"Nov 1", "2025-11-1", "2025-02-30", " 2025-11-01", "2025-11-01 08:00:00Z", "1730419200",
	} {
		_, apiOK := docsapi.ParseDate(s)
		for _, flag := range []string{"--from", "--to"} {
			from, to := s, ""
			if flag == "--to" {
				from, to = "", s
			}
			err := checkRange(from, to)
			if (err == nil) != apiOK {
				t.Errorf("%s %q: %v; the API client reads it: %t", flag, s, err, apiOK)
			}
			if err != nil && !strings.Contains(err.Error(), flag+" "+strconv.Quote(s)+" is not a date") {
				t.Errorf("%s %q: error %q does not name the flag and value", flag, s, err)
			}
		}
	}
}
