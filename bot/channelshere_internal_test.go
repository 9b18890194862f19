package bot

import (
	"testing"
	"time"
)

// TestChannelsHereKeepsWhatSlackSaid: an answer is kept per workspace and
// channel for channelsHereFresh, not before it was read, and the answers
// are dropped all at once past channelsHereMax.
func TestChannelsHereKeepsWhatSlackSaid(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	var c channelsHere
	c.put("T1", "C1", true, at)
	c.put("T2", "C1", false, at)
	tests := []struct {
		name          string
		team, channel string
		now           time.Time
		here, ok      bool
	}{
		{"this workspace's", "T1", "C1", at.Add(time.Minute), true, true},
		{"another workspace's answer of the same channel", "T2", "C1", at.Add(time.Minute), false, true},
		{"never asked", "T1", "C2", at, false, false},
		{"stale", "T1", "C1", at.Add(channelsHereFresh), false, false},
		{"read after now (the clock moved back)", "T1", "C1", at.Add(-time.Second), false, false},
	}
	for _, tt := range tests {
		if here, ok := c.get(tt.team, tt.channel, tt.now); here != tt.here || ok != tt.ok {
			t.Errorf("%s: get = %v, %v; want %v, %v", tt.name, here, ok, tt.here, tt.ok)
		}
	}
	for i := range channelsHereMax {
		c.put("T3", "C"+string(rune('A'+i%26))+time.Duration(i).String(), true, at)
	}
	if _, ok := c.get("T1", "C1", at); ok {
		t.Error("an answer outlived the bound on the answers kept")
	}
	if len(c.seen) > channelsHereMax {
		t.Errorf("%d answers kept, want at most %d", len(c.seen), channelsHereMax)
	}
}
