package slacktest

import "time"

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
	s.mu.Lock()
	s.fails[method] = &failRule{code: slackError, times: times}
	s.mu.Unlock()
	s.changed()
}

// RateLimit makes the next times calls of method answer HTTP 429 with
// Retry-After (whole seconds, rounded up) and {"ok":false,"error":"ratelimited"}.
// method "response_url" applies to posts on slash commands' response URLs.
// It replaces an earlier rule for method.
func (s *Server) RateLimit(method string, times int, retryAfter time.Duration) {
	s.mu.Lock()
	s.limits[method] = &rateRule{retryAfter: retryAfter, times: times}
	s.mu.Unlock()
	s.changed()
}

// SetAPILatency delays every answer of method by d ("" = every method; a
// method's own setting wins), and what the call does with it: a caller that
// stops waiting does not stop it (InFlight counts it meanwhile). 0 removes
// the delay.
func (s *Server) SetAPILatency(method string, d time.Duration) {
	s.mu.Lock()
	if d <= 0 {
		delete(s.latency, method)
	} else {
		s.latency[method] = d
	}
	s.mu.Unlock()
	s.changed()
}

// InFlight is the number of calls of method ("" = every method) received
// and not yet answered: a test that stops the bot while one is in flight
// knows that Slack will carry it out all the same.
func (s *Server) InFlight(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if method == "" {
		n := 0
		for _, c := range s.inflight {
			n += c
		}
		return n
	}
	return s.inflight[method]
}

// arrived counts a call of method in flight (+1) or answered (-1).
func (s *Server) arrived(method string, d int) {
	s.mu.Lock()
	s.inflight[method] += d
	s.mu.Unlock()
	s.changed()
}

func (s *Server) apiLatency(method string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.latency[method]; ok {
		return d
	}
	return s.latency[""]
}

func (s *Server) takeFailure(method string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.fails[method]
	if !ok || r.times <= 0 {
		return "", false
	}
	r.times--
	return r.code, true
}

func (s *Server) takeRateLimit(method string) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.limits[method]
	if !ok || r.times <= 0 {
		return 0, false
	}
	r.times--
	return r.retryAfter, true
}
