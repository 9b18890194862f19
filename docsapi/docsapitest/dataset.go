package docsapitest

import (
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/docsbot/docsbot/docsapi"
)

// Shape of the generated traffic.
const (
	// historyDays is the number of full days before today that have traffic.
	historyDays = 400
	// maxShiftWeeks bounds how far a page's traffic pattern is moved in time,
	// so pages that share a traffic profile still differ.
	maxShiftWeeks = 52
	maxShift      = 7 * maxShiftWeeks
	// profiles is the number of daily traffic series, with mean daily
	// visitors spaced geometrically from minMean to maxMean.
	profiles = 100
	minMean  = 0.005
	maxMean  = 5000.0
	// viewCacheSize bounds the number of cached date ranges.
	viewCacheSize = 32
	secondsPerDay = 24 * 60 * 60
	minutesPerDay = 24 * 60
)

// Dataset is deterministic visitor analytics for a documentation site: page
// paths and, for each path and UTC day, unique human and AI visitor counts
// over the 400 days before today, plus today with the part of the day that
// has passed. The same (paths, seed) and clock give the same numbers.
//
// Pages share a small set of daily traffic series (with a weekly rhythm,
// seasons, noise and AI crawl bursts), each page using one series for humans
// and one for AI traffic, moved by whole weeks; so a range is summed per page
// in constant time, and memory grows with the number of paths only.
//
// A Dataset is safe for concurrent use. "Today" comes from the clock of the
// server it is given to, or time.Now.
type Dataset struct {
	seed    uint64
	paths   []string
	hProf   []uint8  // human traffic series per path
	aProf   []uint8  // AI traffic series per path
	shift   []uint16 // days the page's series are moved back, a multiple of 7
	overlap []uint16 // per mille of min(human, ai) counted in both

	mu    sync.Mutex
	now   func() time.Time
	tab   *seriesTables
	cache map[viewKey]*view
}

// seriesTables holds prefix sums of the daily series for the days a range
// ending today can reach.
type seriesTables struct {
	today int64
	start int64 // first day covered
	human [profiles][]int32
	ai    [profiles][]int32
}

type viewKey struct{ today, from, to, minute int64 }

// view is the analytics for one date range.
type view struct {
	totals docsapi.Counts
	pages  []docsapi.PageVisitors // ordered by total desc, then path asc
}

// NewDataset returns a dataset with paths unique page paths (0 if negative),
// its traffic drawn from seed.
func NewDataset(paths int, seed int64) *Dataset {
	n := max(paths, 0)
	d := &Dataset{
		seed:    uint64(seed),
		paths:   makePaths(n),
		hProf:   make([]uint8, n),
		aProf:   make([]uint8, n),
		shift:   make([]uint16, n),
		overlap: make([]uint16, n),
		now:     time.Now,
		cache:   make(map[viewKey]*view),
	}
	top := 600 * (0.6 + 0.8*unit(hash(d.seed, tagSite)))
	for i, p := range d.paths {
		idx := uint64(i)
		mean := top / math.Pow(float64(i+1), 0.85)
		if i > 0 {
			mean *= math.Exp2(1.6*unit(hash(d.seed, tagPerturb, idx)) - 0.8)
		}
		aiRatio := 0.15 + 0.5*unit(hash(d.seed, tagAIRatio, idx))
		if strings.HasPrefix(p, "/api-reference/") {
			aiRatio *= 2.2
		}
		d.hProf[i] = profileFor(mean)
		d.aProf[i] = profileFor(mean * aiRatio)
		d.shift[i] = uint16(7 * (hash(d.seed, tagShift, idx) % (maxShiftWeeks + 1)))
		d.overlap[i] = uint16(15 + hash(d.seed, tagOverlap, idx)%46)
	}
	return d
}

// profileStep is the ratio between the means of neighbouring profiles.
func profileStep() float64 { return math.Pow(maxMean/minMean, 1.0/(profiles-1)) }

// profileFor returns the profile whose mean is closest to mean.
func profileFor(mean float64) uint8 {
	if mean <= minMean {
		return 0
	}
	k := math.Round(math.Log(mean/minMean) / math.Log(profileStep()))
	return uint8(min(max(k, 0), profiles-1))
}

// Len returns the number of page paths.
func (d *Dataset) Len() int { return len(d.paths) }

// Totals returns the site-wide unique visitors for the UTC days from from
// (inclusive) to to (exclusive); a zero time leaves that end open. Site totals
// are deduplicated across pages, so they are well below the sum of the pages.
func (d *Dataset) Totals(from, to time.Time) docsapi.Counts {
	return d.view(from, to).totals
}

// Pages returns the pages with visitors in the range, as for [Dataset.Totals],
// in the order the server serves them: total descending, then path ascending.
// The slice is the caller's.
func (d *Dataset) Pages(from, to time.Time) []docsapi.PageVisitors {
	return slices.Clone(d.view(from, to).pages)
}

// setClock makes the dataset's "today" follow now.
func (d *Dataset) setClock(now func() time.Time) {
	d.mu.Lock()
	d.now = now
	d.mu.Unlock()
}

