package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

func TestShare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		part, whole docsapi.Count
		want        string
	}{
		{0, 0, "-"},
		{0, 10, "0.0%"},
		{1, 3, "33.3%"},
		{2345, 12345, "19.0%"},
		{10, 10, "100.0%"},
	}
	for _, tt := range tests {
		if got := share(tt.part, tt.whole); got != tt.want {
			t.Errorf("share(%d, %d) = %q, want %q", tt.part, tt.whole, got, tt.want)
		}
	}
}

// samplePage is a merged export with awkward paths for csv and table tests.
func samplePage() *docsapi.VisitorsPage {
	return &docsapi.VisitorsPage{
		Totals: docsapi.Counts{Human: 10000, AI: 2345, Total: 12000},
		Visitors: []docsapi.PageVisitors{
			{Path: "/quickstart", Counts: docsapi.Counts{Human: 900, AI: 100, Total: 990}},
			{Path: "/api/with,comma", Counts: docsapi.Counts{Human: 5, AI: 0, Total: 5}},
			{Path: `/quote"d`, Counts: docsapi.Counts{Human: 1500, AI: 1200, Total: 2600}},
			{Path: "/", Counts: docsapi.Counts{Human: 0, AI: 0, Total: 0}},
		},
	}
}

func TestVisitorsJSONShape(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := writeJSON(&b, samplePage()); err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(doc)); !slices.Equal(got, []string{"hasMore", "totals", "visitors"}) {
		t.Fatalf("top-level keys = %q", got)
	}
	var rows []map[string]json.RawMessage
	if err := json.Unmarshal(doc["visitors"], &rows); err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		if got := slices.Sorted(maps.Keys(row)); !slices.Equal(got, []string{"ai", "human", "path", "total"}) {
			t.Fatalf("row keys = %q", got)
		}
	}
	var back docsapi.VisitorsPage
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	want := samplePage()
	if back.Totals != want.Totals || !slices.Equal(back.Visitors, want.Visitors) || back.HasMore {
		t.Fatalf("round trip = %+v, want %+v", back, want)
	}
}

func TestWriteVisitorsTable(t *testing.T) {
	t.Parallel()
	page := samplePage()
	rng, err := parseRange("2025-11-01", "2025-11-08")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeVisitorsTable(&b, page, rng); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"2025-11-01 to 2025-11-07 inclusive", "12,000", "10,000", "2,345", "19.5%", "4 paths"} {
		if !strings.Contains(out, want) {
			t.Errorf("table does not contain %q:\n%s", want, out)
		}
	}
	// The path rows come after the header, most visitors first, and every
	// row ends its AI column at the same place.
	lines := strings.Split(out, "\n")
	head := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "PATH") })
	if head < 0 {
		t.Fatalf("no header:\n%s", out)
	}
	rows := lines[head : head+1+len(page.Visitors)]
	width := len(rows[0])
	var order []string
	for _, l := range rows {
		if len(l) != width {
			t.Errorf("row %q is %d wide, header %d", l, len(l), width)
		}
		order = append(order, strings.Fields(l)[0])
	}
	if want := []string{"PATH", `/quote"d`, "/quickstart", "/api/with,comma", "/"}; !slices.Equal(order, want) {
		t.Errorf("row order %q, want %q", order, want)
	}
}

func TestWriteJob(t *testing.T) {
	t.Parallel()
	created := time.Date(2025, 11, 3, 14, 5, 0, 0, time.UTC)
	ref, pr := "main", "https://github.com/acme/docs/pull/7"
	base := docsapi.Job{ID: "job_1", Model: "claude-sonnet-4", Source: docsapi.Source{Repository: "https://github.com/acme/docs", Ref: &ref}, CreatedAt: &created}
	with := func(f func(*docsapi.Job)) *docsapi.Job { j := base; f(&j); return &j }
	tests := []struct {
		name string
		job  *docsapi.Job
		want []string
	}{
		{"active", with(func(j *docsapi.Job) { j.Status = docsapi.StatusActive }),
			[]string{"job_1", "active", "claude-sonnet-4", "https://github.com/acme/docs@main", "2025-11-03 14:05:00 UTC", "none yet"}},
		{"completed with PR", with(func(j *docsapi.Job) { j.Status = docsapi.StatusCompleted; j.PRLink = &pr }), []string{pr}},
		{"completed without PR", with(func(j *docsapi.Job) { j.Status = docsapi.StatusCompleted }), []string{"no pull request (no files changed)"}},
		{"failed", with(func(j *docsapi.Job) { j.Status = docsapi.StatusFailed }), []string{"failed", "the job failed"}},
		{"archived", with(func(j *docsapi.Job) { j.Status = docsapi.StatusArchived; j.ArchivedAt = &created }), []string{"archived", "archived  "}},
		{"unknown status", with(func(j *docsapi.Job) { j.Status = "queued" }), []string{"queued (not a documented status"}},
		{"no ref", with(func(j *docsapi.Job) { j.Status = docsapi.StatusActive; j.Source.Ref = nil }), []string{"https://github.com/acme/docs\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := writeJob(&b, tt.job); err != nil {
				t.Fatal(err)
			}
			for _, want := range tt.want {
				if !strings.Contains(b.String(), want) {
					t.Errorf("view does not contain %q:\n%s", want, b.String())
				}
			}
		})
	}
}

func TestJobJSONUsesAPIFieldNames(t *testing.T) {
	t.Parallel()
	pr := "https://github.com/acme/docs/pull/7"
	var b bytes.Buffer
	if err := writeJSON(&b, &docsapi.Job{ID: "job_1", Status: docsapi.StatusCompleted, PRLink: &pr}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "status", "source", "model", "prLink"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("job JSON lacks %q: %s", k, b.String())
		}
	}
	if doc["prLink"] != pr {
		t.Errorf("prLink = %v, want %s (unescaped)", doc["prLink"], pr)
	}
}

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
	srv := newServer(t, lifecycle(0, docsapitest.OutcomePR))
	r, _, stderr := apiRunner(t, srv)
	if code := runCode(r, []string{"jobs", "create", "--prompt", "x"}); code != 0 {
		t.Fatalf("create: exit %d: %s", code, stderr)
	}
	job := onlyJob(t, srv)
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
			if code := runCode(r, tt.args); code != exitOK {
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
			if !strings.Contains(out, printable(hostile)) {
				t.Errorf("output lacks the visible text %q:\n%s", printable(hostile), out)
			}
		})
	}
}
