package docsapitest

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
)

// fixedDataset returns a dataset whose today is fixed by clock.
func fixedDataset(paths int, seed int64, clock *slacktest.ManualClock) *Dataset {
	d := NewDataset(paths, seed)
	d.setClock(clock.Now)
	return d
}

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestDatasetPaths(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 30, 240, 613, 100_000} {
		d := NewDataset(n, 1)
		if d.Len() != n {
			t.Fatalf("Len() = %d, want %d", d.Len(), n)
		}
		seen := make(map[string]bool, n)
		for _, p := range d.paths {
			if !strings.HasPrefix(p, "/") || seen[p] {
				t.Fatalf("path %q repeated or not absolute", p)
			}
			seen[p] = true
		}
		if n >= 240 {
			for _, p := range []string{"/", "/quickstart", "/introduction", "/api-reference/endpoint/create-job", "/guides/getting-started"} {
				if !seen[p] {
					t.Errorf("%d paths lack %q", n, p)
				}
			}
		}
	}
	if NewDataset(-5, 1).Len() != 0 {
		t.Error("negative size not treated as 0")
	}
}

func TestDatasetDeterminism(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	a, b, other := fixedDataset(500, 7, clock), fixedDataset(500, 7, clock), fixedDataset(500, 8, clock)
	for _, r := range []struct{ from, to time.Time }{
		{},
		{day(2025, 11, 1), day(2025, 11, 8)},
		{day(2025, 1, 1), time.Time{}},
	} {
		if !slices.Equal(a.Pages(r.from, r.to), b.Pages(r.from, r.to)) || a.Totals(r.from, r.to) != b.Totals(r.from, r.to) {
			t.Errorf("range %v..%v differs for the same seed", r.from, r.to)
		}
		if slices.Equal(a.Pages(r.from, r.to), other.Pages(r.from, r.to)) {
			t.Errorf("range %v..%v is the same for another seed", r.from, r.to)
		}
	}
	// Cached and fresh answers agree, and callers cannot change the cache.
	p := a.Pages(time.Time{}, time.Time{})
	p[0].Human = -1
	if slices.Equal(p, a.Pages(time.Time{}, time.Time{})) {
		t.Error("Pages returned the cached slice")
	}
}

func TestDatasetRanges(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart()) // today is 2025-11-20, 14:30
	d := fixedDataset(300, 3, clock)
	byPath := func(rows []docsapi.PageVisitors) map[string]docsapi.Counts {
		m := make(map[string]docsapi.Counts, len(rows))
		for _, r := range rows {
			m[r.Path] = r.Counts
		}
		return m
	}

	t.Run("days add up per page", func(t *testing.T) {
		a, b, c := day(2025, 9, 3), day(2025, 10, 17), day(2025, 11, 20)
		whole, left, right := byPath(d.Pages(a, c)), byPath(d.Pages(a, b)), byPath(d.Pages(b, c))
		for path, w := range whole {
			l, r := left[path], right[path]
			if w.Human != l.Human+r.Human || w.AI != l.AI+r.AI {
				t.Fatalf("%s: %+v != %+v + %+v", path, w, l, r)
			}
		}
	})
	t.Run("dateTo is exclusive and date-times count as their day", func(t *testing.T) {
		d1, d2 := day(2025, 11, 1), day(2025, 11, 2)
		if got := d.Pages(d1, d1); len(got) != 0 {
			t.Errorf("empty range has %d pages", len(got))
		}
		one := d.Pages(d1, d2)
		if !slices.Equal(one, d.Pages(d1.Add(13*time.Hour), d2.Add(23*time.Hour))) {
			t.Error("times within the days changed the answer")
		}
		two := byPath(d.Pages(d1, d2.AddDate(0, 0, 1)))
		var more bool
		for _, r := range one {
			if two[r.Path].Human < r.Human {
				t.Fatalf("%s: two days %d < one day %d", r.Path, two[r.Path].Human, r.Human)
			}
			more = more || two[r.Path].Human > r.Human
		}
		if !more {
			t.Error("adding the next day added nothing")
		}
	})
	t.Run("window is 400 days and today", func(t *testing.T) {
		today := day(2025, 11, 20)
		first := today.AddDate(0, 0, -historyDays)
		if got := d.Pages(time.Time{}, first); len(got) != 0 {
			t.Errorf("%d pages before the window", len(got))
		}
		if got := d.Pages(today.AddDate(0, 0, 1), time.Time{}); len(got) != 0 {
			t.Errorf("%d pages after today", len(got))
		}
		if !slices.Equal(d.Pages(time.Time{}, time.Time{}), d.Pages(first.AddDate(-1, 0, 0), today.AddDate(1, 0, 0))) {
			t.Error("open ends differ from the window")
		}
		if len(d.Pages(first, first.AddDate(0, 0, 1))) == 0 {
			t.Error("the first day of the window is empty")
		}
	})
	t.Run("today grows through the day", func(t *testing.T) {
		c := slacktest.NewManualClock(day(2025, 11, 20))
		dd := fixedDataset(300, 3, c)
		today := day(2025, 11, 20)
		if got := dd.Pages(today, time.Time{}); len(got) != 0 {
			t.Errorf("at midnight today has %d pages", len(got))
		}
		c.Advance(12 * time.Hour) // noon
		noon := dd.Totals(today, time.Time{})
		c.Advance(11 * time.Hour) // 23:00
		late := dd.Totals(today, time.Time{})
		if noon.Human == 0 || late.Human < noon.Human {
			t.Errorf("today at noon %+v, late %+v", noon, late)
		}
		full := dd.Pages(today.AddDate(0, 0, -1), today)
		if len(full) == 0 {
			t.Error("yesterday is empty")
		}
	})
}

