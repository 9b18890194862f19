package main

import (
	"math"
	"slices"
	"time"
)

// summary is the distribution of a set of durations.
type summary struct {
	N   int           `json:"n"`
	P50 time.Duration `json:"-"`
	P90 time.Duration `json:"-"`
	P99 time.Duration `json:"-"`
	Max time.Duration `json:"-"`

	P50ms float64 `json:"p50_ms"`
	P90ms float64 `json:"p90_ms"`
	P99ms float64 `json:"p99_ms"`
	MaxMs float64 `json:"max_ms"`
}

// summarize sorts a copy of ds and takes its percentiles (nearest rank).
func summarize(ds []time.Duration) summary {
	s := slices.Clone(ds)
	slices.Sort(s)
	out := summary{N: len(s)}
	if len(s) == 0 {
		return out
	}
	out.P50, out.P90, out.P99 = percentile(s, 0.50), percentile(s, 0.90), percentile(s, 0.99)
	out.Max = s[len(s)-1]
	out.P50ms, out.P90ms, out.P99ms, out.MaxMs = msf(out.P50), msf(out.P90), msf(out.P99), msf(out.Max)
	return out
}

// percentile is the nearest-rank p-quantile of sorted, which is not empty.
func percentile(sorted []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
