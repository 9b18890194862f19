package docsapitest

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
)

// millis is how the service writes times.
const millis = "2006-01-02T15:04:05.000Z07:00"

func deployPath(srv *Server) string  { return "/v1/project/update/" + srv.ProjectID }
func previewPath(srv *Server) string { return "/v1/project/preview/" + srv.ProjectID }
func statusPath(id string) string    { return "/v1/project/update-status/" + id }

func branchBody(b string) string {
	raw, _ := json.Marshal(map[string]string{"branch": b})
	return string(raw)
}

// started is a 202 answer of M1 or M3.
type started struct {
	StatusID   string `json:"statusId"`
	PreviewURL string `json:"previewUrl"`
}

func mustStarted(t testing.TB, r reply) started {
	t.Helper()
	if r.status != http.StatusAccepted {
		t.Fatalf("status %d, want 202; body %s", r.status, r.body)
	}
	var s started
	if err := json.Unmarshal(r.body, &s); err != nil || s.StatusID == "" {
		t.Fatalf("decode %s: %v (statusId %q)", r.body, err, s.StatusID)
	}
	return s
}

// wireStatus is M2's document as sent.
type wireStatus struct {
	ID        string              `json:"_id"`
	ProjectID string              `json:"projectId"`
	Status    docsapi.DeployState `json:"status"`
	CreatedAt string              `json:"createdAt"`
	EndedAt   *string             `json:"endedAt"`
	Summary   string              `json:"summary"`
	Logs      []string            `json:"logs"`
	Subdomain string              `json:"subdomain"`
	Author    *struct {
		Name         string  `json:"name"`
		AvatarURL    string  `json:"avatarUrl"`
		GitHubUserID float64 `json:"githubUserId"`
	} `json:"author"`
	Commit docsapi.DeployCommit `json:"commit"`
	Source string               `json:"source"`
}

func getStatus(t testing.TB, srv *Server, id string) wireStatus {
	t.Helper()
	r := do(t, srv, http.MethodGet, statusPath(id), "")
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200; body %s", r.status, r.body)
	}
	var w wireStatus
	if err := json.Unmarshal(r.body, &w); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
	return w
}

func TestDefaultDeployLifecycle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r    DeployRequest
		want docsapi.DeployState
	}{
		{DeployRequest{Branch: "main"}, docsapi.DeploySuccess},
		{DeployRequest{Branch: "fail"}, docsapi.DeploySuccess}, // only previews read the branch
		{DeployRequest{Preview: true, Branch: "feature/webhooks"}, docsapi.DeploySuccess},
		{DeployRequest{Preview: true, Branch: "fix/fail-build"}, docsapi.DeployFailure},
		{DeployRequest{Preview: true, Branch: "FAIL"}, docsapi.DeployFailure},
		{DeployRequest{Preview: true, Branch: "failover"}, docsapi.DeploySuccess},
	} {
		got := DefaultDeployLifecycle(tc.r)
		if got.Outcome != tc.want || got.QueuedPolls != 1 || got.RunningPolls != 1 || got.ActiveFor != 0 {
			t.Errorf("DefaultDeployLifecycle(%+v) = %+v, want %s after 1+1 polls", tc.r, got, tc.want)
		}
	}
	timed := TimedDeployLifecycle(time.Minute)(DeployRequest{Preview: true, Branch: "fail"})
	if timed.Outcome != docsapi.DeployFailure || timed.QueuedFor != 12*time.Second || timed.ActiveFor != time.Minute {
		t.Errorf("TimedDeployLifecycle = %+v", timed)
	}
}

