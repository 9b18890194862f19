package daterange

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	t.Parallel()
	today := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	tests := []struct {
		word        string
		whole       bool
		first, last string
		problem     bool
	}{
		{"7d", false, "2026-11-20", "2026-11-26", false},
		{"7d", true, "2026-11-19", "2026-11-25", false},
		{"2w", false, "2026-11-13", "2026-11-26", false},
		{"yesterday", false, "2026-11-25", "2026-11-25", false},
		{"last-month", false, "2026-10-01", "2026-10-31", false},
		{"2026-11-01..2026-11-07", false, "2026-11-01", "2026-11-07", false},
		{"2026-11-07..2026-11-01", false, "", "", true},
		{"401d", false, "", "", true},
		{"2026-02-30", false, "", "", true},
		{"soon", false, "", "", true},
	}
	for _, tt := range tests {
		r, err := Parse(tt.word, today, tt.whole)
		if (err != nil) != tt.problem {
			t.Errorf("Parse(%q): error %v, want one: %v", tt.word, err, tt.problem)
			continue
		}
		if err == nil && (!r.First.Equal(day(tt.first)) || !r.Last.Equal(day(tt.last))) {
			t.Errorf("Parse(%q, whole %v) = %s, want %s..%s", tt.word, tt.whole, r, tt.first, tt.last)
		}
	}
}
