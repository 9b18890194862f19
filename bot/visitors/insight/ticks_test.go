package insight

import (
	"strings"
	"testing"
	"time"
)

// labels lists the labelled ticks of a trend of n days from first.
func labels(first string, n int) string {
	d, _ := time.Parse(time.DateOnly, first)
	var out []string
	for _, t := range (dayTicks{first: d, n: n}).ticks() {
		if t.label != "" {
			out = append(out, t.label)
		}
	}
	return strings.Join(out, "|")
}

func TestDayTicks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, first string
		n           int
		want        string
	}{
		{"one day", "2026-11-22", 1, "Nov 22"},
		{"a week: every day", "2026-11-16", 7, "Nov 16|Nov 17|Nov 18|Nov 19|Nov 20|Nov 21|Nov 22"},
		{"two weeks: every other day", "2026-11-09", 14, "Nov 9|Nov 11|Nov 13|Nov 15|Nov 17|Nov 19|Nov 21"},
		{"three weeks: every third day", "2026-11-02", 21, "Nov 2|Nov 5|Nov 8|Nov 11|Nov 14|Nov 17|Nov 20"},
		{"30 days: Mondays", "2026-10-24", 30, "Oct 26|Nov 2|Nov 9|Nov 16"},
		{"90 days: every other Monday", "2026-08-25", 90, "Aug 31|Sep 14|Sep 28|Oct 12|Oct 26|Nov 9"},
		{"180 days: month starts, the year first", "2026-05-27", 180, "Jun 2026|Jul|Aug|Sep|Oct|Nov"},
		{"400 days: every other month, the year in January", "2025-10-19", 400, "Nov 2025|Jan 2026|Mar|May|Jul|Sep|Nov"},
		{"800 days: quarters", "2024-09-14", 800, "Oct 2024|Jan 2025|Apr|Jul|Oct|Jan 2026|Apr|Jul|Oct"},
	}
	for _, tc := range cases {
		if got := labels(tc.first, tc.n); got != tc.want {
			t.Errorf("%s: labels %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCountAxis(t *testing.T) {
	t.Parallel()
	cases := []struct {
		top       int64
		step, max float64
		lastLabel string
	}{
		{0, 1, 4, "4"},
		{3, 1, 4, "4"},
		{9, 2, 10, "10"},
		{14_700, 5000, 20_000, "20,000"},
		{9_800, 2000, 12_000, "12,000"},
		{1_234_567, 250_000, 1_500_000, "1,500,000"},
	}
	for _, tc := range cases {
		a := countAxis(tc.top)
		ticks := a.ticks()
		if a.step != tc.step || a.max != tc.max || ticks[len(ticks)-1].label != tc.lastLabel {
			t.Errorf("countAxis(%d) = step %v max %v last %q; want %v, %v, %q", tc.top, a.step, a.max, ticks[len(ticks)-1].label, tc.step, tc.max, tc.lastLabel)
		}
		if a.max < float64(tc.top) || len(ticks) > 8 {
			t.Errorf("countAxis(%d): max %v below the top or %d ticks", tc.top, a.max, len(ticks))
		}
	}
}
