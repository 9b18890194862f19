package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/cmd/internal/cli"
)

func TestResolvePrompt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		flagValue string
		flagSet   bool
		words     []string
		stdin     string
		want      string
		wantErr   string
	}{
		{name: "flag", flagValue: " Fix the typo ", flagSet: true, want: "Fix the typo"},
		{name: "words", words: []string{"Fix", "the", "typo"}, want: "Fix the typo"},
		{name: "stdin", flagValue: "-", flagSet: true, stdin: "Line one\nline two\n", want: "Line one\nline two"},
		{name: "both", flagValue: "a", flagSet: true, words: []string{"b"}, wantErr: "not both"},
		{name: "none", wantErr: "--prompt is required"},
		{name: "blank flag", flagValue: "  ", flagSet: true, wantErr: "--prompt is required"},
		{name: "empty stdin", flagValue: "-", flagSet: true, stdin: "\n", wantErr: "--prompt is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, _, _ := testRunner(t, nil, "")
			r.stdin = strings.NewReader(tt.stdin)
			got, err := r.resolvePrompt(tt.flagValue, tt.flagSet, tt.words)
			if tt.wantErr != "" {
				ee, ok := err.(*cli.Error)
				if !ok || ee.Code != cli.ExitUsage || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want a usage error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestRunTopLevel(t *testing.T) {
	t.Parallel()
	slackEnv := map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "DOCS_API_KEY": "mint_x", "DOCS_PROJECT_ID": "p"}
	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{name: "help", args: []string{"help"}, wantStdout: "Commands:"},
		{name: "--help", args: []string{"--help"}, wantStdout: "jobs"},
		{name: "help for a command", args: []string{"help", "visitors"}, wantStdout: "--to is EXCLUSIVE"},
		{name: "-h on a subcommand", args: []string{"jobs", "watch", "-h"}, wantStdout: "-max-interval duration"},
		{name: "jobs help", args: []string{"jobs", "help"}, wantStdout: "docsbot jobs watch"},
		{name: "version", args: []string{"version"}, wantStdout: "docsbot "},
		{name: "--version", args: []string{"--version"}, wantStdout: "docsbot "},
		{name: "unknown command", args: []string{"frobnicate"}, wantCode: cli.ExitUsage, wantStderr: `unknown command "frobnicate"`},
		{name: "unknown jobs subcommand", args: []string{"jobs", "list"}, wantCode: cli.ExitUsage, wantStderr: `unknown subcommand "list"`},
		{name: "jobs alone", args: []string{"jobs"}, wantCode: cli.ExitUsage, wantStderr: "missing subcommand"},
		{name: "no arguments lists the missing Slack settings", wantCode: cli.ExitUsage,
			wantStderr: "missing SLACK_BOT_TOKEN, SLACK_APP_TOKEN, DOCS_API_KEY, DOCS_PROJECT_ID"},
		{name: "serve with some settings", args: []string{"serve"}, env: slackEnv, wantCode: cli.ExitUsage, wantStderr: "missing SLACK_APP_TOKEN\n"},
		{name: "missing job ID", args: []string{"jobs", "get", "--format", "json"}, wantCode: cli.ExitUsage, wantStderr: "missing job ID"},
		{name: "extra argument", args: []string{"jobs", "get", "a", "b"}, wantCode: cli.ExitUsage, wantStderr: `unexpected argument "b"`},
		{name: "watch interval", args: []string{"jobs", "watch", "a", "--interval", "0s"}, wantCode: cli.ExitUsage, wantStderr: "--interval must be positive"},
		{name: "watch max interval", args: []string{"jobs", "watch", "a", "--interval", "2s", "--max-interval", "1s"}, wantCode: cli.ExitUsage, wantStderr: "--max-interval (1s) must not be shorter"},
		{name: "visitors bad date", args: []string{"visitors", "--from", "2025-11-31"}, wantCode: cli.ExitUsage, wantStderr: `--from "2025-11-31" is not a date`},
		{name: "visitors empty range", args: []string{"visitors", "--from", "2025-11-08", "--to", "2025-11-08"}, wantCode: cli.ExitUsage, wantStderr: "--to is exclusive"},
		{name: "create without prompt", args: []string{"jobs", "create"}, wantCode: cli.ExitUsage, wantStderr: "--prompt is required"},
		{name: "create without key", args: []string{"jobs", "create", "--prompt", "x"}, env: map[string]string{"DOCS_PROJECT_ID": "p"}, wantCode: cli.ExitUsage,
			wantStderr: "docsbot: DOCS_API_KEY is not set: create an admin API key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, stdout, stderr := testRunner(t, tt.env, "")
			code := runCode(r, tt.args)
			if code != tt.wantCode {
				t.Fatalf("exit code %d, want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, stdout, stderr)
			}
			if !strings.Contains(stdout.String(), tt.wantStdout) {
				t.Errorf("stdout = %q, want it to contain %q", stdout, tt.wantStdout)
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tt.wantStderr)
			}
		})
	}
}

// runCode runs the command line as main does and returns the exit code; the
// error is reported on the runner's stderr.
func runCode(r *runner, args []string) int {
	return runCodeContext(context.Background(), r, args)
}

func runCodeContext(ctx context.Context, r *runner, args []string) int {
	if err := r.run(ctx, args); err != nil {
		return cli.Report(r.stderr, err)
	}
	return cli.ExitOK
}

func TestUsageListsEveryCommand(t *testing.T) {
	t.Parallel()
	r, _, _ := testRunner(t, nil, "")
	var b bytes.Buffer
	r.top().Usage(&b)
	for _, c := range r.commands() {
		if !strings.Contains(b.String(), "  "+c.Name+" ") {
			t.Errorf("usage does not list %q", c.Name)
		}
	}
}
