package docsapi

import (
	"testing"
	"time"
)

// TestParseDate checks the date forms the service accepts, and that the
// client's own validation takes exactly those.
func TestParseDate(t *testing.T) {
	t.Parallel()
	plus1 := time.FixedZone("", 3600)
	tests := []struct {
		in   string
		want time.Time // zero when the form is refused
	}{
		{"2025-11-01", time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC)},
		{"2025-11-01T08:00:00Z", time.Date(2025, 11, 1, 8, 0, 0, 0, time.UTC)},
		{"2025-11-08T12:30:00.5+01:00", time.Date(2025, 11, 8, 12, 30, 0, 500_000_000, plus1)},
		{"2025-11-01T08:00:00", time.Date(2025, 11, 1, 8, 0, 0, 0, time.UTC)},
		{"2025-11-01T08:00:00.25", time.Date(2025, 11, 1, 8, 0, 0, 250_000_000, time.UTC)},
		{"2025-11-01T08:00:00+0100", time.Date(2025, 11, 1, 8, 0, 0, 0, plus1)},
		{"2025-11-01T08:00+01:00", time.Date(2025, 11, 1, 8, 0, 0, 0, plus1)},
		{"2025-11-01T08:00Z", time.Date(2025, 11, 1, 8, 0, 0, 0, time.UTC)},
		{"2025-11-01T08:00", time.Date(2025, 11, 1, 8, 0, 0, 0, time.UTC)},
		{"", time.Time{}},
		{"Nov 1", time.Time{}},
		{"2025-11-1", time.Time{}},
		{"2025-02-30", time.Time{}},
		{" 2025-11-08", time.Time{}},
		{"2025-11-08 ", time.Time{}},
		{"2025-11-01 08:00:00Z", time.Time{}},
		{"2025-11-01T08", time.Time{}},
		{"20251101", time.Time{}},
	}
	for _, tt := range tests {
		got, ok := ParseDate(tt.in)
		if ok != !tt.want.IsZero() || !got.Equal(tt.want) {
			t.Errorf("ParseDate(%q) = %v, %t; want %v, %t", tt.in, got, ok, tt.want, !tt.want.IsZero())
		}
		// The client sends exactly what ParseDate reads.
		if err := checkVisitorsParams(VisitorsParams{From: tt.in, To: tt.in}); (err == nil) != (ok || tt.in == "") {
			t.Errorf("checkVisitorsParams with %q: %v, but ParseDate says %t", tt.in, err, ok)
		}
	}
}
