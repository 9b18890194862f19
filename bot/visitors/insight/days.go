package insight

import (
	"fmt"
	"strings"
	"time"

	"github.com/docsbot/docsbot/docsapi"
)

// DayCounts is the unique visitors of one day.
type DayCounts struct {
	// Date is the day (its UTC calendar date counts; the time of day is
	// ignored).
	Date time.Time
	docsapi.Counts
}

// MaxTrendDays bounds the length of a trend: the analytics keep about 400
// days.
const MaxTrendDays = 1000

const day = 24 * time.Hour

// utcDate returns midnight UTC of t's UTC calendar date.
func utcDate(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// series is a trend laid out day by day: index i is first+i days.
type series struct {
	first time.Time
	days  []DayCounts // Date set for every day; Counts zero where missing
	known []bool
}

// layout places days on the range first..last (both included), checking
// that the range is sane and that no day is given twice or lies outside.
func layout(first, last time.Time, days []DayCounts) (series, error) {
	first, last = utcDate(first), utcDate(last)
	if last.Before(first) {
		return series{}, fmt.Errorf("insight: range ends (%s) before it starts (%s)", last.Format(time.DateOnly), first.Format(time.DateOnly))
	}
	n := int(last.Sub(first)/day) + 1
	if n > MaxTrendDays {
		return series{}, fmt.Errorf("insight: range of %d days is longer than %d", n, MaxTrendDays)
	}
	s := series{first: first, days: make([]DayCounts, n), known: make([]bool, n)}
	for i := range s.days {
		s.days[i].Date = first.AddDate(0, 0, i)
	}
	for _, d := range days {
		date := utcDate(d.Date)
		i := int(date.Sub(first) / day)
		if date.Before(first) || i >= n {
			return series{}, fmt.Errorf("insight: day %s lies outside the range %s to %s", date.Format(time.DateOnly), first.Format(time.DateOnly), last.Format(time.DateOnly))
		}
		if s.known[i] {
			return series{}, fmt.Errorf("insight: day %s given twice", date.Format(time.DateOnly))
		}
		s.known[i] = true
		s.days[i].Counts = d.Counts
	}
	return s, nil
}

// missing lists the days of s without data, in order.
func (s series) missing() []time.Time {
	var out []time.Time
	for i, k := range s.known {
		if !k {
			out = append(out, s.days[i].Date)
		}
	}
	return out
}

// MissingDays lists the days of first..last (both included, UTC dates) that
// days has no counts for, in order: the gaps of the chart, for the caller to
// name (FormatDays).
func MissingDays(first, last time.Time, days []DayCounts) ([]time.Time, error) {
	s, err := layout(first, last, days)
	if err != nil {
		return nil, err
	}
	return s.missing(), nil
}

// maxDaySpans bounds the runs of days FormatDays names one by one.
const maxDaySpans = 6

// FormatDays names days (UTC dates, in order) as runs of consecutive days,
// such as "Nov 3–5, Nov 9, Nov 30 – Dec 2"; years are added when the days
// lie in more than one year. After six runs the rest is counted: "and 12
// more days".
func FormatDays(days []time.Time) string {
	if len(days) == 0 {
		return ""
	}
	years := utcDate(days[0]).Year() != utcDate(days[len(days)-1]).Year()
	var parts []string
	rest := 0
	for i := 0; i < len(days); {
		j := i
		for j+1 < len(days) && utcDate(days[j+1]).Sub(utcDate(days[j])) == day {
			j++
		}
		if len(parts) == maxDaySpans {
			rest += j - i + 1
		} else {
			parts = append(parts, daySpan(utcDate(days[i]), utcDate(days[j]), years))
		}
		i = j + 1
	}
	out := strings.Join(parts, ", ")
	switch {
	case rest == 1:
		out += " and 1 more day"
	case rest > 1:
		out += fmt.Sprintf(" and %d more days", rest)
	}
	return out
}

// daySpan names the run of days a..b.
func daySpan(a, b time.Time, years bool) string {
	layoutA, layoutB := "Jan 2", "Jan 2"
	if years {
		layoutA, layoutB = "Jan 2, 2006", "Jan 2, 2006"
	}
	switch {
	case a.Equal(b):
		return a.Format(layoutA)
	case a.Year() == b.Year() && a.Month() == b.Month():
		if years {
			return a.Format("Jan 2") + "–" + b.Format("2, 2006")
		}
		return a.Format("Jan 2") + "–" + b.Format("2")
	case a.Year() == b.Year() && years:
		return a.Format("Jan 2") + " – " + b.Format(layoutB)
	}
	return a.Format(layoutA) + " – " + b.Format(layoutB)
}

// RangeText names the range first..last: "Nov 7, 2026", "Nov 1 – Nov 7,
// 2026" or "Dec 29, 2025 – Jan 4, 2026".
func RangeText(first, last time.Time) string {
	first, last = utcDate(first), utcDate(last)
	switch {
	case first.Equal(last):
		return last.Format("Jan 2, 2006")
	case first.Year() == last.Year():
		return first.Format("Jan 2") + " – " + last.Format("Jan 2, 2006")
	}
	return first.Format("Jan 2, 2006") + " – " + last.Format("Jan 2, 2006")
}
