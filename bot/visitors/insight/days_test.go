package insight_test

import (
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/visitors/insight"
)

func TestMissingDays(t *testing.T) {
	t.Parallel()
	first := date(t, "2026-11-01")
	cases := []struct {
		name string
		last string
		days []insight.DayCounts
		want string
	}{
		{"none missing", "2026-11-07", trafficDays(first, 7), ""},
		{"all missing", "2026-11-03", nil, "Nov 1–3"},
		{"runs", "2026-11-30", trafficDays(first, 30, 0, 1, 2, 8, 28, 29), "Nov 1–3, Nov 9, Nov 29–30"},
		// A count of a day given at another time of that day still counts
		// for the day.
		{"time of day ignored", "2026-11-02", []insight.DayCounts{{Date: first.Add(15 * time.Hour)}}, "Nov 2"},
	}
	for _, tc := range cases {
		got, err := insight.MissingDays(first, date(t, tc.last), tc.days)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if s := insight.FormatDays(got); s != tc.want {
			t.Errorf("%s: missing %q, want %q", tc.name, s, tc.want)
		}
	}
}

func TestMissingDaysRejects(t *testing.T) {
	t.Parallel()
	first := date(t, "2026-11-01")
	cases := []struct {
		name string
		last time.Time
		days []insight.DayCounts
	}{
		{"backwards", first.AddDate(0, 0, -1), nil},
		{"too long", first.AddDate(0, 0, insight.MaxTrendDays), nil},
		{"day before the range", first.AddDate(0, 0, 6), []insight.DayCounts{{Date: first.AddDate(0, 0, -1)}}},
		{"day after the range", first.AddDate(0, 0, 6), []insight.DayCounts{{Date: first.AddDate(0, 0, 7)}}},
		{"day twice", first.AddDate(0, 0, 6), []insight.DayCounts{{Date: first}, {Date: first}}},
	}
	for _, tc := range cases {
		if _, err := insight.MissingDays(first, tc.last, tc.days); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
		if _, err := insight.RenderTrend(insight.Trend{First: first, Last: tc.last, Days: tc.days}); err == nil {
			t.Errorf("%s: RenderTrend drew it", tc.name)
		}
	}
	if _, err := insight.RenderTrend(insight.Trend{First: first, Last: first, Width: 100, Height: 100}); err == nil {
		t.Error("RenderTrend drew a 100×100 chart")
	}
}

func TestFormatDays(t *testing.T) {
	t.Parallel()
	days := func(ss ...string) []time.Time {
		out := make([]time.Time, len(ss))
		for i, s := range ss {
			out[i] = date(t, s)
		}
		return out
	}
	cases := []struct {
		days []time.Time
		want string
	}{
		{nil, ""},
		{days("2026-11-09"), "Nov 9"},
		{days("2026-10-30", "2026-10-31", "2026-11-01", "2026-11-05"), "Oct 30 – Nov 1, Nov 5"},
		{days("2025-12-30", "2025-12-31", "2026-01-01", "2026-01-03", "2026-01-04"), "Dec 30, 2025 – Jan 1, 2026, Jan 3–4, 2026"},
		{days("2026-11-01", "2026-11-03", "2026-11-05", "2026-11-07", "2026-11-09", "2026-11-11", "2026-11-13", "2026-11-14", "2026-11-17"),
			"Nov 1, Nov 3, Nov 5, Nov 7, Nov 9, Nov 11 and 3 more days"},
		{days("2026-11-01", "2026-11-03", "2026-11-05", "2026-11-07", "2026-11-09", "2026-11-11", "2026-11-13"),
			"Nov 1, Nov 3, Nov 5, Nov 7, Nov 9, Nov 11 and 1 more day"},
	}
	for _, tc := range cases {
		if got := insight.FormatDays(tc.days); got != tc.want {
			t.Errorf("FormatDays(%v) = %q, want %q", tc.days, got, tc.want)
		}
	}
}

func TestRangeText(t *testing.T) {
	t.Parallel()
	cases := []struct{ first, last, want string }{
		{"2026-11-07", "2026-11-07", "Nov 7, 2026"},
		{"2026-11-01", "2026-11-07", "Nov 1 – Nov 7, 2026"},
		{"2025-12-29", "2026-01-04", "Dec 29, 2025 – Jan 4, 2026"},
	}
	for _, tc := range cases {
		if got := insight.RangeText(date(t, tc.first), date(t, tc.last)); got != tc.want {
			t.Errorf("RangeText(%s, %s) = %q, want %q", tc.first, tc.last, got, tc.want)
		}
	}
}
