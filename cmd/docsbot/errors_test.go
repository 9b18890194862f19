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

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

// TestExplain checks the exit code of each kind of API error and that the
// report speaks of the command line's flags and settings; the words are
// term.Explain's (cmd/internal/term/explain_test.go).
func TestExplain(t *testing.T) {
	t.Parallel()
	const key = "mint_live_abcdefghijklmnopqrstuvwxyz"
	cfg := config.API{APIURL: "https://api.example", APIKey: key, ProjectID: "proj_42", KeyFrom: "environment variable DOCS_API_KEY"}
	tests := []struct {
		name     string
		err      error
		op       string
		wantCode int
		want     string
	}{
		{"wrong key", &docsapi.APIError{StatusCode: 401}, term.OpGet, cli.ExitFailure, "check DOCS_API_KEY (environment variable DOCS_API_KEY) and DOCS_PROJECT_ID"},
		{"interrupted", fmt.Errorf("get: %w", context.Canceled), term.OpGet, cli.ExitInterrupted, "interrupted"},
		{"interrupted create", fmt.Errorf("%w: %w", docsapi.ErrOutcomeUnknown, context.Canceled), term.OpCreate, cli.ExitInterrupted, "`docsbot jobs get`"},
		{"validation", &docsapi.ValidationError{Field: "prompt", Problem: "must not be empty"}, term.OpCreate, cli.ExitUsage, "invalid --prompt: must not be empty"},
		{"validation of a date", &docsapi.ValidationError{Field: "to date", Problem: "must be YYYY-MM-DD"}, term.OpVisitors, cli.ExitUsage, "invalid --to"},
		{"rate limited while watching", &docsapi.APIError{StatusCode: 429}, term.OpWatch, cli.ExitFailure, "raise --interval"},
		{"network", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, term.OpVisitors, cli.ExitFailure, "check DOCS_API_URL (https://api.example)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := explain(tt.err, call{op: tt.op, cfg: cfg, jobID: "", now: time.Now()})
			var out bytes.Buffer
			code := cli.Report(&out, err)
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d", code, tt.wantCode)
			}
			if text := out.String(); !strings.HasPrefix(text, "docsbot: ") || !strings.Contains(text, tt.want) {
				t.Errorf("report %q does not start with docsbot: and contain %q", text, tt.want)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("explained error does not wrap the cause")
			}
		})
	}
}
