package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/cmd/internal/testbin"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store/redistest"
)

// cliBuild is the docsbot binary, built once for the package as
// testbin.Build builds it: TestMain starts the build, and the tests that run
// the binary wait for it (cliBinary) while the others run. sharedRedis (redis_test.go) is started
// in TestMain too.
var cliBuild struct {
	path string
	done chan struct{} // closed when the build has ended
	err  error
}

func TestMain(m *testing.M) {
	// The tests mostly wait on the processes and servers they start, not
	// compute: 8 at once, not one a core, unless go test was given
	// -parallel.
	redistest.Parallel(8)
	dir, err := os.MkdirTemp("", "docsbot-cli-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cliBuild.path = filepath.Join(dir, "docsbot")
	cliBuild.done = make(chan struct{})
	go func() {
		defer close(cliBuild.done)
		if err := testbin.Build(context.Background(), cliBuild.path); err != nil {
			cliBuild.err = fmt.Errorf("building docsbot: %w", err)
		}
	}()
	if sharedRedis, err = redistest.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "starting the shared Redis:", err)
		<-cliBuild.done
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	<-cliBuild.done
	_ = sharedRedis.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cliBinary waits for the build TestMain started and returns the binary.
func cliBinary(t *testing.T) string {
	t.Helper()
	<-cliBuild.done
	if cliBuild.err != nil {
		t.Fatal(cliBuild.err)
	}
	return cliBuild.path
}

// cliResult is what one run of the binary printed and how it exited.
type cliResult struct {
	stdout, stderr string
	code           int
}

// docsbotCmd prepares the binary with srv's settings in its environment (and
// nothing else), in an empty working directory.
func docsbotCmd(t *testing.T, srv *docsapitest.Server, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(cliBinary(t), args...)
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"HOME=" + cmd.Dir}
	if srv != nil {
		cmd.Env = append(cmd.Env, envAPIURL+"="+srv.URL, envAPIKey+"="+srv.Key, envProject+"="+srv.ProjectID)
	}
	cmd.Env = append(cmd.Env, env...) // later entries win
	return cmd
}

