package agent

import (
	"testing"
	"time"
)

// TestProgressRefusing: a refused budget is skipped locally until its
// refusal said one call fits, and a refusal that never fits records
// nothing.
func TestProgressRefusing(t *testing.T) {
	t.Parallel()
	var p progress
	now := time.Unix(1_700_000_000, 0)
	if p.refusing("b", now) {
		t.Fatal("a budget never refused is refusing")
	}
	p.refused("b", now, 30*time.Second)
	p.refused("c", now, 0)
	for _, tc := range []struct {
		name string
		at   time.Duration
		want bool
	}{
		{"b", 0, true},
		{"b", 29 * time.Second, true},
		{"b", 30 * time.Second, false},
		{"c", 0, false},
		{"d", 0, false},
	} {
		if got := p.refusing(tc.name, now.Add(tc.at)); got != tc.want {
			t.Errorf("refusing(%s) %v after the refusal = %v, want %v", tc.name, tc.at, got, tc.want)
		}
	}
}
