package insight_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/visitors/insight"
	"github.com/docsbot/docsbot/docsapi"
)

// pv is a page with its counts; total is deduplicated, not human+ai.
func pv(path string, human, ai, total int64) docsapi.PageVisitors {
	return docsapi.PageVisitors{Path: path, Counts: docsapi.Counts{Human: docsapi.Count(human), AI: docsapi.Count(ai), Total: docsapi.Count(total)}}
}

// paths lists the paths of pages.
func paths(pages []insight.PageChange) string {
	out := make([]string, len(pages))
	for i, p := range pages {
		out[i] = p.Path
	}
	return strings.Join(out, " ")
}

func TestCompare(t *testing.T) {
	t.Parallel()
	cur := insight.Period{
		First: date(t, "2026-11-16"), Last: date(t, "2026-11-22"),
		// A visitor of several pages counts once: the totals are far below
		// the sum of the pages.
		Totals: docsapi.Counts{Human: 900, AI: 300, Total: 1100},
		Pages: []docsapi.PageVisitors{
			pv("/quickstart", 400, 100, 450),
			pv("/api/auth", 300, 50, 320),
			pv("/guides/webhooks", 90, 10, 95),
			pv("/new/sdk", 200, 20, 210),
			pv("/new/cli", 30, 5, 33),
			pv("/steady", 40, 0, 40),
			pv("/was-zero", 5, 0, 5),
		},
	}
	prev := insight.Period{
		First: date(t, "2026-11-09"), Last: date(t, "2026-11-15"),
		Totals: docsapi.Counts{Human: 1000, AI: 0, Total: 1000},
		Pages: []docsapi.PageVisitors{
			pv("/api/auth", 100, 10, 105),
			pv("/quickstart", 500, 0, 500),
			pv("/guides/webhooks", 10, 0, 10),
			pv("/old/v1", 300, 0, 300),
			pv("/old/beta", 7, 0, 7),
			pv("/steady", 40, 0, 40),
			pv("/was-zero", 0, 0, 0),
		},
	}
	cases := []struct {
		name                        string
		top                         int
		rose, fell, added, vanished string
	}{
		{"all", 10, "/api/auth /guides/webhooks /was-zero", "/quickstart", "/new/sdk /new/cli", "/old/v1 /old/beta"},
		{"top 1", 1, "/api/auth", "/quickstart", "/new/sdk", "/old/v1"},
		{"counts only", 0, "", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := insight.Compare(cur, prev, tc.top)
			if err != nil {
				t.Fatalf("Compare: %v", err)
			}
			got := []string{paths(c.Rose), paths(c.Fell), paths(c.New), paths(c.Vanished)}
			want := []string{tc.rose, tc.fell, tc.added, tc.vanished}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("rose/fell/new/vanished = %q, want %q", got, want)
			}
			if c.RoseCount != 3 || c.FellCount != 1 || c.NewCount != 2 || c.VanishedCount != 2 {
				t.Errorf("counts rose %d fell %d new %d vanished %d, want 3 1 2 2", c.RoseCount, c.FellCount, c.NewCount, c.VanishedCount)
			}
			wantTotals := insight.CountsChange{
				Human: insight.Change{Before: 1000, After: 900},
				AI:    insight.Change{Before: 0, After: 300},
				Total: insight.Change{Before: 1000, After: 1100},
			}
			if c.Totals != wantTotals {
				t.Errorf("totals %+v, want the exports' totals %+v", c.Totals, wantTotals)
			}
			if !c.PreviousFirst.Equal(prev.First) || !c.CurrentLast.Equal(cur.Last) {
				t.Errorf("ranges %v..%v and %v..%v", c.PreviousFirst, c.PreviousLast, c.CurrentFirst, c.CurrentLast)
			}
		})
	}

	c, _ := insight.Compare(cur, prev, 10)
	if got := c.Rose[0]; got.Before.Total != 105 || got.After.Total != 320 || got.After.Human != 300 {
		t.Errorf("rose most: %+v, want /api/auth 105 -> 320", got)
	}
	if got := c.New[0]; got.Before != (docsapi.Counts{}) || got.After.Total != 210 {
		t.Errorf("new: %+v, want nothing before", got)
	}
	if got := c.Vanished[0]; got.After != (docsapi.Counts{}) || got.Before.Total != 300 {
		t.Errorf("vanished: %+v, want nothing after", got)
	}
}

