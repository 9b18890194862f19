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
func (f *faults) takePost(cfg *config, channel string, now time.Time) (wait time.Duration, limited bool) {
	if cfg.postRate <= 0 || channel == "" {
		return 0, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	wait, limited = spend(f.postBuckets, channel, now, cfg.postRate, cfg.postBurst)
	if limited {
		f.rateLimited[channel]++
	}
	return wait, limited
}

// spend takes one request from the bucket key of buckets (created full),
// which holds burst requests and refills at rate per second, or reports how
// long until one is available.
func spend(buckets map[string]*postBucket, key string, now time.Time, rate float64, burst int) (time.Duration, bool) {
	b := buckets[key]
	if b == nil {
		b = &postBucket{tokens: float64(burst), at: now}
		buckets[key] = b
	}
	b.tokens = math.Min(float64(burst), b.tokens+now.Sub(b.at).Seconds()*rate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return 0, false
	}
	return time.Duration((1 - b.tokens) / rate * float64(time.Second)), true
}