func TestDeployLifecycle(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	srv := startServer(t, WithClock(clock.Now))
	for _, tc := range []struct {
		name   string
		start  func() started
		want   docsapi.DeployState
		ref    string
		sub    string
		failed bool
	}{
		{"deploy", func() started { return mustStarted(t, do(t, srv, http.MethodPost, deployPath(srv), "")) },
			docsapi.DeploySuccess, "main", "acme", false},
		{"failing deploy", func() started {
			srv.FailNextDeploy()
			return mustStarted(t, do(t, srv, http.MethodPost, deployPath(srv), ""))
		}, docsapi.DeployFailure, "main", "acme", true},
		{"preview", func() started {
			return mustStarted(t, do(t, srv, http.MethodPost, previewPath(srv), branchBody("Feature/Web_Hooks")))
		}, docsapi.DeploySuccess, "Feature/Web_Hooks", "acme-feature-web-hooks", false},
		{"failing preview", func() started {
			return mustStarted(t, do(t, srv, http.MethodPost, previewPath(srv), branchBody("fix/fail-build")))
		}, docsapi.DeployFailure, "fix/fail-build", "acme-fix-fail-build", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.ResetRequests()
			startedAt := clock.Now()
			s := tc.start()
			if !regexp.MustCompile(`^[0-9a-f]{24}$`).MatchString(s.StatusID) {
				t.Errorf("statusId %q, want 24 hex digits", s.StatusID)
			}
			preview := strings.Contains(tc.name, "preview")
			if want := "https://" + tc.sub + ".mintlify.app"; preview && s.PreviewURL != want {
				t.Errorf("previewUrl %q, want %q", s.PreviewURL, want)
			}
			st, ok := srv.Deployment(s.StatusID)
			if !ok || st.Status != docsapi.DeployQueued {
				t.Fatalf("Deployment(%s) = %+v, %v; want queued", s.StatusID, st, ok)
			}

			clock.Advance(3 * time.Second)
			var seen []docsapi.DeployState
			var last wireStatus
			for range 4 {
				last = getStatus(t, srv, s.StatusID)
				seen = append(seen, last.Status)
				if last.Status.Done() != (last.EndedAt != nil) {
					t.Errorf("%s: endedAt %v", last.Status, last.EndedAt)
				}
			}
			if want := []docsapi.DeployState{docsapi.DeployQueued, docsapi.DeployInProgress, tc.want, tc.want}; !equalStates(seen, want) {
				t.Errorf("states %v, want %v", seen, want)
			}
			if last.ID != s.StatusID || last.ProjectID != srv.ProjectID || last.Source != "api" || last.Subdomain != tc.sub {
				t.Errorf("id %q project %q source %q subdomain %q", last.ID, last.ProjectID, last.Source, last.Subdomain)
			}
			if last.CreatedAt != startedAt.Format(millis) || *last.EndedAt != startedAt.Add(3*time.Second).Format(millis) {
				t.Errorf("createdAt %q endedAt %q", last.CreatedAt, *last.EndedAt)
			}
			c := last.Commit
			if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(c.SHA) || c.Ref != tc.ref || c.Message == "" ||
				len(c.FilesChanged.Added)+len(c.FilesChanged.Modified)+len(c.FilesChanged.Removed) == 0 {
				t.Errorf("commit %+v", c)
			}
			if last.Author == nil || last.Author.Name == "" || last.Author.GitHubUserID == 0 {
				t.Errorf("author %+v", last.Author)
			}
			if last.Summary == "" || len(last.Logs) < 3 {
				t.Errorf("summary %q logs %q", last.Summary, last.Logs)
			}
			endLine := last.Logs[len(last.Logs)-1]
			if tc.failed != strings.HasPrefix(endLine, "Error: ") {
				t.Errorf("last log line %q (failed %v)", endLine, tc.failed)
			}
			endpoint := EndpointDeploy
			if preview {
				endpoint = EndpointPreview
			}
			if srv.Count(endpoint) != 1 || srv.Count(EndpointDeployStatus) != 4 {
				t.Errorf("counts: %s %d, status %d", endpoint, srv.Count(endpoint), srv.Count(EndpointDeployStatus))
			}
		})
	}
	if n := len(srv.Deployments()); n != 4 {
		t.Errorf("%d deployments, want 4", n)
	}
}

func equalStates(a, b []docsapi.DeployState) bool {
	return strings.Join(statesText(a), ",") == strings.Join(statesText(b), ",")
}

func statesText(s []docsapi.DeployState) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return out
}

func TestFailNextDeployOnce(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithDeployLifecycle(func(DeployRequest) DeployLifecycle { return DeployLifecycle{} }))
	srv.FailNextDeploy()
	srv.FailNextDeploy()
	var got []docsapi.DeployState
	for range 3 {
		s := mustStarted(t, do(t, srv, http.MethodPost, deployPath(srv), ""))
		got = append(got, getStatus(t, srv, s.StatusID).Status)
	}
	if want := []docsapi.DeployState{docsapi.DeployFailure, docsapi.DeployFailure, docsapi.DeploySuccess}; !equalStates(got, want) {
		t.Errorf("states %v, want %v", got, want)
	}
}

func TestTimedDeployLifecycle(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	srv := startServer(t, WithClock(clock.Now), WithDeployLifecycle(TimedDeployLifecycle(time.Minute)))
	s := mustStarted(t, do(t, srv, http.MethodPost, deployPath(srv), ""))
	for _, step := range []struct {
		advance time.Duration
		want    docsapi.DeployState
	}{
		{0, docsapi.DeployQueued},
		{0, docsapi.DeployQueued}, // the poll is spent, the time is not
		{12 * time.Second, docsapi.DeployInProgress},
		{0, docsapi.DeployInProgress},
		{47 * time.Second, docsapi.DeployInProgress},
		{time.Second, docsapi.DeploySuccess},
	} {
		clock.Advance(step.advance)
		if got := getStatus(t, srv, s.StatusID).Status; got != step.want {
			t.Fatalf("at %s: %s, want %s", clock.Now().Sub(clockStart()), got, step.want)
		}
	}
}

