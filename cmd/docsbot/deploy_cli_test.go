package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// fast are the polling flags of the tests.
var fast = []string{"--interval", "5ms", "--max-interval", "10ms"}

// onlyDeployment returns the one deployment on srv.
func onlyDeployment(t *testing.T, srv *docsapitest.Server) docsapi.DeployStatus {
	t.Helper()
	deps := srv.Deployments()
	if len(deps) != 1 {
		t.Fatalf("server has %d deployments, want 1", len(deps))
	}
	return deps[0]
}

func wantAll(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output does not contain %q:\n%s", w, out)
		}
	}
}

func TestDeployStart(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	r, stdout, stderr := apiRunner(t, srv)
	if code := runCode(r, []string{"deploy"}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	d := onlyDeployment(t, srv)
	wantAll(t, stdout.String(), "Started deployment "+d.ID, "docsbot deploy status "+d.ID+" --wait")
	if srv.Count(docsapitest.EndpointDeploy) != 1 || srv.Count(docsapitest.EndpointDeployStatus) != 0 {
		t.Errorf("requests: deploy %d, status %d; want 1 and 0", srv.Count(docsapitest.EndpointDeploy), srv.Count(docsapitest.EndpointDeployStatus))
	}

	r2, stdout2, stderr2 := apiRunner(t, srv)
	if code := runCode(r2, []string{"deploy", "--format", "json"}); code != 0 {
		t.Fatalf("json: exit %d: %s", code, stderr2)
	}
	var printed docsapi.Deployment
	if err := json.Unmarshal([]byte(stdout2.String()), &printed); err != nil || printed.StatusID == "" {
		t.Fatalf("deploy --format json printed %q: %v", stdout2, err)
	}
}

func TestDeployWait(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		setup    func(srv *docsapitest.Server)
		faults   []docsapitest.Fault
		wantCode int
		want     []string
	}{
		{name: "success", args: []string{"deploy", "--wait"}, want: []string{"Started deployment ", ": queued (", ": in_progress (",
			"  Cloning ", "  Deployed to https://acme.mintlify.app", "status   success", "commit   ", " on main: ", "took "}},
		{name: "failure", args: []string{"deploy", "--wait"}, setup: func(srv *docsapitest.Server) { srv.FailNextDeploy() },
			wantCode: cli.ExitFailure, want: []string{"  Error: broken link", "status   failure", " failed: Build failed", "--format json"}},
		{name: "preview", args: []string{"deploy", "preview", "feature/webhooks", "--wait"},
			want: []string{"Started preview ", "preview: https://acme-feature-webhooks.mintlify.app", " on feature/webhooks: ", "status   success"}},
		{name: "polling goes on through errors", args: []string{"deploy", "--wait"},
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointDeployStatus, Status: http.StatusServiceUnavailable, Times: 2}},
			want:   []string{"the docs API failed", "503 Service Unavailable", "; polling again in", "status   success"}},
		{name: "rate limits while polling", args: []string{"deploy", "--wait"},
			faults: []docsapitest.Fault{{Endpoint: docsapitest.EndpointDeployStatus, Status: http.StatusTooManyRequests, Times: 1}},
			want:   []string{"rate limited by the docs API", "status   success"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t)
			if tt.setup != nil {
				tt.setup(srv)
			}
			for _, f := range tt.faults {
				srv.AddFault(f)
			}
			r, stdout, stderr := apiRunner(t, srv)
			code := runCode(r, append(tt.args, fast...))
			out := stdout.String() + stderr.String()
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d:\n%s", code, tt.wantCode, out)
			}
			d := onlyDeployment(t, srv)
			wantAll(t, out, append(tt.want, "deployment "+d.ID+": ")...)
			// Not a terminal: no redraws.
			if strings.Contains(out, "\r") {
				t.Errorf("output redraws a line although stdout is no terminal:\n%q", out)
			}
			if n := srv.Count(docsapitest.EndpointDeploy) + srv.Count(docsapitest.EndpointPreview); n != 1 {
				t.Errorf("%d deployments started, want 1", n)
			}
		})
	}
}

func TestDeployWaitJSON(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	r, stdout, stderr := apiRunner(t, srv)
	if code := runCode(r, append([]string{"deploy", "preview", "docs-v2", "--wait", "--format", "json"}, fast...)); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var st docsapi.DeployStatus
	if err := json.Unmarshal([]byte(stdout.String()), &st); err != nil {
		t.Fatalf("stdout is not the status JSON: %v\n%s", err, stdout)
	}
	d := onlyDeployment(t, srv)
	if st.ID != d.ID || st.Status != docsapi.DeploySuccess || st.Commit.Ref != "docs-v2" || len(st.Logs) == 0 {
		t.Errorf("printed %+v", st)
	}
	wantAll(t, stderr.String(), "Started preview "+d.ID, "preview: https://acme-docs-v2.mintlify.app", "deployment "+d.ID+": queued")
}

