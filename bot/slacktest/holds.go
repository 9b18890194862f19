package slacktest

import (
	"context"
	"maps"
	"slices"
	"sync"
)

// Hold is a Web API call Slack carried out whose answer it keeps back
// (HoldAnswer): what the call did is seen by everyone else at once (the
// message shows, its echo and the events it causes are delivered, people
// may react to it or press its buttons), while the app that made the call
// hears nothing of it until Release. It is the moment between a post
// showing and its poster learning its ts.
type Hold struct {
	method string
	match  func(params map[string]string) bool

	done    chan struct{} // closed once a call was carried out and held
	release chan struct{} // closed by Release
	once    sync.Once
	call    HeldCall // set before done is closed
}

// HeldCall is the call a Hold keeps the answer of: its parameters and the
// channel and ts it answers with (those of the message it posted, for a
// post or a stream's end).
type HeldCall struct {
	Params      map[string]string
	Channel, TS string
}

// HoldAnswer holds the answer of the next call of method whose parameters
// match (every call when match is nil) and that succeeds: one call, the
// first to come. The answer goes once the test calls Release, or the
// server closes. A test should Release what it holds (t.Cleanup).
func (s *Server) HoldAnswer(method string, match func(params map[string]string) bool) *Hold {
	h := &Hold{method: method, match: match, done: make(chan struct{}), release: make(chan struct{})}
	f := s.faults
	f.mu.Lock()
	f.holds = append(f.holds, h)
	f.mu.Unlock()
	return h
}

// Wait returns the held call once one was carried out, or ctx's error.
func (h *Hold) Wait(ctx context.Context) (HeldCall, error) {
	select {
	case <-h.done:
		return h.call, nil
	case <-ctx.Done():
		return HeldCall{}, ctx.Err()
	}
}

// Release lets the held answer go (now, or at once when the call comes
// later); releasing again does nothing.
func (h *Hold) Release() { h.once.Do(func() { close(h.release) }) }

// takeHold spends the first hold armed for a call of method with params.
func (f *faults) takeHold(method string, params map[string]string) *Hold {
	f.mu.Lock()
	defer f.mu.Unlock()
	i := slices.IndexFunc(f.holds, func(h *Hold) bool { return h.method == method && (h.match == nil || h.match(params)) })
	if i < 0 {
		return nil
	}
	h := f.holds[i]
	f.holds = slices.Delete(f.holds, i, i+1)
	return h
}

// hold keeps back the answer res of a call of method that succeeded, when a
// hold is armed for it, until it is released, the caller stops waiting or
// the server closes.
func (s *Server) hold(ctx context.Context, method string, params map[string]string, res apiResult) {
	if res.err != "" {
		return
	}
	h := s.faults.takeHold(method, params)
	if h == nil {
		return
	}
	h.call = HeldCall{Params: maps.Clone(params), Channel: params["channel"]}
	if ch, ok := res.fields["channel"].(string); ok {
		h.call.Channel = ch
	}
	h.call.TS, _ = res.fields["ts"].(string)
	if h.call.TS == "" {
		h.call.TS = params["ts"]
	}
	close(h.done)
	s.changed()
	select {
	case <-h.release:
	case <-ctx.Done():
	case <-s.ctx.Done():
	}
}
