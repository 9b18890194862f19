package slacktest

import "context"

// changed wakes every subscriber of Changes (and so every WaitFor). It must be
// called without holding s.mu; the sends never block.
func (s *Server) changed() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range s.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Changes subscribes to state changes: the channel receives a value (coalesced,
// never blocking the server) after messages, calls, acks, connections or
// settings change, for a live view to re-render. The returned func unsubscribes.
func (s *Server) Changes() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	id := s.nextSub
	s.nextSub++
	s.subs[id] = ch
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.subs, id)
		s.mu.Unlock()
	}
}

// WaitFor returns nil once cond is true. It evaluates cond now and again after
// every state change, and returns ctx's error if ctx ends first. cond may call
// the server's inspection methods.
func (s *Server) WaitFor(ctx context.Context, cond func() bool) error {
	ch, stop := s.Changes()
	defer stop()
	for {
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			if cond() {
				return nil
			}
			return ctx.Err()
		}
	}
}
