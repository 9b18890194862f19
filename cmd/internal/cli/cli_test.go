package cli

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseFlagsWithPositionals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		wantPos    []string
		wantFormat string
		wantPrompt string
		wantCode   int // -1: no error
	}{
		{"flag after positional", []string{"job_1", "--format", "json"}, []string{"job_1"}, "json", "", -1},
		{"flag before positional", []string{"--format=json", "job_1"}, []string{"job_1"}, "json", "", -1},
		{"flags around positionals", []string{"job_1", "-prompt", "p", "more", "--format", "json", "words"}, []string{"job_1", "more", "words"}, "json", "p", -1},
		{"double dash ends flags", []string{"job_1", "--", "--format", "json"}, []string{"job_1", "--format", "json"}, "text", "", -1},
		{"dash alone is positional", []string{"-"}, []string{"-"}, "text", "", -1},
		{"prompt from stdin marker", []string{"--prompt", "-"}, nil, "text", "-", -1},
		{"no arguments", nil, nil, "text", "", -1},
		{"unknown flag", []string{"job_1", "--nope"}, nil, "", "", ExitUsage},
		{"bad format", []string{"job_1", "--format", "xml"}, nil, "", "", ExitUsage},
		{"help", []string{"job_1", "-h"}, nil, "", "", ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr := new(bytes.Buffer), new(bytes.Buffer)
			fs := FlagSet("test", "usage text")
			format := NewFormat("text", "json")
			fs.Var(format, "format", format.Usage())
			prompt := fs.String("prompt", "", "prompt")
			pos, err := Parse(fs, tt.args, stdout, stderr)
			if tt.wantCode >= 0 {
				ee, ok := err.(*Error)
				if !ok || ee.Code != tt.wantCode {
					t.Fatalf("err = %v, want exit code %d", err, tt.wantCode)
				}
				// Help that was asked for goes to stdout, a mistake to stderr.
				shown, where := stderr, "stderr"
				if tt.wantCode == ExitOK {
					shown, where = stdout, "stdout"
				}
				if !strings.Contains(shown.String(), "usage text") {
					t.Errorf("stdout %q, stderr %q; want the usage on %s", stdout, stderr, where)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(pos, tt.wantPos) || format.Value != tt.wantFormat || *prompt != tt.wantPrompt {
				t.Fatalf("got pos %q format %q prompt %q, want %q %q %q", pos, format.Value, *prompt, tt.wantPos, tt.wantFormat, tt.wantPrompt)
			}
		})
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
		{"quiet usage error", &Error{Code: ExitUsage, Quiet: true, Msg: "flag provided but not defined"}, ExitUsage, ""},
		{"plain error", errors.New("boom"), ExitFailure, "docsbot: boom\n"},
		{"canceled", context.Canceled, ExitInterrupted, "docsbot: context canceled\n"},
		{"two lines", Usage("what", "fix"), ExitUsage, "docsbot: what\n  fix\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if code := Report(&b, tt.err); code != tt.wantCode || b.String() != tt.wantOut {
			t.Errorf("%s: report = %d %q, want %d %q", tt.name, code, b.String(), tt.wantCode, tt.wantOut)
		}
	}
}

func TestParseSince(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"24h", now.Add(-24 * time.Hour), true},
		{"7d", now.Add(-7 * 24 * time.Hour), true},
		{"2026-11-01", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), true},
		{"2026-11-01T09:00:00Z", time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC), true},
		{"-1h", time.Time{}, false},
		{"0d", time.Time{}, false},
		{"yesterday", time.Time{}, false},
	}
	for _, tc := range cases {
		got, err := ParseSince(tc.in, now)
		if (err == nil) != tc.ok || !got.Equal(tc.want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v, ok %t", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
