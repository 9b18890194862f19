package visitors

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/store"
)

func TestParseVisitorsModes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text        string
		mode        mode
		digest      string
		first, last string
		top         int
		path        string
	}{
		{"30d chart", modeChart, "", "2025-10-08", "2025-11-06", 0, ""}, // whole days: ends yesterday
		{"chart", modeChart, "", "2025-10-31", "2025-11-06", 0, ""},
		{"CHART last-month", modeChart, "", "2025-10-01", "2025-10-31", 0, ""},
		{"7d compare", modeCompare, "", "2025-10-31", "2025-11-06", compareTop, ""},
		{"compare top=3 path=/guides", modeCompare, "", "2025-10-31", "2025-11-06", 3, "/guides"},
		{"200d compare", modeCompare, "", "2025-04-21", "2025-11-06", compareTop, ""},
		{"csv 30d", modeCSV, "", "2025-10-09", "2025-11-07", defaultTop, ""},
		{"csv path=api", modeCSV, "", "2025-11-01", "2025-11-07", defaultTop, "/api"},
		{"digest weekly", modeDigest, digestWeekly, "2025-11-01", "2025-11-07", defaultTop, ""},
		{"Digest DAILY", modeDigest, digestDaily, "2025-11-01", "2025-11-07", defaultTop, ""},
		{"digest off", modeDigest, digestOff, "2025-11-01", "2025-11-07", defaultTop, ""},
		{"digest status", modeDigest, digestStatus, "2025-11-01", "2025-11-07", defaultTop, ""},
		{"7d top=3", modeSummary, "", "2025-11-01", "2025-11-07", 3, ""},
	}
	for _, tc := range cases {
		req, bad := parseVisitors(tc.text, friday)
		if bad != nil {
			t.Errorf("parseVisitors(%q) failed: %v", tc.text, bad)
			continue
		}
		got := []string{string(req.Mode), req.Digest, req.Range.First.Format("2006-01-02"), req.Range.Last.Format("2006-01-02"), req.Path}
		want := []string{string(tc.mode), tc.digest, tc.first, tc.last, tc.path}
		if strings.Join(got, "|") != strings.Join(want, "|") || req.Top != tc.top {
			t.Errorf("parseVisitors(%q) = %q top %d, want %q top %d", tc.text, got, req.Top, want, tc.top)
		}
	}
}

func TestVisitorsCSV(t *testing.T) {
	t.Parallel()
	pages := []store.VisitorPage{
		{Path: "/guides/start", VisitorCounts: store.VisitorCounts{Human: 10, AI: 3, Total: 12}},
		{Path: "=HYPERLINK(\"http://evil\")", VisitorCounts: store.VisitorCounts{Human: 1, AI: 0, Total: 1}},
		{Path: "/guides/a,b \"quoted\"", VisitorCounts: store.VisitorCounts{Human: 2, AI: 2, Total: 3}},
		{Path: "/api/x", VisitorCounts: store.VisitorCounts{Human: 5, AI: 1, Total: 5}},
	}
	cases := []struct {
		prefix string
		want   [][]string
	}{
		{"", [][]string{{"path", "human", "ai", "total"}, {"/guides/start", "10", "3", "12"}, {"'=HYPERLINK(\"http://evil\")", "1", "0", "1"}, {"/guides/a,b \"quoted\"", "2", "2", "3"}, {"/api/x", "5", "1", "5"}}},
		{"/guides", [][]string{{"path", "human", "ai", "total"}, {"/guides/start", "10", "3", "12"}, {"/guides/a,b \"quoted\"", "2", "2", "3"}}},
	}
	for _, tc := range cases {
		data, n, err := visitorsCSV(pages, tc.prefix)
		if err != nil {
			t.Fatal(err)
		}
		got, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
		if err != nil {
			t.Fatalf("not CSV: %v\n%s", err, data)
		}
		if n != len(tc.want)-1 || strings.Join(flat(got), "|") != strings.Join(flat(tc.want), "|") {
			t.Errorf("prefix %q: %d rows %q, want %q", tc.prefix, n, got, tc.want)
		}
	}
}

func flat(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join(r, ","))
	}
	return out
}
