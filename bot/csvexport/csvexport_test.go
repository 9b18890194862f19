package csvexport_test

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/csvexport"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/docsapi"
)

func TestWriteVisitors(t *testing.T) {
	t.Parallel()
	page := &docsapi.VisitorsPage{
		Totals: docsapi.Counts{Human: 10000, AI: 2345, Total: 12000},
		Visitors: []docsapi.PageVisitors{
			{Path: "/quickstart", Counts: docsapi.Counts{Human: 900, AI: 100, Total: 990}},
			{Path: "/api/with,comma", Counts: docsapi.Counts{Human: 5, AI: 0, Total: 5}},
			{Path: `/quote"d`, Counts: docsapi.Counts{Human: 1500, AI: 1200, Total: 2600}},
			{Path: "/", Counts: docsapi.Counts{}},
		},
	}
	formulas := []string{"=HYPERLINK(\"https://evil.example\",\"docs\")", "+1+2", "-3+4", "@SUM(A1)", "\tcmd", "\rcmd"}
	for _, f := range formulas {
		page.Visitors = append(page.Visitors, docsapi.PageVisitors{Path: f, Counts: docsapi.Counts{Human: 1, Total: 1}})
	}
	var b bytes.Buffer
	if err := csvexport.WriteVisitors(&b, page); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(recs[0], []string{"path", "human", "ai", "total"}) {
		t.Fatalf("header = %q", recs[0])
	}
	if len(recs)-1 != len(page.Visitors) {
		t.Fatalf("%d rows, want %d", len(recs)-1, len(page.Visitors))
	}
	for i, v := range page.Visitors {
		path := v.Path
		if slices.Contains(formulas, path) {
			path = "'" + path
		}
		want := []string{path, strconv.Itoa(int(v.Human)), strconv.Itoa(int(v.AI)), strconv.Itoa(int(v.Total))}
		if !slices.Equal(recs[i+1], want) {
			t.Errorf("row %d = %q, want %q", i, recs[i+1], want)
		}
	}
}

// TestWriteQuality: two rows a report, the span's then the one before, a
// project's name kept from being read as a formula, the median in seconds
// ("" when none was measured).
func TestWriteQuality(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 11, 8, 0, 0, 0, 0, time.UTC)
	reports := []outcome.Report{{Project: "=cmd", Team: "T1",
		Period: outcome.Figures{First: day, Last: day.AddDate(0, 0, 6), Questions: 7, Resolved: 2, Timed: 7, MedianFirstTextMS: 4000},
		Before: outcome.Figures{First: day.AddDate(0, 0, -7), Last: day.AddDate(0, 0, -1), Questions: 1}}}
	var b bytes.Buffer
	if err := csvexport.WriteQuality(&b, reports); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != 3 || !slices.Equal(recs[0], csvexport.QualityColumns) {
		t.Fatalf("the CSV: %q, %v", recs, err)
	}
	col := func(row int, name string) string { return recs[row][slices.Index(csvexport.QualityColumns, name)] }
	want := []struct {
		row        int
		col, value string
	}{
		{1, "project", "'=cmd"}, {1, "team", "T1"}, {1, "span", "period"}, {1, "first_day", "2026-11-08"}, {1, "last_day", "2026-11-14"},
		{1, "questions", "7"}, {1, "resolved", "2"}, {1, "median_first_text_seconds", "4.0"},
		{2, "span", "before"}, {2, "questions", "1"}, {2, "median_first_text_seconds", ""},
	}
	for _, w := range want {
		if got := col(w.row, w.col); got != w.value {
			t.Errorf("row %d, %s = %q, want %q", w.row, w.col, got, w.value)
		}
	}
}
