package store_test

import (
	"testing"
)

// TestServerStats checks the figures the load tool reads: used memory, and
// command calls that grow with the commands run (summed over a cluster's
// primaries).
func TestServerStats(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	before, err := s.Stats().ServerStats(ctx)
	if err != nil {
		t.Fatalf("ServerStats: %v", err)
	}
	if before.Nodes < 1 || before.UsedMemory <= 0 || before.Calls <= 0 {
		t.Fatalf("ServerStats = %+v, want nodes, memory and calls", before)
	}
	for i := range 20 {
		link(t, s, testJob(i))
	}
	after, err := s.Stats().ServerStats(ctx)
	if err != nil {
		t.Fatalf("ServerStats: %v", err)
	}
	if after.Nodes != before.Nodes || after.Calls < before.Calls+20 {
		t.Fatalf("ServerStats after 20 links = %+v, before %+v; want at least 20 more calls", after, before)
	}
}
