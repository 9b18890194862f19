package docsapitest

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
)

func TestVisitorsPaging(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	srv := startServer(t, WithClock(clock.Now), WithDataset(NewDataset(613, 1)))
	want := srv.Dataset().Pages(time.Time{}, time.Time{})
	totals := srv.Dataset().Totals(time.Time{}, time.Time{})
	if len(want) != 613 {
		t.Fatalf("dataset has %d pages with visitors, want all 613", len(want))
	}
	var got []docsapi.PageVisitors
	pages := 0
	for offset := 0; ; offset += 250 {
		p := mustPage(t, do(t, srv, http.MethodGet, fmt.Sprintf("%s?limit=250&offset=%d", visitorsPath(srv), offset), ""))
		pages++
		if p.Totals != totals {
			t.Errorf("page %d totals %+v, want %+v", pages, p.Totals, totals)
		}
		if wantMore := offset+250 < len(want); p.HasMore != wantMore {
			t.Errorf("page %d hasMore %v, want %v", pages, p.HasMore, wantMore)
		}
		got = append(got, p.Visitors...)
		if !p.HasMore {
			break
		}
		if pages > 10 {
			t.Fatal("paging never ends")
		}
	}
	if pages != 3 {
		t.Errorf("%d pages, want 3", pages)
	}
	if !slices.Equal(got, want) {
		t.Errorf("paged rows differ from Pages(): %d rows vs %d", len(got), len(want))
	}

	var sumHuman docsapi.Count
	for _, r := range got {
		sumHuman += r.Human
	}
	if totals.Human == sumHuman {
		t.Error("site human total equals the sum of pages")
	}
}

func TestVisitorsQueries(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	srv := startServer(t, WithClock(clock.Now))
	d := srv.Dataset()
	all := d.Pages(time.Time{}, time.Time{})
	for _, tc := range []struct {
		name     string
		query    string
		from, to time.Time
		offset   int
		limit    int
	}{
		{"defaults", "", time.Time{}, time.Time{}, 0, 50},
		{"second default page", "offset=50", time.Time{}, time.Time{}, 50, 50},
		{"small page", "limit=7&offset=3", time.Time{}, time.Time{}, 3, 7},
		{"offset past the end", "offset=100000", time.Time{}, time.Time{}, 100000, 50},
		{"last rows", fmt.Sprintf("offset=%d&limit=250", len(all)-5), time.Time{}, time.Time{}, len(all) - 5, 250},
		{"one day", "dateFrom=2025-11-01&dateTo=2025-11-02&limit=250", day(2025, 11, 1), day(2025, 11, 2), 0, 250},
		{"a week, date-times", "dateFrom=2025-11-01T08:00:00Z&dateTo=2025-11-08T23:59:59Z&limit=250", day(2025, 11, 1), day(2025, 11, 8), 0, 250},
		{"offset date-time crossing midnight", "dateFrom=2025-11-01T23:30:00-02:00&limit=250", day(2025, 11, 2), time.Time{}, 0, 250},
		{"only dateTo", "dateTo=2025-06-01&limit=10", time.Time{}, day(2025, 6, 1), 0, 10},
		{"reversed range", "dateFrom=2025-11-08&dateTo=2025-11-01", day(2025, 11, 8), day(2025, 11, 1), 0, 50},
		{"future", "dateFrom=2030-01-01", day(2030, 1, 1), time.Time{}, 0, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := visitorsPath(srv)
			if tc.query != "" {
				path += "?" + tc.query
			}
			r := do(t, srv, http.MethodGet, path, "")
			p := mustPage(t, r)
			rows := d.Pages(tc.from, tc.to)
			start := min(tc.offset, len(rows))
			end := min(tc.offset+tc.limit, len(rows))
			if !slices.Equal(p.Visitors, rows[start:end]) {
				t.Errorf("rows %v, want %v", p.Visitors, rows[start:end])
			}
			if p.Totals != d.Totals(tc.from, tc.to) {
				t.Errorf("totals %+v, want %+v", p.Totals, d.Totals(tc.from, tc.to))
			}
			if p.HasMore != (tc.offset+tc.limit < len(rows)) {
				t.Errorf("hasMore %v with %d rows", p.HasMore, len(rows))
			}
			if p.Visitors == nil {
				t.Errorf("visitors is null in %s, want an array", r.body)
			}
		})
	}
}

func TestVisitorsFloatCounts(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	ints := startServer(t, WithClock(clock.Now))
	floats := startServer(t, WithClock(clock.Now), WithFloatCounts(true))
	const q = "?limit=5&dateFrom=2025-11-01"
	ri := do(t, ints, http.MethodGet, visitorsPath(ints)+q, "")
	rf := do(t, floats, http.MethodGet, visitorsPath(floats)+q, "")
	if regexp.MustCompile(`"human":\d+\.0`).Match(ri.body) {
		t.Errorf("integer server wrote floats: %s", ri.body)
	}
	if n := len(regexp.MustCompile(`"(human|ai|total)":\d+\.0[,}]`).FindAll(rf.body, -1)); n != 3*6 {
		t.Errorf("%d float counts in %s, want 18", n, rf.body)
	}
	if pi, pf := mustPage(t, ri), mustPage(t, rf); pi.Totals != pf.Totals || !slices.Equal(pi.Visitors, pf.Visitors) {
		t.Errorf("float answer decodes differently: %+v vs %+v", pf, pi)
	}
}
