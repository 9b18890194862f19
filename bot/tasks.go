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
type tasks struct {
	mu     sync.Mutex
	wg     sync.WaitGroup
	closed bool
	// running counts the work under way; idle is closed (and replaced)
	// each time it falls to zero.
	running int
	idle    chan struct{}
}

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

// Go runs fn unless the group is closed, and reports whether it did.
func (t *tasks) Go(fn func()) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.begin()
	go func() {
		defer t.end()
		fn()
	}()
	return true
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
	t.mu.Unlock()
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
