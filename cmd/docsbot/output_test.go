package main

import (
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// hostile is API text that would rewrite a terminal: an OSC 8 link, a screen
// clear, a carriage return, a C1 CSI, a bell and a DEL.
const hostile = "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ \x1b[2J\rover\u009b31mred\x07\x7f"

// controlChars returns the control characters in s other than newlines.
func controlChars(s string) []rune {
	var bad []rune
	for _, r := range s {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) {
			bad = append(bad, r)
		}
	}
	return bad
}

// TestAPITextIsPrintedSafely serves jobs and visitor paths whose text holds
// terminal control sequences and spreadsheet formulas: human output drops the
// control characters, CSV defuses formulas, JSON stays exact.
func TestAPITextIsPrintedSafely(t *testing.T) {
	t.Parallel()
	srv, job := createdJob(t, 0, docsapitest.OutcomePR, "x")
	bad := job
	bad.Model, bad.Source.Repository = "model"+hostile, "https://github.com/acme/docs"+hostile
	ref, pr := "main"+hostile, "https://github.com/acme/docs/pull/1"+hostile
	bad.Source.Ref, bad.PRLink, bad.Status = &ref, &pr, docsapi.StatusCompleted
	jobJSON, err := json.Marshal(bad)
	if err != nil {
		t.Fatal(err)
	}
	unknown := bad
	unknown.Status = docsapi.Status("queued" + hostile)
	unknownJSON, err := json.Marshal(unknown)
	if err != nil {
		t.Fatal(err)
	}
	page := docsapi.VisitorsPage{Totals: docsapi.Counts{Human: 9, AI: 3, Total: 10}, Visitors: []docsapi.PageVisitors{
		{Path: "/guide" + hostile, Counts: docsapi.Counts{Human: 5, AI: 1, Total: 6}},
		{Path: "=HYPERLINK(\"https://evil.example\",\"docs\")", Counts: docsapi.Counts{Human: 1, Total: 1}},
		{Path: "+1+2", Counts: docsapi.Counts{Human: 1, Total: 1}},
		{Path: "-3+4", Counts: docsapi.Counts{Human: 1, Total: 1}},
		{Path: "@SUM(A1)", Counts: docsapi.Counts{Human: 1, Total: 1}},
		{Path: "\tcmd", Counts: docsapi.Counts{Human: 1, Total: 1}},
		{Path: "\rcmd", Counts: docsapi.Counts{Human: 1, Total: 1}},
		{Path: "/plain", Counts: docsapi.Counts{Human: 1, Total: 1}},
	}}
	pageJSON, err := json.Marshal(page)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		faults []docsapitest.Fault
		args   []string
		check  func(t *testing.T, stdout string)
	}{
		{"jobs get", []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Body: string(jobJSON), Times: 1}},
			[]string{"jobs", "get", job.ID}, nil},
		{"jobs get json", []docsapitest.Fault{{Endpoint: docsapitest.EndpointGet, Body: string(jobJSON), Times: 1}},
			[]string{"jobs", "get", job.ID, "--format", "json"}, func(t *testing.T, stdout string) {
				var got docsapi.Job
				if err := json.Unmarshal([]byte(stdout), &got); err != nil || !reflect.DeepEqual(got, bad) {
					t.Errorf("json = %+v (%v), want exactly %+v", got, err, bad)
				}
			}},
		{"jobs message", []docsapitest.Fault{{Endpoint: docsapitest.EndpointMessage, Body: string(jobJSON), Times: 1}},
			[]string{"jobs", "message", job.ID, "--prompt", "y"}, nil},
		{"jobs watch", []docsapitest.Fault{
			{Endpoint: docsapitest.EndpointGet, Body: string(unknownJSON), Times: 1},
			{Endpoint: docsapitest.EndpointGet, Body: string(jobJSON), Times: 1},
		}, []string{"jobs", "watch", job.ID, "--interval", "5ms", "--max-interval", "5ms"}, nil},
		{"visitors table", []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, Body: string(pageJSON), Times: 1}},
			[]string{"visitors"}, nil},
		{"visitors csv", []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, Body: string(pageJSON), Times: 1}},
			[]string{"visitors", "--format", "csv"}, func(t *testing.T, stdout string) {
				recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
				if err != nil || len(recs) != len(page.Visitors)+1 {
					t.Fatalf("csv: %v, %d records", err, len(recs))
				}
				for i, v := range page.Visitors {
					want := v.Path
					if strings.ContainsRune("=+-@\t\r", rune(want[0])) {
						want = "'" + want
					}
					if got := recs[i+1][0]; got != want {
						t.Errorf("csv path %q, want %q", got, want)
					}
				}
			}},
		{"visitors json", []docsapitest.Fault{{Endpoint: docsapitest.EndpointVisitors, Body: string(pageJSON), Times: 1}},
			[]string{"visitors", "--format", "json"}, func(t *testing.T, stdout string) {
				var got docsapi.VisitorsPage
				if err := json.Unmarshal([]byte(stdout), &got); err != nil || !reflect.DeepEqual(got, page) {
					t.Errorf("json = %+v (%v), want exactly %+v", got, err, page)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Not parallel: faults are server-wide.
			for _, f := range tt.faults {
				srv.AddFault(f)
			}
			defer srv.ClearFaults()
			r, stdout, stderr := apiRunner(t, srv)
			if code := runCode(r, tt.args); code != cli.ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			out := stdout.String()
			if tt.check != nil {
				tt.check(t, out)
				return
			}
			if bad := controlChars(out + stderr.String()); len(bad) > 0 {
				t.Errorf("output holds control characters %q:\n%q", bad, out+stderr.String())
			}
			if !strings.Contains(out, term.Printable(hostile)) {
				t.Errorf("output lacks the visible text %q:\n%s", term.Printable(hostile), out)
			}
		})
	}
}