func TestDatasetCounts(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	d := fixedDataset(613, 1, clock)
	for _, r := range []struct{ from, to time.Time }{
		{},
		{day(2025, 11, 1), day(2025, 11, 8)},
		{day(2025, 11, 19), day(2025, 11, 20)},
	} {
		pages, totals := d.Pages(r.from, r.to), d.Totals(r.from, r.to)
		var h, ai int64
		var overlapSeen bool
		for i, p := range pages {
			if p.Total <= 0 || p.Total > p.Human+p.AI || p.Total < max(p.Human, p.AI) {
				t.Fatalf("page %+v has an impossible total", p)
			}
			overlapSeen = overlapSeen || p.Total != p.Human+p.AI
			if i > 0 {
				prev := pages[i-1]
				if prev.Total < p.Total || (prev.Total == p.Total && prev.Path >= p.Path) {
					t.Fatalf("order: %+v before %+v", prev, p)
				}
			}
			h += int64(p.Human)
			ai += int64(p.AI)
		}
		if !overlapSeen {
			t.Errorf("range %v..%v: every page total is human+ai", r.from, r.to)
		}
		if got := float64(totals.Human) / float64(h); got < 0.59 || got > 0.71 {
			t.Errorf("site human %d is %.2f of the page sum %d", totals.Human, got, h)
		}
		if got := float64(totals.AI) / float64(ai); got < 0.44 || got > 0.56 {
			t.Errorf("site ai %d is %.2f of the page sum %d", totals.AI, got, ai)
		}
		if totals.Total >= totals.Human+totals.AI || totals.Total < max(totals.Human, totals.AI) {
			t.Errorf("site totals %+v not deduplicated", totals)
		}
	}
}

func BenchmarkDatasetPages100k(b *testing.B) {
	clock := slacktest.NewManualClock(clockStart())
	d := fixedDataset(100_000, 1, clock)
	from := day(2025, 1, 1)
	for i := 0; b.Loop(); i++ {
		// A new range every time, so nothing comes from the cache.
		d.view(from.AddDate(0, 0, i%300), time.Time{})
	}
}

func BenchmarkNewDataset100k(b *testing.B) {
	for b.Loop() {
		NewDataset(100_000, 1)
	}
}
