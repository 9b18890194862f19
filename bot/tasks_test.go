package bot

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestTasksRunEachOnceAndEndTheirGoroutines: every function given to Go
// runs once, on goroutines kept between pieces of work; closed, the group
// takes no more, and the goroutines that waited for work end.
func TestTasksRunEachOnceAndEndTheirGoroutines(t *testing.T) {
	var tk tasks
	var ran atomic.Int64
	release := make(chan struct{})
	// More at once than may wait afterwards: some goroutines end, the
	// rest wait for work.
	var started sync.WaitGroup
	for range 3 * idleWorkers {
		started.Add(1)
		if !tk.Go(func() { started.Done(); <-release; ran.Add(1) }) {
			t.Fatal("Go refused work on an open group")
		}
	}
	started.Wait()
	close(release)
	tk.waitIdle(time.Minute)
	for range 1000 {
		tk.Go(func() { ran.Add(1) })
	}
	if !tk.closeAndWait(time.Minute) {
		t.Fatal("closeAndWait: the work did not finish")
	}
	if n := ran.Load(); n != 3*idleWorkers+1000 {
		t.Fatalf("%d functions ran, want %d", n, 3*idleWorkers+1000)
	}
	if tk.Go(func() { t.Error("ran after close") }) {
		t.Fatal("Go took work after close")
	}
	tk.closeAndWait(0) // again, as Bot.Run does after its grace
	tk.workers.Wait()  // each goroutine that waited for work was handed nil
	if tk.waiting != 0 {
		t.Fatalf("%d goroutines still counted as waiting", tk.waiting)
	}
}
