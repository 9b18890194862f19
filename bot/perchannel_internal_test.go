package bot

import (
	"fmt"
	"testing"
	"time"
)

// TestPerChannelKeepsWhatWasSeen: a value is kept per workspace and
// channel while fresh, not before it was kept, until forgotten, and the
// values are dropped all at once past the bound (ChannelsHere's answers,
// PostedLately's posts).
func TestPerChannelKeepsWhatWasSeen(t *testing.T) {
	t.Parallel()
	const fresh, max = 10 * time.Minute, 64
	at := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	var c perChannel[bool]
	c.put("T1", "C1", true, max, at)
	c.put("T2", "C1", false, max, at)
	c.put("T1", "C9", true, max, at)
	c.forget("T1", "C9")
	tests := []struct {
		name          string
		team, channel string
		now           time.Time
		v, ok         bool
	}{
		{"this workspace's", "T1", "C1", at.Add(time.Minute), true, true},
		{"another workspace's value of the same channel", "T2", "C1", at.Add(time.Minute), false, true},
		{"never kept", "T1", "C2", at, false, false},
		{"forgotten", "T1", "C9", at, false, false},
		{"stale", "T1", "C1", at.Add(fresh), false, false},
		{"kept after now (the clock moved back)", "T1", "C1", at.Add(-time.Second), false, false},
	}
	for _, tt := range tests {
		if v, ok := c.get(tt.team, tt.channel, fresh, tt.now); v != tt.v || ok != tt.ok {
			t.Errorf("%s: get = %v, %v; want %v, %v", tt.name, v, ok, tt.v, tt.ok)
		}
	}
	for i := range max {
		c.put("T3", fmt.Sprintf("C%d", i), true, max, at)
	}
	if _, ok := c.get("T1", "C1", fresh, at); ok {
		t.Error("a value outlived the bound on the values kept")
	}
	if n := len(c.kept); n > max {
		t.Errorf("%d values kept, want at most %d", n, max)
	}
}