// dayOf returns the UTC day number of t (days since 1970-01-01).
func dayOf(t time.Time) int64 {
	s := t.Unix()
	day := s / secondsPerDay
	if s%secondsPerDay < 0 {
		day--
	}
	return day
}

// view returns the (cached) analytics for a range. The result is shared: do
// not modify it.
func (d *Dataset) view(from, to time.Time) *view {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	today := dayOf(now)
	if d.tab == nil || d.tab.today != today {
		d.tab = d.buildTables(today)
		clear(d.cache)
	}
	a, b := today-historyDays, today+1
	if !from.IsZero() {
		a = max(a, dayOf(from))
	}
	if !to.IsZero() {
		b = min(b, dayOf(to))
	}
	if a >= b {
		return &view{pages: []docsapi.PageVisitors{}}
	}
	minute := int64(-1)
	if b == today+1 {
		minute = (now.Unix() - today*secondsPerDay) / 60
	}
	key := viewKey{today: today, from: a, to: b, minute: minute}
	if v, ok := d.cache[key]; ok {
		return v
	}
	v := d.compute(a, b, minute)
	if len(d.cache) >= viewCacheSize {
		clear(d.cache)
	}
	d.cache[key] = v
	return v
}

// compute sums the days [a, b); when b is tomorrow, today counts with minute
// minutes of its traffic.
func (d *Dataset) compute(a, b, minute int64) *view {
	t := d.tab
	full := b
	partial := minute >= 0
	if partial {
		full = t.today
	}
	pages := make([]docsapi.PageVisitors, 0, len(d.paths))
	var sumH, sumA int64
	for i, p := range d.paths {
		off := int64(d.shift[i]) + t.start
		hs, as := t.human[d.hProf[i]], t.ai[d.aProf[i]]
		h := int64(hs[full-off] - hs[a-off])
		ai := int64(as[full-off] - as[a-off])
		if partial {
			j := t.today - off
			h += int64(hs[j+1]-hs[j]) * minute / minutesPerDay
			ai += int64(as[j+1]-as[j]) * minute / minutesPerDay
		}
		if h == 0 && ai == 0 {
			continue
		}
		both := min(h, ai) * int64(d.overlap[i]) / 1000
		pages = append(pages, docsapi.PageVisitors{Path: p, Counts: docsapi.Counts{
			Human: docsapi.Count(h), AI: docsapi.Count(ai), Total: docsapi.Count(h + ai - both),
		}})
		sumH += h
		sumA += ai
	}
	slices.SortFunc(pages, func(x, y docsapi.PageVisitors) int {
		if x.Total != y.Total {
			if x.Total > y.Total {
				return -1
			}
			return 1
		}
		return strings.Compare(x.Path, y.Path)
	})
	// Site-wide uniques: visitors who read several pages count once.
	r := hash(d.seed, tagTotals, uint64(a), uint64(b), uint64(minute))
	human := sumH * int64(600+r%101) / 1000
	ai := sumA * int64(450+(r>>16)%101) / 1000
	both := min(human, ai) * int64(30+(r>>32)%51) / 1000
	return &view{
		totals: docsapi.Counts{Human: docsapi.Count(human), AI: docsapi.Count(ai), Total: docsapi.Count(human + ai - both)},
		pages:  pages,
	}
}

// buildTables computes the prefix sums of every series for the days from
// today-historyDays-maxShift to today.
func (d *Dataset) buildTables(today int64) *seriesTables {
	t := &seriesTables{today: today, start: today - historyDays - maxShift}
	span := int(today - t.start + 1)
	step := profileStep()
	for k := range profiles {
		mean := minMean * math.Pow(step, float64(k))
		h := make([]int32, span+1)
		a := make([]int32, span+1)
		for i := range span {
			day := t.start + int64(i)
			h[i+1] = h[i] + d.daily(tagHuman, k, mean, day)
			a[i+1] = a[i] + d.daily(tagAI, k, mean, day)
		}
		t.human[k], t.ai[k] = h, a
	}
	return t
}

// daily returns the visitors of series k of a kind on day.
func (d *Dataset) daily(kind uint64, k int, mean float64, day int64) int32 {
	wd := ((day+4)%7 + 7) % 7 // 1970-01-01 was a Thursday; 0 = Sunday
	var week, phase float64
	if kind == tagHuman {
		week = [7]float64{0.45, 1.05, 1.12, 1.1, 1.05, 0.9, 0.5}[wd]
	} else {
		week = [7]float64{0.92, 1.02, 1.04, 1.03, 1.02, 0.98, 0.93}[wd]
		phase = 1.3
	}
	season := 1 + 0.15*math.Sin(2*math.Pi*float64(day)/365.25+phase)
	r := hash(d.seed, kind, uint64(k), uint64(day))
	x := mean * week * season * (0.7 + 0.6*unit(r))
	if kind == tagAI && unit(mix(r^0xa5a5a5a5)) < 0.03 {
		x *= 3 // a crawler burst
	}
	// Round up with probability equal to the fraction, so small means still
	// give occasional visitors.
	return int32(x + unit(mix(r+1)))
}