func TestCompareTiesByPath(t *testing.T) {
	t.Parallel()
	r := insight.Period{First: date(t, "2026-11-22"), Last: date(t, "2026-11-22")}
	p := r
	p.First, p.Last = date(t, "2026-11-21"), date(t, "2026-11-21")
	r.Pages = []docsapi.PageVisitors{pv("/c", 1, 0, 1), pv("/a", 1, 0, 1), pv("/b", 1, 0, 1)}
	c, err := insight.Compare(r, p, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(c.New); got != "/a /b" {
		t.Fatalf("new = %q, want the first paths of a tie", got)
	}
}

func TestCompareRejects(t *testing.T) {
	t.Parallel()
	week := insight.Period{First: date(t, "2026-11-16"), Last: date(t, "2026-11-22")}
	cases := []struct {
		name      string
		cur, prev insight.Period
		top       int
	}{
		{"lengths differ", week, insight.Period{First: date(t, "2026-11-08"), Last: date(t, "2026-11-15")}, 5},
		{"backwards", insight.Period{First: date(t, "2026-11-22"), Last: date(t, "2026-11-16")}, week, 5},
		{"negative top", week, week, -1},
	}
	for _, tc := range cases {
		if _, err := insight.Compare(tc.cur, tc.prev, tc.top); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestChangePercent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		c    insight.Change
		want string
		ok   bool
	}{
		{insight.Change{Before: 200, After: 225}, "+12.5%", true},
		{insight.Change{Before: 200, After: 194}, "-3.0%", true},
		{insight.Change{Before: 7, After: 7}, "0.0%", true},
		{insight.Change{Before: 0, After: 10}, "", false},
		{insight.Change{Before: 0, After: 0}, "", false},
	}
	for _, tc := range cases {
		got, ok := tc.c.Percent()
		if got != tc.want || ok != tc.ok {
			t.Errorf("%+v.Percent() = %q, %t; want %q, %t", tc.c, got, ok, tc.want, tc.ok)
		}
	}
}

func TestPreviousRange(t *testing.T) {
	t.Parallel()
	cases := []struct{ first, last, wantFirst, wantLast string }{
		{"2026-11-16", "2026-11-22", "2026-11-09", "2026-11-15"},
		{"2026-11-22", "2026-11-22", "2026-11-21", "2026-11-21"},
		{"2026-03-01", "2026-03-31", "2026-01-29", "2026-02-28"},
	}
	for _, tc := range cases {
		f, l := insight.PreviousRange(date(t, tc.first), date(t, tc.last))
		if got := f.Format("2006-01-02") + " " + l.Format("2006-01-02"); got != tc.wantFirst+" "+tc.wantLast {
			t.Errorf("PreviousRange(%s, %s) = %s, want %s %s", tc.first, tc.last, got, tc.wantFirst, tc.wantLast)
		}
	}
}

// sitePeriod is a range of a large site: n pages with long-tailed counts,
// shifted by seed so that two periods differ, some pages only in one.
func sitePeriod(n, seed int) insight.Period {
	p := insight.Period{Totals: docsapi.Counts{Human: 812_345, AI: 234_567, Total: 998_877}}
	p.Pages = make([]docsapi.PageVisitors, n)
	for i := range p.Pages {
		j := i + seed*n/20 // a twentieth of the pages is in one period only
		h := int64(500_000/(j+1)) + int64((j*7+seed)%13)
		a := int64(150_000/(j+1)) + int64(j%7)
		p.Pages[i] = pv(fmt.Sprintf("/section-%d/topic-%d", j%97, j), h, a, h+a-min(h, a)/3)
	}
	return p
}

func TestCompareLargeSite(t *testing.T) {
	t.Parallel()
	cur, prev := sitePeriod(100_000, 1), sitePeriod(100_000, 0)
	cur.First, cur.Last = date(t, "2026-11-16"), date(t, "2026-11-22")
	prev.First, prev.Last = insight.PreviousRange(cur.First, cur.Last)
	c, err := insight.Compare(cur, prev, 10)
	if err != nil {
		t.Fatal(err)
	}
	if c.NewCount != 5000 || c.VanishedCount != 5000 {
		t.Fatalf("new %d, vanished %d; want 5000 each", c.NewCount, c.VanishedCount)
	}
	if c.RoseCount+c.FellCount > 95_000 || len(c.Rose) != 10 || len(c.Fell) != 10 {
		t.Fatalf("rose %d (%d listed), fell %d (%d listed)", c.RoseCount, len(c.Rose), c.FellCount, len(c.Fell))
	}
	for i := 1; i < len(c.Rose); i++ {
		if c.Rose[i].Change().Delta() > c.Rose[i-1].Change().Delta() {
			t.Fatalf("rose not in order at %d: %+v", i, c.Rose)
		}
	}
}

func BenchmarkCompare100k(b *testing.B) {
	cur, prev := sitePeriod(100_000, 1), sitePeriod(100_000, 0)
	cur.First, cur.Last = date(b, "2026-11-16"), date(b, "2026-11-22")
	prev.First, prev.Last = insight.PreviousRange(cur.First, cur.Last)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := insight.Compare(cur, prev, 10); err != nil {
			b.Fatal(err)
		}
	}
}
