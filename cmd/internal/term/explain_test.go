package term_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

func TestExplain(t *testing.T) {
	t.Parallel()
	const key = "mint_live_abcdefghijklmnopqrstuvwxyz"
	now := time.Date(2025, 11, 3, 14, 4, 30, 0, time.UTC)
	inputs := map[string]string{"prompt": "--prompt", "to date": "--to", "from": "--from", "to": "--to", "interval": "--interval",
		"job": "job ID", "apikey": "DOCS_API_KEY", "projectid": "DOCS_PROJECT_ID", "baseurl": "DOCS_API_URL"}
	apiErr := func(status int, msg string) *docsapi.APIError {
		return &docsapi.APIError{StatusCode: status, Message: msg, Method: "GET", Path: "/v2/agent/proj_42/job/job_9"}
	}
	rateLimited := apiErr(429, "rate limit exceeded")
	rateLimited.RetryAfter = 30 * time.Second
	tests := []struct {
		name  string
		err   error
		op    string
		jobID string
		want  []string
	}{
		{"wrong key", apiErr(401, "missing or invalid API key"), term.OpGet, "job_9",
			[]string{"refused the API key mint_…wxyz", "check DOCS_API_KEY (environment variable DOCS_API_KEY)", "401 Unauthorized"}},
		{"forbidden", apiErr(403, ""), term.OpVisitors, "", []string{"DOCS_API_KEY", "403 Forbidden"}},
		{"unknown job", apiErr(404, "job not found"), term.OpGet, "job_9", []string{"job job_9 not found in project proj_42", "check the job ID"}},
		{"unknown project", apiErr(404, "project not found"), term.OpVisitors, "", []string{"project proj_42 not found", "DOCS_PROJECT_ID"}},
		{"rate limited with Retry-After", rateLimited, term.OpCreate, "",
			[]string{"rate limited by the docs API: try again in 30s (at 14:05 UTC)", "100 create requests per project per hour"}},
		{"rate limited without Retry-After", apiErr(429, ""), term.OpVisitors, "", []string{"try again later", "organization"}},
		{"rate limited on searches", rateLimited, term.OpSearches, "",
			[]string{"try again in 30s (at 14:05 UTC)", "analytics allow 100 requests per hour for the whole organization"}},
		{"rate limited on questions", apiErr(429, ""), term.OpQuestions, "", []string{"try again later", "organization"}},
		{"bad range on feedback", apiErr(400, "Invalid query parameters"), term.OpFeedback, "", []string{"check --from and --to", "--to is exclusive"}},
		{"unknown project on views", apiErr(404, "project not found"), term.OpViews, "", []string{"project proj_42 not found", "DOCS_PROJECT_ID"}},
		{"rate limited while polling", apiErr(429, ""), term.OpWatch, "job_9", []string{"raise --interval"}},
		{"outcome unknown on create", fmt.Errorf("%w: %w", docsapi.ErrOutcomeUnknown, apiErr(502, "bad gateway")), term.OpCreate, "",
			[]string{"the request may have reached the API", "`docsbot jobs get`", "before retrying", "502 Bad Gateway"}},
		{"outcome unknown on message", fmt.Errorf("%w: %w", docsapi.ErrOutcomeUnknown, context.DeadlineExceeded), term.OpMessage, "job_9",
			[]string{"`docsbot jobs get job_9`"}},
		{"interrupted", fmt.Errorf("get: %w", context.Canceled), term.OpGet, "job_9", []string{"interrupted"}},
		{"validation", &docsapi.ValidationError{Field: "prompt", Problem: "must not be empty"}, term.OpCreate, "", []string{"invalid --prompt: must not be empty"}},
		{"validation of a date", &docsapi.ValidationError{Field: "to date", Problem: "must be YYYY-MM-DD"}, term.OpVisitors, "", []string{"invalid --to"}},
		{"bad query", &docsapi.APIError{StatusCode: 400, Message: "Invalid query parameters", Details: []string{"dateTo: invalid date"}}, term.OpVisitors, "",
			[]string{"Invalid query parameters (dateTo: invalid date)", "--from and --to"}},
		{"bad prompt", apiErr(400, "prompt too long"), term.OpCreate, "", []string{"check --prompt"}},
		{"server error", apiErr(503, "<html>"), term.OpGet, "job_9", []string{"the docs API failed", "503 Service Unavailable"}},
		{"malformed", fmt.Errorf("%w: unexpected EOF", docsapi.ErrMalformedResponse), term.OpGet, "job_9", []string{"cannot read", "DOCS_API_URL (https://api.example)"}},
		{"network", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, term.OpVisitors, "",
			[]string{"cannot reach the docs API", "connection refused", "DOCS_API_URL (https://api.example)"}},
		{"message that quotes the key", apiErr(500, "bad key "+key), term.OpGet, "job_9", []string{"bad key mint_…wxyz"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x := term.Explain(tt.err, term.APIRequest{Op: tt.op, JobID: tt.jobID, BaseURL: "https://api.example", APIKey: key,
				ProjectID: "proj_42", KeyFrom: "environment variable DOCS_API_KEY", Now: now,
				Input: func(f string) string { return inputs[f] }, LookUp: "docsbot jobs get"})
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

func TestExplainWithoutInputNames(t *testing.T) {
	t.Parallel()
	x := term.Explain(&docsapi.ValidationError{Field: "prompt", Problem: "must not be empty"}, term.APIRequest{Op: term.OpCreate})
	if x.Message != "invalid prompt: must not be empty" {
		t.Errorf("Message = %q, want the field's own name", x.Message)
	}
}
