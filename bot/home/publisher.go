package home

import (
	"context"
	"sync"
)

// publisher collapses the publishes of one person's Home asked for while
// one is under way: each request takes a number; the caller that gets the
// person's turn publishes what is stored then, which covers every request
// numbered before it started, and those callers return without publishing.
// So a burst of job changes costs one views.publish more, not one each.
type publisher struct {
	mu    sync.Mutex
	users map[string]*turn
}

// turn is one person's publishing state.
type turn struct {
	// lock is held by the caller publishing; a channel so waiting honours ctx.
	lock chan struct{}
	// asked numbers the requests; done is the last number a finished
	// publish covered.
	asked, done uint64
	// waiting counts the callers holding this turn, to forget it after.
	waiting int
}

// publish runs fn for key unless a publish that started after this call
// finished successfully meanwhile.
func (p *publisher) publish(ctx context.Context, key string, fn func() error) error {
	p.mu.Lock()
	if p.users == nil {
		p.users = map[string]*turn{}
	}
	t := p.users[key]
	if t == nil {
		t = &turn{lock: make(chan struct{}, 1)}
		p.users[key] = t
	}
	t.asked++
	mine := t.asked
	t.waiting++
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		t.waiting--
		if t.waiting == 0 {
			delete(p.users, key)
		}
		p.mu.Unlock()
	}()

	select {
	case t.lock <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-t.lock }()
	p.mu.Lock()
	covered := t.done >= mine
	upTo := t.asked
	p.mu.Unlock()
	if covered {
		return nil
	}
	if err := fn(); err != nil {
		return err
	}
	p.mu.Lock()
	t.done = max(t.done, upTo)
	p.mu.Unlock()
	return nil
}
