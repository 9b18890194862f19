package slacktest

import "time"

// Tier3PerMinute is the rate of Slack's Web API tier 3 (chat.update,
// views.publish, reactions.add): about 50 calls a minute.
const Tier3PerMinute = 50

// methodLimit is one method's allowance (WithMethodLimit).
type methodLimit struct {
	perSecond float64
	burst     int
}

// WithMethodLimit limits method to perMinute calls a minute for the
// workspace, with bursts of burst calls: a call over it is answered HTTP 429
// with Retry-After (whole seconds until the next call fits, at least 1) and
// {"ok":false,"error":"ratelimited"}, and does nothing. Use it with
// Tier3PerMinute for chat.update, views.publish and reactions.add. Off by
// default; the clock is WithClock's.
func WithMethodLimit(method string, perMinute float64, burst int) Option {
	return func(c *config) {
		if c.methodLimits == nil {
			c.methodLimits = map[string]methodLimit{}
		}
		c.methodLimits[method] = methodLimit{perSecond: perMinute / 60, burst: max(burst, 1)}
	}
}

// takeMethod spends a call of method's limit, or reports how long until one fits.
func (f *faults) takeMethod(cfg *config, method string) (time.Duration, bool) {
	l, ok := cfg.methodLimits[method]
	if !ok || l.perSecond <= 0 {
		return 0, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return spend(f.methodBuckets, method, cfg.now(), l.perSecond, l.burst)
}
