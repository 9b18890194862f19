package humanize_test

import (
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
)

func TestDuration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "0 seconds"}, {0, "0 seconds"}, {time.Second, "1 second"}, {45*time.Second + 900*time.Millisecond, "45 seconds"},
		{time.Minute, "1 minute"}, {10*time.Minute + 59*time.Second, "10 minutes"}, {time.Hour, "1 hour"},
		{2*time.Hour + 5*time.Minute, "2 hours 5 minutes"}, {10*time.Hour + 5*time.Minute, "10 hours"},
		{24 * time.Hour, "24 hours"}, {47*time.Hour + 59*time.Minute, "47 hours"}, {48 * time.Hour, "2 days"},
		{90 * 24 * time.Hour, "90 days"},
	}
	for _, tt := range tests {
		if got := humanize.Duration(tt.d); got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestAgo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "less than a minute ago"}, {59 * time.Second, "less than a minute ago"}, {3 * time.Minute, "3 minutes ago"},
		{2 * time.Hour, "2 hours ago"}, {72 * time.Hour, "3 days ago"},
	}
	for _, tt := range tests {
		if got := humanize.Ago(tt.d); got != tt.want {
			t.Errorf("Ago(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestIn(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 26, 14, 2, 30, 0, time.UTC)
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "in a few minutes"}, {-time.Second, "in a few minutes"},
		{19*time.Second + time.Millisecond, "in 20 seconds (at 14:02 UTC)"},
		{90 * time.Second, "in about 2 minutes (at 14:04 UTC)"},
		{12 * time.Minute, "in about 12 minutes (at 14:14 UTC)"},
	}
	for _, tt := range tests {
		if got := humanize.In(tt.d, now); got != tt.want {
			t.Errorf("In(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
