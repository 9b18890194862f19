package visitors

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/docsbot/docsbot/bot"
)

// metrics counts what /docs-visitors does, registered beside the core's
// (bot.Metrics.Register). A nil *metrics records nothing.
type metrics struct {
	cache *prometheus.CounterVec
}

// newMetrics creates the feature's metrics and registers them with core;
// nil when core is.
func newMetrics(core *bot.Metrics) *metrics {
	if core == nil {
		return nil
	}
	m := &metrics{cache: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "docsbot_visitors_cache_total", Help: "/docs-visitors lookups, by cache result: hit, stale or miss.",
	}, []string{"result"})}
	core.Register(m.cache)
	return m
}

// VisitorsCache records a cache lookup: "hit", "stale" or "miss".
func (m *metrics) VisitorsCache(result string) {
	if m != nil {
		m.cache.WithLabelValues(result).Inc()
	}
}
