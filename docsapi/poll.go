package docsapi

import (
	"math"
	"math/rand/v2"
	"time"
)

// PollDelay is the nominal wait after the n-th poll (from 0) of one run of
// an agent job: first, then half as long again after each poll, up to
// maxDelay. The API publishes no limit for polling a job and asks for
// backoff; the bot's poller and `docsbot jobs watch` both follow this
// schedule, with Jitter.
func PollDelay(first, maxDelay time.Duration, n int) time.Duration {
	d := float64(first) * math.Pow(1.5, float64(max(n, 0)))
	return time.Duration(min(d, float64(maxDelay)))
}

// Jitter spreads d by ±10%, so that clients polling many jobs do not move in
// step.
func Jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.9 + 0.2*rand.Float64()))
}
