package term

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
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
		if got := Share(tt.part, tt.whole); got != tt.want {
			t.Errorf("Share(%d, %d) = %q, want %q", tt.part, tt.whole, got, tt.want)
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
	if err := WriteJSON(&b, samplePage()); err != nil {
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
	var b bytes.Buffer
	if err := WriteVisitors(&b, page, "2025-11-01 to 2025-11-07 inclusive"); err != nil {
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
			if err := WriteJob(&b, tt.job); err != nil {
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
	if err := WriteJSON(&b, &docsapi.Job{ID: "job_1", Status: docsapi.StatusCompleted, PRLink: &pr}); err != nil {
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

func TestRangeTitle(t *testing.T) {
	t.Parallel()
	tests := []struct{ from, to, want string }{
		{"2025-11-01", "2025-11-08", "2025-11-01 to 2025-11-07 inclusive"},
		{"2025-11-01", "", "since 2025-11-01"},
		{"", "2025-11-08", "before 2025-11-08"},
		{"", "", "the API's default range"},
		{"2025-11-01T00:00:00Z", "2025-11-02T12:00:00Z", "2025-11-01T00:00:00Z up to 2025-11-02T12:00:00Z"},
	}
	for _, tt := range tests {
		if got := RangeTitle(tt.from, tt.to); got != tt.want {
			t.Errorf("RangeTitle(%q, %q) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}
