package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
)

func TestExplain(t *testing.T) {
	t.Parallel()
	const key = "mint_live_abcdefghijklmnopqrstuvwxyz"
	cfg := config{APIURL: "https://api.example", APIKey: key, ProjectID: "proj_42", keyFrom: "environment variable DOCS_API_KEY"}
	now := time.Date(2025, 11, 3, 14, 4, 30, 0, time.UTC)
	apiErr := func(status int, msg string) *docsapi.APIError {
		return &docsapi.APIError{StatusCode: status, Message: msg, Method: "GET", Path: "/v2/agent/proj_42/job/job_9"}
	}
	rateLimited := apiErr(429, "rate limit exceeded")
	rateLimited.RetryAfter = 30 * time.Second
	tests := []struct {
		name     string
		err      error
		op       string
		jobID    string
		wantCode int
		want     []string
	}{
		{"wrong key", apiErr(401, "missing or invalid API key"), "get", "job_9", exitFailure,
			[]string{"refused the API key mint_…wxyz", "check DOCS_API_KEY (environment variable DOCS_API_KEY)", "401 Unauthorized"}},
		{"forbidden", apiErr(403, ""), "visitors", "", exitFailure, []string{"DOCS_API_KEY", "403 Forbidden"}},
		{"unknown job", apiErr(404, "job not found"), "get", "job_9", exitFailure, []string{"job job_9 not found in project proj_42"}},
		{"unknown project", apiErr(404, "project not found"), "visitors", "", exitFailure, []string{"project proj_42 not found", "DOCS_PROJECT_ID"}},
		{"rate limited with Retry-After", rateLimited, "create", "", exitFailure,
			[]string{"rate limited by the docs API: try again in 30s (at 14:05 UTC)", "100 create requests per project per hour"}},
		{"rate limited without Retry-After", apiErr(429, ""), "visitors", "", exitFailure, []string{"try again later", "organization"}},
		{"outcome unknown on create", fmt.Errorf("%w: %w", docsapi.ErrOutcomeUnknown, apiErr(502, "bad gateway")), "create", "", exitFailure,
			[]string{"the request may have reached the API", "`docsbot jobs get`", "before retrying", "502 Bad Gateway"}},
		{"outcome unknown on message", fmt.Errorf("%w: %w", docsapi.ErrOutcomeUnknown, context.DeadlineExceeded), "message", "job_9", exitFailure,
			[]string{"`docsbot jobs get job_9`"}},
		{"interrupted", fmt.Errorf("get: %w", context.Canceled), "get", "job_9", exitInterrupted, []string{"interrupted"}},
		{"validation", &docsapi.ValidationError{Field: "prompt", Problem: "must not be empty"}, "create", "", exitUsage, []string{"invalid --prompt: must not be empty"}},
		{"validation of a date", &docsapi.ValidationError{Field: "to date", Problem: "must be YYYY-MM-DD"}, "visitors", "", exitUsage, []string{"invalid --to"}},
		{"bad query", &docsapi.APIError{StatusCode: 400, Message: "Invalid query parameters", Details: []string{"dateTo: invalid date"}}, "visitors", "", exitFailure,
			[]string{"Invalid query parameters (dateTo: invalid date)", "--from and --to"}},
		{"server error", apiErr(503, "<html>"), "get", "job_9", exitFailure, []string{"the docs API failed", "503 Service Unavailable"}},
		{"malformed", fmt.Errorf("%w: unexpected EOF", docsapi.ErrMalformedResponse), "get", "job_9", exitFailure, []string{"cannot read", "DOCS_API_URL (https://api.example)"}},
		{"network", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, "visitors", "", exitFailure,
			[]string{"cannot reach the docs API", "connection refused", "DOCS_API_URL (https://api.example)"}},
		{"message that quotes the key", apiErr(500, "bad key "+key), "get", "job_9", exitFailure, []string{"bad key mint_…wxyz"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := explain(tt.err, call{op: tt.op, cfg: cfg, jobID: tt.jobID, now: now})
			var out bytes.Buffer
			code := report(&out, err)
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d", code, tt.wantCode)
			}
			text := out.String()
			if !strings.HasPrefix(text, "docsbot: ") {
				t.Errorf("report %q does not start with docsbot:", text)
			}
			for _, want := range tt.want {
				if !strings.Contains(text, want) {
					t.Errorf("report does not contain %q:\n%s", want, text)
				}
			}
			if strings.Contains(text, key) {
				t.Errorf("report shows the API key:\n%s", text)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("explained error does not wrap the cause")
			}
		})
	}
}

func TestMaskKey(t *testing.T) {
	t.Parallel()
	tests := []struct{ key, want string }{
		{"", "(none)"},
		{"mint_short", "mint_…"},
		{"mint_abcdefghijklmnopqrstuvwxyz", "mint_…wxyz"},
		{"abcdefghijklmnopqrstuvwxyz", "…wxyz"},
		{"secret", "…"},
	}
	for _, tt := range tests {
		if got := maskKey(tt.key); got != tt.want {
			t.Errorf("maskKey(%q) = %q, want %q", tt.key, got, tt.want)
		}
		if tt.key != "" && strings.Contains(maskKey(tt.key), tt.key) {
			t.Errorf("maskKey(%q) shows the key", tt.key)
		}
	}
}

func TestReportQuietAndPlainErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		err      error
		wantCode int
		wantOut  string
	}{
		{"quiet usage error", &exitError{code: exitUsage, quiet: true, msg: "flag provided but not defined"}, exitUsage, ""},
		{"plain error", errors.New("boom"), exitFailure, "docsbot: boom\n"},
		{"canceled", context.Canceled, exitInterrupted, "docsbot: context canceled\n"},
		{"two lines", usageError("what", "fix"), exitUsage, "docsbot: what\n  fix\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if code := report(&b, tt.err); code != tt.wantCode || b.String() != tt.wantOut {
			t.Errorf("%s: report = %d %q, want %d %q", tt.name, code, b.String(), tt.wantCode, tt.wantOut)
		}
	}
}
