package digest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/digest"
)

func TestParse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text string
		want string // String() of the schedule
	}{
		{"", "Mon 09:00 UTC"},
		{"Mon 09:00 UTC", "Mon 09:00 UTC"},
		{"monday 9:00 Europe/Paris", "Mon 09:00 Europe/Paris"},
		{"09:00", "Mon 09:00 UTC"},
		{"  Fri   17:30  America/New_York ", "Fri 17:30 America/New_York"},
		{"Sun 00:00 Pacific/Auckland", "Sun 00:00 Pacific/Auckland"},
		{"TUE 23:59", "Tue 23:59 UTC"},
	}
	for _, tc := range cases {
		s, err := digest.Parse(tc.text)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.text, err)
			continue
		}
		if got := s.String(); got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.text, got, tc.want)
		}
		// String reads back as the same schedule.
		if again, err := digest.Parse(s.String()); err != nil || again.String() != s.String() {
			t.Errorf("Parse(%q) = %v, %v", s.String(), again, err)
		}
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"Mon", "25:00", "Mon 09:60", "Mon 9", "Mon 09:0", "Mon 009:00", "Mon -1:00",
		"Mon 09:00 Mars/Olympus", "Mon 09:00 UTC extra", "Funday 09:00", "Mon Tue 09:00",
		"Mon 09:00 Local",
	} {
		if _, err := digest.Parse(text); !errors.Is(err, digest.ErrBadTime) {
			t.Errorf("Parse(%q) = %v, want ErrBadTime", text, err)
		}
	}
}

// at parses an RFC 3339 instant.
func at(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func TestSchedule(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		schedule string
		freq     digest.Frequency
		now      string
		latest   bool // Latest instead of Next
		// due (UTC), period, and the days reported
		due, period, first, last string
	}{
		{"default, the night before", "", digest.Weekly, "2026-11-22T23:52:00Z", false,
			"2026-11-23T09:00:00Z", "2026-W48", "2026-11-16", "2026-11-22"},
		{"at the due time, next is a week later", "", digest.Weekly, "2026-11-23T09:00:00Z", false,
			"2026-11-30T09:00:00Z", "2026-W49", "2026-11-23", "2026-11-29"},
		{"at the due time, it is the latest", "", digest.Weekly, "2026-11-23T09:00:00Z", true,
			"2026-11-23T09:00:00Z", "2026-W48", "2026-11-16", "2026-11-22"},
		{"a replica started after the due time owes it", "", digest.Weekly, "2026-11-23T09:05:00Z", true,
			"2026-11-23T09:00:00Z", "2026-W48", "2026-11-16", "2026-11-22"},
		{"a minute early, the latest is last week's", "", digest.Weekly, "2026-11-23T08:59:00Z", true,
			"2026-11-16T09:00:00Z", "2026-W47", "2026-11-09", "2026-11-15"},
		{"daily", "09:00 UTC", digest.Daily, "2026-11-22T23:52:00Z", false,
			"2026-11-23T09:00:00Z", "2026-11-23", "2026-11-22", "2026-11-22"},
		{"daily ignores the weekday", "Mon 09:00 UTC", digest.Daily, "2026-11-24T10:00:00Z", true,
			"2026-11-24T09:00:00Z", "2026-11-24", "2026-11-23", "2026-11-23"},
		{"Paris in winter (UTC+1)", "Mon 09:00 Europe/Paris", digest.Weekly, "2026-11-22T23:52:00Z", false,
			"2026-11-23T08:00:00Z", "2026-W48", "2026-11-16", "2026-11-22"},
		{"Paris in summer (UTC+2)", "Mon 09:00 Europe/Paris", digest.Weekly, "2026-05-31T12:00:00Z", false,
			"2026-06-01T07:00:00Z", "2026-W23", "2026-05-25", "2026-05-31"},
		{"daily over the spring change keeps 09:00", "09:00 Europe/Paris", digest.Daily, "2026-03-28T08:00:00Z", false,
			"2026-03-29T07:00:00Z", "2026-03-29", "2026-03-28", "2026-03-28"},
		{"daily over the autumn change keeps 09:00", "09:00 Europe/Paris", digest.Daily, "2026-10-24T07:00:00Z", false,
			"2026-10-25T08:00:00Z", "2026-10-25", "2026-10-24", "2026-10-24"},
		{"a time the clock skips is due at the jump", "Sun 02:30 Europe/Paris", digest.Weekly, "2026-03-28T12:00:00Z", false,
			"2026-03-29T01:00:00Z", "2026-W13", "2026-03-22", "2026-03-28"},
		{"a time the clock shows twice is due the first time", "Sun 02:30 Europe/Paris", digest.Weekly, "2026-10-24T12:00:00Z", false,
			"2026-10-25T00:30:00Z", "2026-W43", "2026-10-18", "2026-10-24"},
		{"and not again the second time", "Sun 02:30 Europe/Paris", digest.Weekly, "2026-10-25T00:45:00Z", false,
			"2026-11-01T01:30:00Z", "2026-W44", "2026-10-25", "2026-10-31"},
		{"New York after its change", "Mon 09:00 America/New_York", digest.Weekly, "2026-11-01T12:00:00Z", false,
			"2026-11-02T14:00:00Z", "2026-W45", "2026-10-26", "2026-11-01"},
		{"Auckland reports whole UTC days", "Mon 09:00 Pacific/Auckland", digest.Weekly, "2026-11-22T00:00:00Z", false,
			"2026-11-22T20:00:00Z", "2026-W48", "2026-11-15", "2026-11-21"},
		{"ISO week 53", "", digest.Weekly, "2026-12-27T12:00:00Z", false,
			"2026-12-28T09:00:00Z", "2026-W53", "2026-12-21", "2026-12-27"},
		{"ISO week 1 of the next year", "", digest.Weekly, "2027-01-01T12:00:00Z", false,
			"2027-01-04T09:00:00Z", "2027-W01", "2026-12-28", "2027-01-03"},
	}
	for _, tc := range cases {
		s, err := digest.Parse(tc.schedule)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		now := at(t, tc.now)
		var got digest.Slot
		if tc.latest {
			got = s.Latest(tc.freq, now)
		} else {
			got = s.Next(tc.freq, now)
		}
		if !got.Due.Equal(at(t, tc.due)) || got.Period != tc.period ||
			got.First.Format(time.DateOnly) != tc.first || got.Last.Format(time.DateOnly) != tc.last {
			t.Errorf("%s: %s %s at %s = due %s, period %s, days %s..%s; want %s, %s, %s..%s", tc.name, s, tc.freq, tc.now,
				got.Due.UTC().Format(time.RFC3339), got.Period, got.First.Format(time.DateOnly), got.Last.Format(time.DateOnly),
				tc.due, tc.period, tc.first, tc.last)
		}
	}
}