// docsbot runs the binary to the end.
func docsbot(t *testing.T, srv *docsapitest.Server, env []string, args ...string) cliResult {
	t.Helper()
	cmd := docsbotCmd(t, srv, env, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return finish(t, cmd.Run(), &stdout, &stderr)
}

func finish(t *testing.T, err error, stdout, stderr *bytes.Buffer) cliResult {
	t.Helper()
	res := cliResult{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running docsbot: %v", err)
	}
	return res
}

func (r cliResult) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

func TestCLIJobLifecycle(t *testing.T) {
	t.Parallel()
	srv := newServer(t, lifecycle(2, docsapitest.OutcomePR))

	res := docsbot(t, srv, nil, "jobs", "create", "--prompt", "Document the rate limits", "--format", "json")
	if res.code != 0 {
		t.Fatalf("create: %s", res)
	}
	var created docsapi.Job
	if err := json.Unmarshal([]byte(res.stdout), &created); err != nil {
		t.Fatalf("create printed no job JSON: %v\n%s", err, res)
	}
	if _, ok := srv.Job(created.ID); !ok || created.Status != docsapi.StatusActive {
		t.Fatalf("created %+v, server knows it: %t", created, ok)
	}

	res = docsbot(t, srv, nil, "jobs", "get", created.ID)
	want, _ := srv.Job(created.ID)
	if res.code != 0 || !strings.Contains(res.stdout, "active") || !strings.Contains(res.stdout, want.Source.Repository) {
		t.Fatalf("get: %s", res)
	}

	res = docsbot(t, srv, nil, "jobs", "message", created.ID, "--prompt", "Also update the changelog")
	if res.code != 0 || !strings.Contains(res.stdout, "docsbot jobs watch "+created.ID) {
		t.Fatalf("message: %s", res)
	}
	if got := srv.Prompts(created.ID); !reflect.DeepEqual(got, []string{"Document the rate limits", "Also update the changelog"}) {
		t.Fatalf("server prompts = %q", got)
	}

	res = docsbot(t, srv, nil, "jobs", "watch", created.ID, "--interval", "10ms", "--max-interval", "40ms")
	final, _ := srv.Job(created.ID)
	if res.code != 0 || final.Status != docsapi.StatusCompleted || final.PR() == "" {
		t.Fatalf("watch: %s\nserver job: %+v", res, final)
	}
	if wantEnd := "Job " + created.ID + " completed: pull request " + final.PR() + "\n"; !strings.HasSuffix(res.stdout, wantEnd) {
		t.Fatalf("watch output does not end with %q:\n%s", wantEnd, res)
	}
}

func TestCLIVisitors(t *testing.T) {
	t.Parallel()
	clock := time.Date(2025, 11, 20, 12, 0, 0, 0, time.UTC)
	ds := docsapitest.NewDataset(613, 1)
	srv := newServer(t, docsapitest.WithDataset(ds), docsapitest.WithClock(func() time.Time { return clock }))
	from, to := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 11, 15, 0, 0, 0, 0, time.UTC)
	wantPages, wantTotals := ds.Pages(from, to), ds.Totals(from, to)
	if len(wantPages) != 613 {
		t.Fatalf("dataset has %d pages with visitors in range, want all 613", len(wantPages))
	}
	dates := []string{"--from", "2025-01-01", "--to", "2025-11-15"}

	res := docsbot(t, srv, nil, append([]string{"visitors", "--format", "json"}, dates...)...)
	if res.code != 0 {
		t.Fatalf("visitors json: %s", res)
	}
	var got docsapi.VisitorsPage
	if err := json.Unmarshal([]byte(res.stdout), &got); err != nil {
		t.Fatalf("stdout is not one JSON object: %v", err)
	}
	if got.Totals != wantTotals || got.HasMore || !reflect.DeepEqual(got.Visitors, wantPages) {
		t.Fatalf("visitors json: totals %+v (want %+v), hasMore %t, %d rows (want %d, equal: %t)",
			got.Totals, wantTotals, got.HasMore, len(got.Visitors), len(wantPages), reflect.DeepEqual(got.Visitors, wantPages))
	}
	if n := srv.Count(docsapitest.EndpointVisitors); n != 3 {
		t.Errorf("server saw %d visitor requests, want 3 (613 paths, 250 a page)", n)
	}
	for _, req := range srv.Requests() {
		if q := req.Query; q.Get("dateFrom") != "2025-01-01" || q.Get("dateTo") != "2025-11-15" || q.Get("limit") != "250" {
			t.Errorf("request query %v", q)
		}
	}

	res = docsbot(t, srv, nil, append([]string{"visitors", "--format", "csv"}, dates...)...)
	if res.code != 0 {
		t.Fatalf("visitors csv: %s", res)
	}
	recs, err := csv.NewReader(strings.NewReader(res.stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(wantPages)+1 || strings.Join(recs[0], ",") != "path,human,ai,total" {
		t.Fatalf("csv has %d records (want %d) and header %q", len(recs), len(wantPages)+1, recs[0])
	}

	res = docsbot(t, srv, nil, append([]string{"visitors"}, dates...)...)
	top := wantPages[0]
	for _, want := range []string{humanize.Count(int64(wantTotals.Total)), term.Share(wantTotals.AI, wantTotals.Total), top.Path, humanize.Count(int64(top.Total)), "613 paths", "2025-01-01 to 2025-11-14 inclusive"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("table does not contain %q", want)
		}
	}
	if res.code != 0 || res.stderr != "" {
		t.Fatalf("visitors table: %s", res)
	}
}

func TestCLIErrors(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	const wrongKey = "mint_wrong_0123456789abcdefghij"
	tests := []struct {
		name     string
		env      []string
		args     []string
		wantCode int
		want     string
	}{
		{"wrong key", []string{envAPIKey + "=" + wrongKey}, []string{"jobs", "get", "job_1"}, 1, "check DOCS_API_KEY"},
		{"wrong key on visitors", []string{envAPIKey + "=" + wrongKey}, []string{"visitors", "--format", "csv"}, 1, "check DOCS_API_KEY"},
		{"no key", []string{envAPIKey + "="}, []string{"jobs", "create", "--prompt", "x"}, 2, "docsbot: DOCS_API_KEY is not set"},
		{"unknown command", nil, []string{"publish"}, 2, "Usage:"},
		{"no arguments", nil, nil, 2, "missing SLACK_BOT_TOKEN, SLACK_APP_TOKEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := docsbot(t, srv, tt.env, tt.args...)
			if res.code != tt.wantCode || !strings.Contains(res.stderr, tt.want) {
				t.Fatalf("want exit %d and %q on stderr; got %s", tt.wantCode, tt.want, res)
			}
			if strings.Contains(res.stdout+res.stderr, wrongKey) || strings.Contains(res.stdout+res.stderr, srv.Key) {
				t.Fatalf("output shows an API key: %s", res)
			}
		})
	}
}

func TestCLIInterruptedWatch(t *testing.T) {
	t.Parallel()
	srv := newServer(t, lifecycle(1_000_000, docsapitest.OutcomePR))
	res := docsbot(t, srv, nil, "jobs", "create", "--prompt", "x", "--format", "json")
	var job docsapi.Job
	if err := json.Unmarshal([]byte(res.stdout), &job); err != nil {
		t.Fatalf("create: %v\n%s", err, res)
	}
	cmd := docsbotCmd(t, srv, nil, "jobs", "watch", job.ID, "--interval", "5ms", "--max-interval", "5ms")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	before := srv.Count(docsapitest.EndpointGet)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	redistest.Until(t, "the watch to poll", func() bool { return srv.Count(docsapitest.EndpointGet) >= before+3 })
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	res = finish(t, cmd.Wait(), &stdout, &stderr)
	if res.code != cli.ExitInterrupted || !strings.Contains(res.stderr, "interrupted: stopped watching job "+job.ID+" (last status: active)") {
		t.Fatalf("after SIGINT: %s", res)
	}
}
