// Package daterange reads the date ranges people type after the analytics
// commands (/docs-visitors, /docs-health): "7d", "12w", "today",
// "yesterday", "this-month", "last-month", "2025-11-01" and
// "2025-11-01..2025-11-07", as spans of whole UTC days within the analytics'
// history. It knows nothing of Slack but the escaping of what it quotes.
package daterange

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// HistoryDays is how far back a range may start, today included (yesterday
// included for whole days; HistoryStart): the analytics keep about 400 days.
const HistoryDays = 400

// The shapes of range words.
var (
	relativePattern = regexp.MustCompile(`^(\d+)([dw])$`)
	datePattern     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// Error is a range word that does not read: the word (Part) and what is
// wrong with it, in words for the person (Problem, Slack mrkdwn).
type Error struct {
	Part, Problem string
}

func (e *Error) Error() string { return fmt.Sprintf("%q: %s", e.Part, e.Problem) }

// Range is a span of whole UTC days, both ends included.
type Range struct {
	// First and Last are midnights UTC; First <= Last.
	First, Last time.Time
	// Today reports whether Last is today, which is still counting.
	Today bool
	// TodayLeftOut reports that the range as typed reached today and was
	// ended with yesterday (compare works on whole days only).
	TodayLeftOut bool
	// EndsYesterday reports a relative range (7d, this-month, a start
	// alone) that chart and compare ended with yesterday, the last whole
	// day, rather than today.
	EndsYesterday bool
}

// Describe names the range for chart and compare: "the last 7 whole days,
// Nov 16 – Nov 22, 2026" when it was ended with yesterday, else String.
func (r Range) Describe() string {
	if !r.EndsYesterday && !r.TodayLeftOut {
		return r.String()
	}
	if n := r.Days(); n > 1 {
		return fmt.Sprintf("the last %d whole days, %s", n, r)
	}
	return "the last whole day, " + r.String()
}

// LeftOutNote says that today is not in the range because it is still
// counting, "" when the range was not ended before today.
func (r Range) LeftOutNote() string {
	if !r.EndsYesterday && !r.TodayLeftOut {
		return ""
	}
	return "Whole UTC days only: today (" + r.Last.AddDate(0, 0, 1).Format("Jan 2") + ") is still counting, so it is left out."
}

// Days returns the number of days in the range.
func (r Range) Days() int { return int(r.Last.Sub(r.First)/(24*time.Hour)) + 1 }

// Params returns the API's dateFrom and dateTo; dateTo is exclusive, so it
// is the day after Last.
func (r Range) Params() (from, to string) {
	return r.First.Format(time.DateOnly), r.Last.AddDate(0, 0, 1).Format(time.DateOnly)
}

// String reads like "Nov 1 – Nov 7, 2025", "Dec 29, 2024 – Jan 4, 2025" or
// "Nov 7, 2025".
func (r Range) String() string {
	switch {
	case r.First.Equal(r.Last):
		return r.Last.Format("Jan 2, 2006")
	case r.First.Year() == r.Last.Year():
		return r.First.Format("Jan 2") + " – " + r.Last.Format("Jan 2, 2006")
	}
	return r.First.Format("Jan 2, 2006") + " – " + r.Last.Format("Jan 2, 2006")
}

// HistoryStart is the earliest day a range may start: the analytics keep
// HistoryDays days, counted back from today, or from yesterday for
// the modes that work on whole days (so that 400d still fits).
func HistoryStart(today time.Time, wholeDays bool) time.Time {
	end := today
	if wholeDays {
		end = today.AddDate(0, 0, -1)
	}
	return end.AddDate(0, 0, -(HistoryDays - 1))
}

// Parse reads one range word (lower case) relative to today. With
// wholeDays, a relative range ends with yesterday (the last closed day)
// rather than today; ranges that name their last day (today, a..b) keep it.
func Parse(word string, today time.Time, wholeDays bool) (Range, *Error) {
	// end is where a relative range ends.
	end := today
	if wholeDays {
		end = today.AddDate(0, 0, -1)
	}
	var first, last time.Time
	switch word {
	case "today":
		first, last = today, today
	case "yesterday":
		first = today.AddDate(0, 0, -1)
		last = first
	case "this-month":
		first, last = time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC), end
		if last.Before(first) {
			return Range{}, &Error{word, "this month has no whole day yet (today, the 1st, is still counting): try `last-month`, or `this-month` without `chart` or `compare`"}
		}
	case "last-month":
		// Day 0 of this month is the last day of the previous one.
		last = time.Date(today.Year(), today.Month(), 0, 0, 0, 0, 0, time.UTC)
		first = time.Date(last.Year(), last.Month(), 1, 0, 0, 0, 0, time.UTC)
	default:
		var err *Error
		first, last, err = parseSpan(word, today, end)
		if err != nil {
			return Range{}, err
		}
	}
	r, err := checkRange(word, first, last, today, wholeDays)
	// Ranges whose end follows the clock; the others name their last day.
	relative := word == "this-month" || relativePattern.MatchString(word) || datePattern.MatchString(word)
	r.EndsYesterday = wholeDays && relative && err == nil && r.Last.Equal(end) && end.Before(today)
	return r, err
}

