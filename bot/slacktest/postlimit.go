package slacktest

import (
	"math"
	"time"
)

// WithPostLimit makes chat.postMessage behave like Slack's per-channel limit:
// each channel has a bucket of burst posts that refills at perSecond; a post
// to a channel whose bucket is empty is answered HTTP 429 with Retry-After
// (the whole seconds until the next post fits, at least 1) and
// {"ok":false,"error":"ratelimited"}, and does not post. Slack allows about
// one message a second per channel, with short bursts.
func WithPostLimit(perSecond float64, burst int) Option {
	return func(c *config) {
		c.postRate, c.postBurst = perSecond, max(burst, 1)
	}
}

// postBucket is one channel's posting allowance.
type postBucket struct {
	tokens float64
	at     time.Time // when tokens was last brought up to date
}

// takePost spends a post from channel's bucket at now, or reports how long
// until one is available. It does nothing without WithPostLimit.
func (s *Server) takePost(channel string, now time.Time) (wait time.Duration, limited bool) {
	if s.cfg.postRate <= 0 || channel == "" {
		return 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.postBuckets[channel]
	if b == nil {
		b = &postBucket{tokens: float64(s.cfg.postBurst), at: now}
		s.postBuckets[channel] = b
	}
	b.tokens = math.Min(float64(s.cfg.postBurst), b.tokens+now.Sub(b.at).Seconds()*s.cfg.postRate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return 0, false
	}
	s.rateLimited[channel]++
	return time.Duration((1 - b.tokens) / s.cfg.postRate * float64(time.Second)), true
}

// RateLimited returns how many posts the per-channel limit refused, by
// channel (WithPostLimit).
func (s *Server) RateLimited() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.rateLimited))
	for k, v := range s.rateLimited {
		out[k] = v
	}
	return out
}
