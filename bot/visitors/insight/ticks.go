package insight

import (
	"math"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
)

// tick is a mark on an axis at value; one without a label is minor: a
// shorter mark, and no grid line.
type tick struct {
	value float64
	label string
}

// dayTicks marks the days of a trend (x = days since first) with date
// labels spaced for the length of the range: every day of a week, Mondays
// for a month or two, month starts for a year.
type dayTicks struct {
	first time.Time
	n     int
}

// ticks are the day marks, at the indexes of the days.
func (t dayTicks) ticks() []tick {
	var ticks []tick
	major := func(i int, label string) { ticks = append(ticks, tick{value: float64(i), label: label}) }
	minor := func(i int) { ticks = append(ticks, tick{value: float64(i)}) }
	date := func(i int) time.Time { return t.first.AddDate(0, 0, i) }
	switch {
	case t.n <= 22:
		step := 1
		if t.n > 15 {
			step = 3
		} else if t.n > 8 {
			step = 2
		}
		for i := range t.n {
			if i%step == 0 {
				major(i, date(i).Format("Jan 2"))
			} else {
				minor(i)
			}
		}
	case t.n <= 126:
		// Mondays: each one up to nine weeks, every other one beyond.
		every := 1
		if t.n > 63 {
			every = 2
		}
		monday := 0
		for i := range t.n {
			d := date(i)
			if d.Weekday() != time.Monday {
				if t.n <= 63 {
					minor(i)
				}
				continue
			}
			if monday%every == 0 {
				major(i, d.Format("Jan 2"))
			} else {
				minor(i)
			}
			monday++
		}
	default:
		// Month starts: each, every other or every third (Jan, Apr, Jul,
		// Oct); the year on the first label and on January.
		every := 1
		switch {
		case t.n > 540:
			every = 3
		case t.n > 270:
			every = 2
		}
		labeled := false
		for i := range t.n {
			d := date(i)
			switch {
			case d.Day() == 1 && (int(d.Month())-1)%every == 0:
				label := d.Format("Jan")
				if !labeled || d.Month() == time.January {
					label = d.Format("Jan 2006")
				}
				labeled = true
				major(i, label)
			case d.Day() == 1 || (t.n <= 270 && d.Weekday() == time.Monday):
				minor(i)
			}
		}
	}
	return ticks
}

// countTicks marks the count axis from 0 to max every step, labelled with
// thousands separators.
type countTicks struct {
	step, max float64
}

// headroom is the share of the count axis kept free above the highest
// value, so that the top of a line never touches the frame.
const headroom = 0.08

// countAxis chooses a round step (1, 2, 2.5 or 5 times a power of ten,
// whole numbers only) giving at most six intervals from 0 past top, with
// a little room above it.
func countAxis(top int64) countTicks {
	target := max(float64(top)*(1+headroom), 4)
	raw := target / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		s := m * mag
		if s >= raw && s == math.Trunc(s) {
			step = s
			break
		}
	}
	step = max(step, 1)
	return countTicks{step: step, max: math.Ceil(target/step) * step}
}

// ticks are the count marks, all labelled.
func (c countTicks) ticks() []tick {
	var ticks []tick
	for v := 0.0; v <= c.max+c.step/2; v += c.step {
		ticks = append(ticks, tick{value: v, label: humanize.Count(int64(v))})
	}
	return ticks
}
