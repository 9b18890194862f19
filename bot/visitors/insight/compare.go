package insight

import (
	"fmt"
	"sort"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/docsapi"
)

// Period is one side of a comparison: a range and its merged export.
type Period struct {
	// First and Last are the range, both included (UTC dates).
	First, Last time.Time
	// Totals are the export's unique visitors of the whole range.
	Totals docsapi.Counts
	// Pages are the export's pages, each path once (as docsapi.VisitorsMerge
	// gives them).
	Pages []docsapi.PageVisitors
}

// days is the number of days of p.
func (p Period) days() int { return int(utcDate(p.Last).Sub(utcDate(p.First))/day) + 1 }

// PreviousRange is the range of the same length that ends the day before
// first: what a range is compared with.
func PreviousRange(first, last time.Time) (prevFirst, prevLast time.Time) {
	first, last = utcDate(first), utcDate(last)
	n := int(last.Sub(first)/day) + 1
	return first.AddDate(0, 0, -n), first.AddDate(0, 0, -1)
}

// Change is a count in the earlier range and in the later one.
type Change struct {
	Before, After int64
}

// Delta is After - Before.
func (c Change) Delta() int64 { return c.After - c.Before }

// Percent is the change relative to Before with one decimal and a sign, such
// as "+12.5%", "-3.0%" or "0.0%"; ok is false when Before is not positive,
// where no percentage means anything.
func (c Change) Percent() (s string, ok bool) {
	s, ok = humanize.Percent(c.Delta(), c.Before)
	if ok && c.Delta() > 0 {
		s = "+" + s
	}
	return s, ok
}

// CountsChange is the change of each kind of unique visitors.
type CountsChange struct {
	Human, AI, Total Change
}

func countsChange(before, after docsapi.Counts) CountsChange {
	return CountsChange{
		Human: Change{int64(before.Human), int64(after.Human)},
		AI:    Change{int64(before.AI), int64(after.AI)},
		Total: Change{int64(before.Total), int64(after.Total)},
	}
}

// PageChange is one page's counts in both ranges; a side where the page
// does not appear is zero.
type PageChange struct {
	Path          string
	Before, After docsapi.Counts
}

// Change is the change of the page's unique visitors (Total).
func (p PageChange) Change() Change { return Change{int64(p.Before.Total), int64(p.After.Total)} }

// Comparison sets a range against an earlier one of the same length.
type Comparison struct {
	// The ranges compared: UTC dates, both ends included.
	CurrentFirst, CurrentLast   time.Time
	PreviousFirst, PreviousLast time.Time
	// Totals is the change of the exports' totals. Page counts are never
	// added into them: a visitor of two pages is one visitor.
	Totals CountsChange
	// Rose and Fell are the pages seen in both ranges whose unique visitors
	// rose or fell most, largest change first, at most top each.
	Rose, Fell []PageChange
	// New are pages seen only in the current range and Vanished pages seen
	// only in the previous one, most visited first, at most top each.
	New, Vanished []PageChange
	// RoseCount, FellCount, NewCount and VanishedCount count all such
	// pages, listed or not.
	RoseCount, FellCount, NewCount, VanishedCount int
}

// Compare sets cur against prev, which must be as many days long, listing
// at most top pages in each of Rose, Fell, New and Vanished. Pages are
// ranked by their unique visitors (Total), ties by path.
func Compare(cur, prev Period, top int) (*Comparison, error) {
	if top < 0 {
		return nil, fmt.Errorf("insight: compare: top %d is negative", top)
	}
	for _, p := range []Period{cur, prev} {
		if p.Last.Before(p.First) {
			return nil, fmt.Errorf("insight: compare: range ends (%s) before it starts (%s)", p.Last.Format(time.DateOnly), p.First.Format(time.DateOnly))
		}
	}
	if cur.days() != prev.days() {
		return nil, fmt.Errorf("insight: compare: ranges of %d and %d days", cur.days(), prev.days())
	}
	c := &Comparison{
		CurrentFirst: utcDate(cur.First), CurrentLast: utcDate(cur.Last),
		PreviousFirst: utcDate(prev.First), PreviousLast: utcDate(prev.Last),
		Totals: countsChange(prev.Totals, cur.Totals),
	}
	before := make(map[string]int, len(prev.Pages))
	for i, p := range prev.Pages {
		before[p.Path] = i
	}
	// seen marks the previous pages also in cur, so that the rest vanished.
	seen := make([]bool, len(prev.Pages))
	rose := ranking{top: top, better: func(a, b PageChange) bool { return a.Change().Delta() > b.Change().Delta() }}
	fell := ranking{top: top, better: func(a, b PageChange) bool { return a.Change().Delta() < b.Change().Delta() }}
	added := ranking{top: top, better: func(a, b PageChange) bool { return a.After.Total > b.After.Total }}
	gone := ranking{top: top, better: func(a, b PageChange) bool { return a.Before.Total > b.Before.Total }}
	for _, p := range cur.Pages {
		i, ok := before[p.Path]
		if !ok {
			added.offer(PageChange{Path: p.Path, After: p.Counts})
			continue
		}
		seen[i] = true
		pc := PageChange{Path: p.Path, Before: prev.Pages[i].Counts, After: p.Counts}
		switch d := pc.Change().Delta(); {
		case d > 0:
			rose.offer(pc)
		case d < 0:
			fell.offer(pc)
		}
	}
	for i, p := range prev.Pages {
		if !seen[i] {
			gone.offer(PageChange{Path: p.Path, Before: p.Counts})
		}
	}
	c.Rose, c.RoseCount = rose.items, rose.count
	c.Fell, c.FellCount = fell.items, fell.count
	c.New, c.NewCount = added.items, added.count
	c.Vanished, c.VanishedCount = gone.items, gone.count
	return c, nil
}

// ranking keeps the top best of the pages offered, best first, and counts
// them all. Ties go to the smaller path, so the result does not depend on
// the order of the export.
type ranking struct {
	top    int
	better func(a, b PageChange) bool
	items  []PageChange
	count  int
}

func (r *ranking) before(a, b PageChange) bool {
	if r.better(a, b) {
		return true
	}
	return !r.better(b, a) && a.Path < b.Path
}

func (r *ranking) offer(p PageChange) {
	r.count++
	n := len(r.items)
	if n == r.top && (n == 0 || !r.before(p, r.items[n-1])) {
		return
	}
	i := sort.Search(n, func(i int) bool { return r.before(p, r.items[i]) })
	if n < r.top {
		r.items = append(r.items, PageChange{})
	}
	copy(r.items[i+1:], r.items[i:])
	r.items[i] = p
}
