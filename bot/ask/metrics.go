package ask

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docsbot/docsbot/bot"
)

// metrics counts the answers from the docs, registered beside the core's
// (bot.Metrics.Register). A nil *metrics records nothing.
type metrics struct {
	answers   *prometheus.CounterVec
	feedback  *prometheus.CounterVec
	firstText prometheus.Histogram
}

// newMetrics creates the feature's metrics and registers them with core;
// nil when core is.
func newMetrics(core *bot.Metrics) *metrics {
	if core == nil {
		return nil
	}
	m := &metrics{
		answers: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_answers_total", Help: "Questions answered from the docs, by outcome: answered, cut, failed, lost, stopped (Stop in the pane) or uncovered (an unasked question the docs do not cover, not shown).",
		}, []string{"outcome"}),
		feedback: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_answer_feedback_total", Help: "Feedback on answers from the docs: good or bad.",
		}, []string{"value"}),
		firstText: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "docsbot_answer_first_text_seconds", Help: "Time from the assistant's first text to its first text shown in Slack.",
			Buckets: []float64{.05, .1, .25, .5, 1, 2, 5},
		}),
	}
	core.Register(m.answers, m.feedback, m.firstText)
	return m
}

// Answer counts an answer's outcome.
func (m *metrics) Answer(outcome string) {
	if m != nil {
		m.answers.WithLabelValues(outcome).Inc()
	}
}

// Feedback counts a 👍 (good) or 👎 (bad).
func (m *metrics) Feedback(value string) {
	if m != nil {
		m.feedback.WithLabelValues(value).Inc()
	}
}

// FirstText records how long the first text took to show.
func (m *metrics) FirstText(d time.Duration) {
	if m != nil && d >= 0 {
		m.firstText.Observe(d.Seconds())
	}
}
