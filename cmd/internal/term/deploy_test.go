package term_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

func TestExplainDeploy(t *testing.T) {
	t.Parallel()
	const key = "mint_live_abcdefghijklmnopqrstuvwxyz"
	now := time.Date(2025, 11, 3, 14, 4, 30, 0, time.UTC)
	inputs := map[string]string{"interval": "--interval", "apikey": "DOCS_API_KEY", "projectid": "DOCS_PROJECT_ID", "baseurl": "DOCS_API_URL",
		"branch": "BRANCH", "status id": "status ID"}
	apiErr := func(status int, msg string, after time.Duration) *docsapi.APIError {
		return &docsapi.APIError{StatusCode: status, Message: msg, Method: "POST", Path: "/v1/project/preview/proj_42", RetryAfter: after}
	}
	previewsOff := fmt.Errorf("%w: %w", docsapi.ErrPreviewsNotAllowed, apiErr(403, "preview deployments are not available on your plan", 0))
	tests := []struct {
		name, op, id string
		err          error
		want         []string
	}{
		{"deploy outcome unknown", term.OpDeploy, "", fmt.Errorf("%w: %w", docsapi.ErrOutcomeUnknown, apiErr(502, "bad gateway", 0)),
			[]string{"no answer from the docs API for the deployment request", "502 Bad Gateway", "the deployment may have been started", "dashboard"}},
		{"preview outcome unknown", term.OpPreview, "", fmt.Errorf("%w: timeout", docsapi.ErrOutcomeUnknown), []string{"the preview may have been started"}},
		{"previews off", term.OpPreview, "", previewsOff, []string{"refused the preview", "not available on your plan (403 Forbidden)", "write scope", "DOCS_API_KEY"}},
		{"deploy forbidden", term.OpDeploy, "", apiErr(403, "", 0), []string{"refused to deploy project proj_42 with the API key mint_…wxyz", "write scope"}},
		{"deploy rate limited", term.OpDeploy, "", apiErr(429, "rate limit exceeded", 7*time.Second),
			[]string{"try again in 7s (at 14:04:37 UTC)", "10 deployments per 10 seconds"}},
		{"preview rate limited", term.OpPreview, "", apiErr(429, "", 0), []string{"try again later", "5 previews per minute"}},
		{"status rate limited", term.OpDeployWatch, "s1", apiErr(429, "", 0), []string{"raise --interval"}},
		{"bad branch", term.OpPreview, "", apiErr(400, "branch not found", 0), []string{"rejected the preview: branch not found (400 Bad Request)", "check the BRANCH"}},
		{"deploy refused", term.OpDeploy, "", apiErr(400, "no deployment branch", 0), []string{"rejected the deployment", "deployment branch"}},
		{"unknown deployment", term.OpDeployStatus, "s1", apiErr(404, "deployment not found", 0), []string{"deployment s1 not found", "check the status ID"}},
		{"unknown project on deploy", term.OpDeploy, "", apiErr(404, "project not found", 0), []string{"project proj_42 not found", "DOCS_PROJECT_ID"}},
		{"validation", term.OpPreview, "", &docsapi.ValidationError{Field: "branch", Problem: "must not be empty"}, []string{"invalid BRANCH: must not be empty"}},
		{"wrong key on status", term.OpDeployStatus, "s1", apiErr(401, "", 0), []string{"refused the API key mint_…wxyz"}},
		{"server error on status", term.OpDeployStatus, "s1", apiErr(500, "boom "+key, 0), []string{"the docs API failed: boom mint_…wxyz"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x := term.Explain(tt.err, term.APIRequest{Op: tt.op, JobID: tt.id, BaseURL: "https://api.example", APIKey: key,
				ProjectID: "proj_42", KeyFrom: "environment variable DOCS_API_KEY", Now: now,
				Input: func(f string) string { return inputs[f] }})
			text := x.Message + "\n" + x.Fix
			for _, want := range tt.want {
				if !strings.Contains(text, want) {
					t.Errorf("explanation does not contain %q:\n%s", want, text)
				}
			}
			if strings.Contains(text, key) {
				t.Errorf("explanation shows the API key:\n%s", text)
			}
		})
	}
}

func TestWriteDeployStatus(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	logs := make([]string, 25)
	for i := range logs {
		logs[i] = fmt.Sprintf("line %d", i+1)
	}
	logs[24] = "Error: \x1b[31mred\x1b[0m"
	st := &docsapi.DeployStatus{ID: "s1", Status: docsapi.DeployFailure, Summary: "Build failed", Subdomain: "acme",
		Commit:    docsapi.DeployCommit{SHA: "0123456789abcdef", Ref: "main", Message: "Fix links\n\nlong body", FilesChanged: docsapi.FilesChanged{Added: []string{"a"}, Removed: []string{"b", "c"}}},
		Author:    &docsapi.DeployAuthor{Name: "docs-writer"},
		CreatedAt: created, EndedAt: created.Add(83 * time.Second), Logs: logs, Source: "api"}
	var b bytes.Buffer
	if err := term.WriteDeployStatus(&b, st); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"id       s1\n", "status   failure\n", "commit   0123456 on main: Fix links\n", "files    1 added, 0 modified, 2 removed\n",
		"ended    2026-01-02 03:05:28 UTC (took 1m23s)\n", "… 5 earlier lines", "  line 6\n", "  Error: [31mred[0m\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not contain %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "line 5\n") || strings.Contains(out, "\x1b") || strings.Contains(out, "long body") {
		t.Errorf("output shows what it should not:\n%q", out)
	}

	b.Reset()
	if err := term.WriteDeployStatus(&b, &docsapi.DeployStatus{ID: "s2", Status: "cancelled"}); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "cancelled (not a documented state") || strings.Contains(out, "logs:") {
		t.Errorf("minimal status:\n%s", out)
	}
}

func TestDeployProgress(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := term.NewDeployProgress(&b, "s1", func() time.Time { return now })
	p.UpdateDeploy(docsapi.DeployQueued, true)
	p.UpdateDeploy(docsapi.DeployQueued, false)
	now = now.Add(5 * time.Second)
	p.UpdateDeploy("paused", true)
	if got, want := b.String(), "deployment s1: queued (0s)\ndeployment s1: paused, an unknown status: still watching (5s)\n"; got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
}

// TestDeployLogsRedacted: the logs a terminal shows carry no key or token
// the build printed (secret.Redact), and keep the rest of their lines.
func TestDeployLogsRedacted(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	logs := []string{"building…", "export DOCS_KEY=mint_0123456789abcdefghijKLMN", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"}
	if err := term.WriteDeployLogs(&out, logs, term.MaxLogLines); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"mint_0123456789abcdefghijKLMN", "eyJhbGciOiJIUzI1NiJ9"} {
		if strings.Contains(out.String(), s) {
			t.Errorf("the logs shown carry %q:\n%s", s, out.String())
		}
	}
	if !strings.Contains(out.String(), "building…") || !strings.Contains(out.String(), "[redacted") {
		t.Errorf("the logs shown lost their lines or the markers:\n%s", out.String())
	}
}