func TestDeployStatusCommand(t *testing.T) {
	t.Parallel()
	srv := newServer(t, docsapitest.WithDeployLifecycle(func(docsapitest.DeployRequest) docsapitest.DeployLifecycle {
		return docsapitest.DeployLifecycle{Outcome: docsapi.DeployFailure}
	}))
	r, _, stderr := apiRunner(t, srv)
	if code := runCode(r, []string{"deploy"}); code != 0 {
		t.Fatalf("deploy: exit %d: %s", code, stderr)
	}
	id := onlyDeployment(t, srv).ID

	// Showing a failed deployment is no failure of the command.
	r, stdout, stderr := apiRunner(t, srv)
	if code := runCode(r, []string{"deploy", "status", id}); code != 0 {
		t.Fatalf("status: exit %d: %s", code, stderr)
	}
	wantAll(t, stdout.String(), "id       "+id, "status   failure", "summary  Build failed", "files    ", "author   docs-writer", "source   api", "\nlogs:\n", "  Error: broken link")

	r, stdout, stderr = apiRunner(t, srv)
	if code := runCode(r, []string{"deploy", "status", id, "--format", "json"}); code != 0 {
		t.Fatalf("status json: exit %d: %s", code, stderr)
	}
	var st docsapi.DeployStatus
	if err := json.Unmarshal([]byte(stdout.String()), &st); err != nil || st.ID != id || st.Status != docsapi.DeployFailure {
		t.Fatalf("status --format json printed %q: %v", stdout, err)
	}

	// --wait on a finished deployment shows it and exits as it ended.
	r, stdout, stderr = apiRunner(t, srv)
	if code := runCode(r, append([]string{"deploy", "status", id, "--wait"}, fast...)); code != cli.ExitFailure {
		t.Fatalf("status --wait: exit %d, want 1: %s%s", code, stdout, stderr)
	}
}