// Driving a clock forward an hour at a time over a year, every posting is
// due once, in order, a week (or a day) apart in local time.
func TestScheduleWalk(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		schedule string
		freq     digest.Frequency
		want     int
	}{
		{"Sun 02:30 Europe/Paris", digest.Weekly, 52},
		{"09:00 America/New_York", digest.Daily, 365},
	} {
		s, err := digest.Parse(tc.schedule)
		if err != nil {
			t.Fatal(err)
		}
		clock := at(t, "2026-01-01T00:00:00Z")
		end := clock.AddDate(1, 0, 0)
		seen := map[string]bool{}
		last := s.Latest(tc.freq, clock)
		for ; clock.Before(end); clock = clock.Add(time.Hour) {
			sl := s.Latest(tc.freq, clock)
			if sl.Period == last.Period {
				continue
			}
			if seen[sl.Period] {
				t.Fatalf("%s: period %s due twice", tc.schedule, sl.Period)
			}
			seen[sl.Period] = true
			if !sl.Due.After(last.Due) || sl.Due.Sub(last.Due) > 8*24*time.Hour {
				t.Fatalf("%s: %s due %v after %s due %v", tc.schedule, sl.Period, sl.Due, last.Period, last.Due)
			}
			if next := s.Next(tc.freq, last.Due); next.Period != sl.Period || !next.Due.Equal(sl.Due) {
				t.Fatalf("%s: Next after %s is %s, but the clock reached %s", tc.schedule, last.Period, next.Period, sl.Period)
			}
			last = sl
		}
		if len(seen) != tc.want {
			t.Fatalf("%s: %d postings in a year, want %d", tc.schedule, len(seen), tc.want)
		}
	}
}

func TestOwed(t *testing.T) {
	t.Parallel()
	s, err := digest.Parse("Mon 09:00 Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		freq   digest.Frequency
		now    string
		owed   bool
		period string
	}{
		{digest.Weekly, "2026-11-23T07:59:59Z", false, "2026-W47"},
		{digest.Weekly, "2026-11-23T08:00:00Z", true, "2026-W48"},
		{digest.Weekly, "2026-11-24T07:59:00Z", true, "2026-W48"},
		{digest.Weekly, "2026-11-24T08:00:00Z", false, "2026-W48"},
		{digest.Daily, "2026-11-25T13:59:00Z", true, "2026-11-25"},
		{digest.Daily, "2026-11-25T14:00:00Z", false, "2026-11-25"},
	}
	for _, tc := range cases {
		sl, owed := s.Owed(tc.freq, at(t, tc.now))
		if owed != tc.owed || sl.Period != tc.period {
			t.Errorf("Owed(%s, %s) = %s, %t; want %s, %t", tc.freq, tc.now, sl.Period, owed, tc.period, tc.owed)
		}
	}
	for _, f := range []digest.Frequency{digest.Weekly, digest.Daily} {
		period := 7 * 24 * time.Hour
		if f == digest.Daily {
			period = 24 * time.Hour
		}
		if f.Keep() <= f.Window() || f.Keep() <= period || f.Keep() >= 2*period {
			t.Errorf("%s: keep %v, window %v", f, f.Keep(), f.Window())
		}
	}
}

// TestWords: how the schedule reads to people, and when a loop needs to
// read its subscriptions at all.
func TestWords(t *testing.T) {
	t.Parallel()
	s, err := digest.Parse("Mon 09:00 Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	sunday := time.Date(2025, 11, 9, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name, got, want string
	}{
		{"weekly", s.Text(digest.Weekly), "Mondays at 09:00 Europe/Paris"},
		{"daily", s.Text(digest.Daily), "every day at 09:00 Europe/Paris"},
		{"next weekly", s.NextText(digest.Weekly, sunday), "Mon Nov 10 at 09:00 CET"},
		{"next daily", s.NextText(digest.Daily, sunday), "Mon Nov 10 at 09:00 CET"},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	owed := []struct {
		at   time.Time
		want bool
	}{
		{sunday, true}, // Sunday's daily posting came due at 08:00 UTC
		{time.Date(2025, 11, 9, 20, 0, 0, 0, time.UTC), false}, // past the daily window, a week after Monday's
		{time.Date(2025, 11, 10, 8, 30, 0, 0, time.UTC), true}, // Monday 09:30 in Paris
	}
	for _, tc := range owed {
		if got := s.AnyOwed(tc.at); got != tc.want {
			t.Errorf("AnyOwed(%v) = %v, want %v", tc.at, got, tc.want)
		}
	}
}