// parseSpan reads "7d", "12w", "2025-11-01" and "2025-11-01..2025-11-07";
// the relative ones and a start alone end on end (today, or yesterday for
// whole days).
func parseSpan(word string, today, end time.Time) (first, last time.Time, _ *Error) {
	if m := relativePattern.FindStringSubmatch(word); m != nil {
		// Only digits: Atoi fails only on numbers too large for an int.
		n, err := strconv.Atoi(m[1])
		days := n
		if err == nil && m[2] == "w" && n <= HistoryDays {
			days = n * 7
		}
		switch {
		case err != nil || days > HistoryDays:
			return first, last, &Error{word, fmt.Sprintf("that is longer than the %d days the analytics keep", HistoryDays)}
		case n < 1:
			return first, last, &Error{word, "the number of days or weeks must be at least 1"}
		}
		return end.AddDate(0, 0, -(days - 1)), end, nil
	}
	if a, b, ok := strings.Cut(word, ".."); ok {
		first, err := parseDay(a, word)
		if err != nil {
			return first, last, err
		}
		last, err := parseDay(b, word)
		if err != nil {
			return first, last, err
		}
		if first.After(last) {
			return first, last, &Error{word, "the start is after the end"}
		}
		return first, last, nil
	}
	if datePattern.MatchString(word) {
		first, err := parseDay(word, word)
		// A start of today has no whole day before its end: it is today's
		// range, as typed.
		return first, MaxTime(first, end), err
	}
	return first, last, &Error{word, "that is not a date range or an option"}
}

// parseDay reads one YYYY-MM-DD date; whole is the word it is part of.
func parseDay(s, whole string) (time.Time, *Error) {
	if !datePattern.MatchString(s) {
		return time.Time{}, &Error{whole, "dates are written YYYY-MM-DD, such as 2025-11-01"}
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, &Error{whole, mrkdwn.Escape(s) + " is not a day of the calendar"}
	}
	return t, nil
}

// checkRange applies the rules every range shares: it lies within the
// analytics' history (HistoryStart), starts no later than today, and ends
// today at the latest.
func checkRange(word string, first, last, today time.Time, wholeDays bool) (Range, *Error) {
	earliest := HistoryStart(today, wholeDays)
	switch {
	case first.After(today):
		return Range{}, &Error{word, "it starts after today (" + today.Format(time.DateOnly) + " UTC)"}
	case first.Before(earliest):
		return Range{}, &Error{word, fmt.Sprintf("the analytics keep only the last %d days, so the earliest start is %s",
			HistoryDays, earliest.Format(time.DateOnly))}
	}
	// A range that reaches past today stops at today: later days have no data.
	last = MinTime(last, today)
	return Range{First: first, Last: last, Today: last.Equal(today)}, nil
}

// MinTime is the earlier of a and b.
func MinTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// MaxTime is the later of a and b.
func MaxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Midnight returns the start of t's UTC day.
func Midnight(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
