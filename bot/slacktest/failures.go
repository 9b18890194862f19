package slacktest

import (
	"maps"
	"sync"
	"time"
)

// faults is what a test told the server to get wrong and the limits it
// keeps: injected failures and rate limits (FailNext, RateLimit), latency
// (SetAPILatency) and the calls in flight meanwhile, answers held
// (HoldAnswer), the per-channel posting
// limit (WithPostLimit) and the per-method limits (WithMethodLimit). It
// locks on its own: nothing of the workspace or the deliveries is read
// under its lock.
type faults struct {
	mu       sync.Mutex
	fails    map[string]*failRule
	limits   map[string]*rateRule
	latency  map[string]time.Duration
	inflight map[string]int
	// postBuckets and rateLimited are the per-channel posting limit's state
	// and the posts it refused; methodBuckets the per-method limits' state.
	postBuckets   map[string]*postBucket
	rateLimited   map[string]int
	methodBuckets map[string]*postBucket
	// holds are the calls whose answers are to be held (HoldAnswer).
	holds []*Hold
}

func newFaults() *faults {
	return &faults{
		fails: map[string]*failRule{}, limits: map[string]*rateRule{},
		latency: map[string]time.Duration{}, inflight: map[string]int{},
		postBuckets: map[string]*postBucket{}, rateLimited: map[string]int{}, methodBuckets: map[string]*postBucket{},
	}
}

type failRule struct {
	code  string
	times int
}

type rateRule struct {
	retryAfter time.Duration
	times      int
}

// FailNext makes the next times calls of method answer {"ok":false,"error":slackError}
// (after the token checks). It replaces an earlier rule for method.
func (s *Server) FailNext(method, slackError string, times int) {
	f := s.faults
	f.mu.Lock()
	f.fails[method] = &failRule{code: slackError, times: times}
	f.mu.Unlock()
	s.changed()
}

// RateLimit makes the next times calls of method answer HTTP 429 with
// Retry-After (whole seconds, rounded up) and {"ok":false,"error":"ratelimited"}.
// method "response_url" applies to posts on slash commands' response URLs.
// It replaces an earlier rule for method.
func (s *Server) RateLimit(method string, times int, retryAfter time.Duration) {
	f := s.faults
	f.mu.Lock()
	f.limits[method] = &rateRule{retryAfter: retryAfter, times: times}
	f.mu.Unlock()
	s.changed()
}

// SetAPILatency delays every answer of method by d ("" = every method; a
// method's own setting wins), and what the call does with it: a caller that
// stops waiting does not stop it (InFlight counts it meanwhile). 0 removes
// the delay.
func (s *Server) SetAPILatency(method string, d time.Duration) {
	f := s.faults
	f.mu.Lock()
	if d <= 0 {
		delete(f.latency, method)
	} else {
		f.latency[method] = d
	}
	f.mu.Unlock()
	s.changed()
}

// InFlight is the number of calls of method ("" = every method) received
// and not yet answered: a test that stops the bot while one is in flight
// knows that Slack will carry it out all the same.
func (s *Server) InFlight(method string) int {
	f := s.faults
	f.mu.Lock()
	defer f.mu.Unlock()
	if method != "" {
		return f.inflight[method]
	}
	n := 0
	for _, c := range f.inflight {
		n += c
	}
	return n
}

// RateLimited returns how many posts the per-channel limit refused, by
// channel (WithPostLimit).
func (s *Server) RateLimited() map[string]int {
	f := s.faults
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.rateLimited)
}

// arrived counts a call of method in flight (+1) or answered (-1).
func (s *Server) arrived(method string, d int) {
	f := s.faults
	f.mu.Lock()
	f.inflight[method] += d
	f.mu.Unlock()
	s.changed()
}

// latencyOf is the delay of method's answers.
func (f *faults) latencyOf(method string) time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	if d, ok := f.latency[method]; ok {
		return d
	}
	return f.latency[""]
}

// takeFailure spends one injected failure of method, if any.
func (f *faults) takeFailure(method string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.fails[method]
	if !ok || r.times <= 0 {
		return "", false
	}
	r.times--
	return r.code, true
}

// takeRateLimit spends one injected rate limit of method, if any.
func (f *faults) takeRateLimit(method string) (time.Duration, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.limits[method]
	if !ok || r.times <= 0 {
		return 0, false
	}
	r.times--
	return r.retryAfter, true
}