func TestSetDeployStatus(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	s := mustStarted(t, do(t, srv, http.MethodPost, deployPath(srv), ""))
	srv.SetDeployStatus(s.StatusID, "cancelled")
	for range 3 {
		if got := getStatus(t, srv, s.StatusID).Status; got != "cancelled" {
			t.Fatalf("status %q, want cancelled kept", got)
		}
	}
	srv.SetDeployStatus(s.StatusID, docsapi.DeployFailure)
	w := getStatus(t, srv, s.StatusID)
	if w.Status != docsapi.DeployFailure || w.EndedAt == nil || !strings.HasPrefix(w.Logs[len(w.Logs)-1], "Error: ") {
		t.Errorf("forced failure: %+v", w)
	}
	srv.SetDeployStatus(s.StatusID, docsapi.DeployQueued)
	if w := getStatus(t, srv, s.StatusID); w.Status != docsapi.DeployQueued || w.EndedAt != nil {
		t.Errorf("forced queued: %+v", w)
	}
	srv.SetDeployStatus("nope", docsapi.DeploySuccess) // ignored
}

func TestDeployErrors(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithLimits(Limits{})) // refused previews count against the limit too
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		msg                      string
	}{
		{"unknown status", http.MethodGet, statusPath("ffffffffffffffffffffffff"), "", http.StatusNotFound, msgNoDeployment},
		{"deploy other project", http.MethodPost, "/v1/project/update/other", "", http.StatusNotFound, msgNoProject},
		{"preview other project", http.MethodPost, "/v1/project/preview/other", branchBody("x"), http.StatusNotFound, msgNoProject},
		{"get deploy", http.MethodGet, deployPath(srv), "", http.StatusMethodNotAllowed, msgMethodNotAllowed},
		{"post status", http.MethodPost, statusPath("x"), "", http.StatusMethodNotAllowed, msgMethodNotAllowed},
		{"empty status id", http.MethodGet, statusPath(""), "", http.StatusNotFound, msgNotFound},
		{"no body", http.MethodPost, previewPath(srv), "", http.StatusBadRequest, msgBadJSON},
		{"not JSON", http.MethodPost, previewPath(srv), "branch=main", http.StatusBadRequest, msgBadJSON},
		{"not an object", http.MethodPost, previewPath(srv), `["main"]`, http.StatusBadRequest, msgNotObject},
		{"no branch", http.MethodPost, previewPath(srv), `{}`, http.StatusBadRequest, msgBranchRequired},
		{"null branch", http.MethodPost, previewPath(srv), `{"branch":null}`, http.StatusBadRequest, msgBranchRequired},
		{"number branch", http.MethodPost, previewPath(srv), `{"branch":7}`, http.StatusBadRequest, msgBranchNotString},
		{"empty branch", http.MethodPost, previewPath(srv), `{"branch":""}`, http.StatusBadRequest, msgBranchInvalid},
		{"dots", http.MethodPost, previewPath(srv), branchBody("a..b"), http.StatusBadRequest, msgBranchInvalid},
		{"space", http.MethodPost, previewPath(srv), branchBody("my branch"), http.StatusBadRequest, msgBranchInvalid},
		{"lock", http.MethodPost, previewPath(srv), branchBody("x.lock"), http.StatusBadRequest, msgBranchInvalid},
		{"long", http.MethodPost, previewPath(srv), branchBody(strings.Repeat("b", 256)), http.StatusBadRequest, msgBranchInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if e := mustError(t, do(t, srv, tc.method, tc.path, tc.body), tc.status); e.Error != tc.msg {
				t.Errorf("error %q, want %q", e.Error, tc.msg)
			}
		})
	}
	t.Run("bad key", func(t *testing.T) {
		r, err := send(t, t.Context(), http.MethodPost, srv.URL+deployPath(srv), "Bearer wrong", "")
		if err != nil {
			t.Fatal(err)
		}
		mustError(t, r, http.StatusUnauthorized)
	})
	if n := len(srv.Deployments()); n != 0 {
		t.Errorf("%d deployments after refused requests", n)
	}
}

