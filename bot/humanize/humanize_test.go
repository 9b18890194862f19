package humanize_test

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
)

func TestCount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {12345, "12,345"}, {100000, "100,000"},
		{123456, "123,456"}, {1234567, "1,234,567"}, {-1234, "-1,234"}, {-999, "-999"},
		{math.MaxInt64, "9,223,372,036,854,775,807"}, {math.MinInt64, "-9,223,372,036,854,775,808"},
	}
	for _, tt := range tests {
		got := humanize.Count(tt.n)
		if got != tt.want {
			t.Errorf("Count(%d) = %q, want %q", tt.n, got, tt.want)
		}
		if back, err := strconv.ParseInt(strings.ReplaceAll(got, ",", ""), 10, 64); err != nil || back != tt.n {
			t.Errorf("Count(%d) does not read back: %v", tt.n, err)
		}
	}
}

func TestPercent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		part, whole int64
		want        string
		ok          bool
	}{
		{1, 3, "33.3%", true}, {0, 10, "0.0%", true}, {10, 10, "100.0%", true},
		{2345, 12345, "19.0%", true}, {5, 0, "", false}, {0, -1, "", false},
	}
	for _, tt := range tests {
		if got, ok := humanize.Percent(tt.part, tt.whole); got != tt.want || ok != tt.ok {
			t.Errorf("Percent(%d, %d) = %q, %v; want %q, %v", tt.part, tt.whole, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRoundUp(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want time.Duration }{
		{0, 0}, {time.Millisecond, time.Second}, {30 * time.Second, 30 * time.Second}, {30*time.Second + 1, 31 * time.Second},
	} {
		if got := humanize.RoundUp(tt.in); got != tt.want {
			t.Errorf("RoundUp(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
