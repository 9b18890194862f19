package bot

import (
	"sync"
	"time"
)

// instant is a time read and written by several goroutines.
type instant struct {
	mu sync.Mutex
	t  time.Time
}

func (i *instant) set(t time.Time) {
	i.mu.Lock()
	i.t = t
	i.mu.Unlock()
}

func (i *instant) get() time.Time {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.t
}

// tasks is a WaitGroup that stops taking new work once closed.
//
// Its goroutines are kept for the next piece of work (at most
// idleWorkers of them wait at once): a new goroutine starts with a small
// stack and grows it, copied each time, through the Slack call or the JSON
// of its work, which was a sixteenth of the CPU of a slash command
// (BENCHMARKS.md, "Frames read once").
type tasks struct {
	mu     sync.Mutex
	wg     sync.WaitGroup
	closed bool
	// running counts the work under way; idle is closed (and replaced)
	// each time it falls to zero.
	running int
	idle    chan struct{}
	// waiting counts the goroutines that wait on handoff for work; each
	// is handed exactly one function, nil to end it. workers counts the
	// goroutines, running work or waiting.
	waiting int
	handoff chan func()
	workers sync.WaitGroup
}

// idleWorkers is how many goroutines may wait for work at once.
const idleWorkers = 16

// begin and end count one piece of work (Go, Do).
func (t *tasks) begin() {
	t.running++
	t.wg.Add(1)
}

func (t *tasks) end() {
	t.mu.Lock()
	t.running--
	if t.running == 0 && t.idle != nil {
		close(t.idle)
		t.idle = nil
	}
	t.mu.Unlock()
	t.wg.Done()
}

// busy is the number of pieces of work running.
func (t *tasks) busy() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.running
}

// waitIdle waits until no work runs, at most d.
func (t *tasks) waitIdle(d time.Duration) {
	t.mu.Lock()
	if t.running == 0 {
		t.mu.Unlock()
		return
	}
	if t.idle == nil {
		t.idle = make(chan struct{})
	}
	idle := t.idle
	t.mu.Unlock()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-idle:
	case <-timer.C:
	}
}

// Go runs fn unless the group is closed, and reports whether it did: on a
// goroutine that waits for work if there is one, else on a new one.
func (t *tasks) Go(fn func()) bool {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return false
	}
	t.begin()
	if t.waiting > 0 {
		t.waiting--
		t.mu.Unlock()
		t.handoff <- fn // the goroutine counted is at, or on its way to, its receive
		return true
	}
	if t.handoff == nil {
		t.handoff = make(chan func())
	}
	t.mu.Unlock()
	t.workers.Go(func() { t.worker(fn) })
	return true
}

// worker runs fn, then waits for more work while fewer than idleWorkers
// wait and the group is open.
func (t *tasks) worker(fn func()) {
	for fn != nil {
		fn()
		t.end()
		t.mu.Lock()
		if t.closed || t.waiting >= idleWorkers {
			t.mu.Unlock()
			return
		}
		t.waiting++
		handoff := t.handoff
		t.mu.Unlock()
		fn = <-handoff
	}
}

// Do runs fn in the calling goroutine, counted among the group's work, unless
// the group is closed, and reports whether it did.
func (t *tasks) Do(fn func()) bool {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return false
	}
	t.begin()
	t.mu.Unlock()
	defer t.end()
	fn()
	return true
}

// closeAndWait stops taking work and waits up to d (0: without limit) for
// what runs. It reports whether everything finished.
func (t *tasks) closeAndWait(d time.Duration) bool {
	t.mu.Lock()
	t.closed = true
	waiting, handoff := t.waiting, t.handoff
	t.waiting = 0
	t.mu.Unlock()
	for range waiting {
		handoff <- nil // ends a goroutine waiting for work
	}
	done := make(chan struct{})
	go func() { t.wg.Wait(); close(done) }()
	if d <= 0 {
		<-done
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-timer.C:
		return false
	}
}