func TestPreviewsOff(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithPreviews(false))
	if e := mustError(t, do(t, srv, http.MethodPost, previewPath(srv), branchBody("docs")), http.StatusForbidden); e.Error != msgPreviewsNotAllowed {
		t.Errorf("error %q", e.Error)
	}
	// The plan is checked before the body.
	mustError(t, do(t, srv, http.MethodPost, previewPath(srv), `{}`), http.StatusForbidden)
	// Deployments are not previews.
	mustStarted(t, do(t, srv, http.MethodPost, deployPath(srv), ""))
	srv.SetPreviews(true)
	mustStarted(t, do(t, srv, http.MethodPost, previewPath(srv), branchBody("docs")))
}

func TestDeployRateLimits(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	srv := startServer(t, WithClock(clock.Now))
	deploy := func() reply { return do(t, srv, http.MethodPost, deployPath(srv), "") }
	preview := func() reply { return do(t, srv, http.MethodPost, previewPath(srv), branchBody("docs")) }

	for i := range 10 {
		mustStarted(t, deploy())
		if i == 0 {
			clock.Advance(4 * time.Second)
		}
	}
	expectLimited(t, deploy(), 6) // the first leaves the 10 s window at t0+10s
	clock.Advance(6 * time.Second)
	mustStarted(t, deploy())
	expectLimited(t, deploy(), 4)

	for range 5 {
		mustStarted(t, preview()) // a window of its own
	}
	expectLimited(t, preview(), 60)
	clock.Advance(59 * time.Second)
	expectLimited(t, preview(), 1)
	clock.Advance(time.Second)
	mustStarted(t, preview())
	if n := len(srv.Deployments()); n != 11+6 {
		t.Errorf("%d deployments, want 17: refused requests start none", n)
	}
	// Following a deployment has no published limit.
	id := srv.Deployments()[0].ID
	for range 30 {
		getStatus(t, srv, id)
	}
}

func TestDeployFaults(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithFloatCounts(true))
	srv.AddFault(Fault{Endpoint: EndpointDeploy, Malformed: true, Times: 1})
	r := do(t, srv, http.MethodPost, deployPath(srv), "")
	if r.status != http.StatusAccepted || json.Valid(r.body) {
		t.Errorf("malformed fault: %d %s", r.status, r.body)
	}
	if n := len(srv.Deployments()); n != 0 {
		t.Errorf("a fault before acting started %d deployments", n)
	}
	srv.AddFault(Fault{Endpoint: EndpointDeploy, Status: http.StatusBadGateway, AfterAct: true, Times: 1})
	mustError(t, do(t, srv, http.MethodPost, deployPath(srv), ""), http.StatusBadGateway)
	deps := srv.Deployments()
	if len(deps) != 1 {
		t.Fatalf("%d deployments after a fault after acting, want 1", len(deps))
	}
	srv.AddFault(Fault{Endpoint: EndpointDeployStatus, Malformed: true, Times: 1})
	if r := do(t, srv, http.MethodGet, statusPath(deps[0].ID), ""); r.status != http.StatusOK || json.Valid(r.body) {
		t.Errorf("malformed status fault: %d %s", r.status, r.body)
	}
	// WithFloatCounts writes githubUserId with a fraction.
	if r := do(t, srv, http.MethodGet, statusPath(deps[0].ID), ""); !strings.Contains(string(r.body), `"githubUserId":1000001.0`) {
		t.Errorf("body %s has no float githubUserId", r.body)
	}
}

// TestDeployLifecycleLogs: a lifecycle's Logs end the logs of the
// deployment, whatever they say, and a failure's summary ends with the last.
func TestDeployLifecycleLogs(t *testing.T) {
	t.Parallel()
	lines := []string{"npm ERR! 401 Unauthorized: token mint_0123456789abcdefghij", "Error: DB_PASSWORD=hunter2 refused"}
	for _, outcome := range []docsapi.DeployState{docsapi.DeployFailure, docsapi.DeploySuccess} {
		srv := startServer(t, WithDeployLifecycle(func(DeployRequest) DeployLifecycle {
			return DeployLifecycle{Outcome: outcome, Logs: lines}
		}))
		s := mustStarted(t, do(t, srv, http.MethodPost, deployPath(srv), ""))
		var w wireStatus
		for range 3 {
			w = getStatus(t, srv, s.StatusID)
		}
		if w.Status != outcome || len(w.Logs) < len(lines) || strings.Join(w.Logs[len(w.Logs)-2:], "\n") != strings.Join(lines, "\n") {
			t.Errorf("%s: status %s, logs %q, want them to end with %q", outcome, w.Status, w.Logs, lines)
		}
		if outcome == docsapi.DeployFailure && !strings.HasSuffix(w.Summary, lines[1]) {
			t.Errorf("failure's summary %q, want it to end with the last line", w.Summary)
		}
	}
}