func TestDeployWaitUnknownStateTimesOut(t *testing.T) {
	t.Parallel()
	srv := newServer(t, docsapitest.WithDeployLifecycle(func(docsapitest.DeployRequest) docsapitest.DeployLifecycle {
		return docsapitest.DeployLifecycle{Outcome: "cancelled"}
	}))
	r, stdout, stderr := apiRunner(t, srv)
	code := runCode(r, append([]string{"deploy", "--wait", "--timeout", "100ms"}, fast...))
	out := stdout.String() + stderr.String()
	if code != cli.ExitFailure {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	id := onlyDeployment(t, srv).ID
	wantAll(t, out, "cancelled, an unknown status: still watching", "timed out after 100ms watching deployment "+id,
		"resume with: docsbot deploy status "+id+" --wait")
	if n := srv.Count(docsapitest.EndpointDeploy); n != 1 {
		t.Errorf("%d deploy requests, want 1", n)
	}
}

func TestDeployErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		srvOpts  []docsapitest.Option
		faults   []docsapitest.Fault
		before   [][]string // commands run first, which must succeed
		wantCode int
		want     []string
		requests map[docsapitest.Endpoint]int
	}{
		{name: "outcome unknown", args: []string{"deploy"},
			faults:   []docsapitest.Fault{{Endpoint: docsapitest.EndpointDeploy, Status: http.StatusBadGateway, AfterAct: true}},
			wantCode: cli.ExitFailure, want: []string{"no answer from the docs API for the deployment request", "502 Bad Gateway", "may have been started", "dashboard"},
			requests: map[docsapitest.Endpoint]int{docsapitest.EndpointDeploy: 1}},
		{name: "rate limited", args: []string{"deploy"},
			// Longer than the client waits (20s), so it is not retried.
			faults:   []docsapitest.Fault{{Endpoint: docsapitest.EndpointDeploy, Status: http.StatusTooManyRequests, RetryAfter: 30 * time.Second}},
			wantCode: cli.ExitFailure, want: []string{"rate limited by the docs API: try again in 30s", "10 deployments per 10 seconds"},
			requests: map[docsapitest.Endpoint]int{docsapitest.EndpointDeploy: 1}},
		{name: "previews rate limited", args: []string{"deploy", "preview", "docs"},
			faults:   []docsapitest.Fault{{Endpoint: docsapitest.EndpointPreview, Status: http.StatusTooManyRequests, RetryAfter: time.Minute}},
			wantCode: cli.ExitFailure, want: []string{"try again in 1m", "5 previews per minute"},
			requests: map[docsapitest.Endpoint]int{docsapitest.EndpointPreview: 1}},
		{name: "previews off", args: []string{"deploy", "preview", "docs"}, srvOpts: []docsapitest.Option{docsapitest.WithPreviews(false)},
			wantCode: cli.ExitFailure, want: []string{"refused the preview", "preview deployments are not available on your plan", "403 Forbidden", "write scope"},
			requests: map[docsapitest.Endpoint]int{docsapitest.EndpointPreview: 1}},
		{name: "branch refused by the API", args: []string{"deploy", "preview", "gone"},
			faults:   []docsapitest.Fault{{Endpoint: docsapitest.EndpointPreview, Status: http.StatusBadRequest, Body: `{"error":"branch not found"}`}},
			wantCode: cli.ExitFailure, want: []string{"rejected the preview: branch not found", "check the BRANCH"},
			requests: map[docsapitest.Endpoint]int{docsapitest.EndpointPreview: 1}},
		{name: "invalid branch", args: []string{"deploy", "preview", "a..b"},
			wantCode: cli.ExitUsage, want: []string{`invalid BRANCH: must not contain ".."`},
			requests: map[docsapitest.Endpoint]int{docsapitest.EndpointPreview: 0}},
		{name: "missing branch", args: []string{"deploy", "preview"}, wantCode: cli.ExitUsage, want: []string{"missing branch"}},
		{name: "two branches", args: []string{"deploy", "preview", "a", "b"}, wantCode: cli.ExitUsage, want: []string{`unexpected argument "b"`}},
		{name: "unknown deployment", args: []string{"deploy", "status", "ffffffffffffffffffffffff"},
			wantCode: cli.ExitFailure, want: []string{"deployment ffffffffffffffffffffffff not found", "check the status ID"}},
		{name: "unknown deployment while waiting", args: append([]string{"deploy", "status", "nope", "--wait"}, fast...),
			wantCode: cli.ExitFailure, want: []string{"deployment nope not found"}},
		{name: "missing status ID", args: []string{"deploy", "status"}, wantCode: cli.ExitUsage, want: []string{"missing status ID"}},
		{name: "unknown subcommand", args: []string{"deploy", "stauts"}, wantCode: cli.ExitUsage, want: []string{`unknown subcommand "stauts"`}},
		{name: "argument after flags", args: []string{"deploy", "--wait", "now"}, wantCode: cli.ExitUsage, want: []string{`unknown subcommand "now"`}},
		{name: "bad interval", args: []string{"deploy", "--wait", "--interval", "0s"}, wantCode: cli.ExitUsage, want: []string{"--interval must be positive"},
			requests: map[docsapitest.Endpoint]int{docsapitest.EndpointDeploy: 0}},
		{name: "refused key", args: []string{"deploy"},
			faults:   []docsapitest.Fault{{Endpoint: docsapitest.EndpointDeploy, Status: http.StatusForbidden}},
			wantCode: cli.ExitFailure, want: []string{"refused to deploy project", "write scope"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, tt.srvOpts...)
			for _, args := range tt.before {
				r, _, stderr := apiRunner(t, srv)
				if code := runCode(r, args); code != 0 {
					t.Fatalf("%v: exit %d: %s", args, code, stderr)
				}
			}
			for _, f := range tt.faults {
				srv.AddFault(f)
			}
			r, stdout, stderr := apiRunner(t, srv)
			code := runCode(r, tt.args)
			out := stdout.String() + stderr.String()
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d:\n%s", code, tt.wantCode, out)
			}
			wantAll(t, out, tt.want...)
			if strings.Contains(out, srv.Key) {
				t.Errorf("output shows the API key:\n%s", out)
			}
			for e, n := range tt.requests {
				if got := srv.Count(e); got != n {
					t.Errorf("%d requests to %s, want %d", got, e, n)
				}
			}
		})
	}
}

func TestDeployHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"deploy", "help"}, {"help", "deploy", "preview"}, {"deploy", "-h"}, {"deploy", "status", "-h"}} {
		r, stdout, stderr := apiRunner(t, newServer(t))
		if code := runCode(r, args); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
		wantAll(t, stdout.String()+stderr.String(), "docsbot deploy")
	}
}
