package redistest_test

import (
	"sync/atomic"
	"testing"

	"github.com/docsbot/docsbot/store/redistest"
)

func TestUntil(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	go func() {
		for range 3 {
			n.Add(1)
		}
	}()
	redistest.Until(t, "three increments", func() bool { return n.Load() == 3 })
	if n.Load() != 3 {
		t.Fatalf("Until returned before the condition held: %d", n.Load())
	}
}
