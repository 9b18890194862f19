package agent

import (
	"testing"
	"time"
)

func TestPollGather(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ interval, want time.Duration }{
		{20 * time.Millisecond, time.Millisecond},
		{time.Second, 50 * time.Millisecond},
		{DefaultPollInterval, maxGather},
		{time.Hour, maxGather},
	} {
		if got := pollGather(tc.interval); got != tc.want {
			t.Errorf("pollGather(%v) = %v, want %v", tc.interval, got, tc.want)
		}
	}
}
