package agent

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/docsapi"
)

// metrics counts what the agent feature does, registered beside the core's
// (bot.Metrics.Register). A nil *metrics records nothing.
type metrics struct {
	jobsCreated   prometheus.Counter
	followUps     prometheus.Counter
	notifications *prometheus.CounterVec
	feedback      *prometheus.CounterVec
	pollLag       prometheus.Histogram
	tracked       prometheus.Gauge
}

// newMetrics creates the agent's metrics and registers them with core; nil
// when core is.
func newMetrics(core *bot.Metrics) *metrics {
	if core == nil {
		return nil
	}
	m := &metrics{
		jobsCreated: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docsbot_jobs_created_total", Help: "Agent jobs created and linked to a thread.",
		}),
		followUps: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docsbot_followups_total", Help: "Thread replies sent to a job as follow-up messages.",
		}),
		notifications: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_notifications_total", Help: "Job results posted in threads, by job status.",
		}, []string{"status"}),
		feedback: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_feedback_total", Help: "Feedback on the agent's results, by outcome (positive or negative); once per person and result.",
		}, []string{"outcome"}),
		pollLag: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "docsbot_poll_lag_seconds", Help: "How long after its due time a job was polled.",
			Buckets: []float64{.005, .01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}),
		tracked: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docsbot_tracked_jobs", Help: "Jobs in the shared poll schedule (all replicas).",
		}),
	}
	core.Register(m.jobsCreated, m.followUps, m.notifications, m.feedback, m.pollLag, m.tracked)
	return m
}

// JobCreated counts an agent job created and linked to a thread.
func (m *metrics) JobCreated() {
	if m != nil {
		m.jobsCreated.Inc()
	}
}

// FollowUp counts a thread reply sent to a job.
func (m *metrics) FollowUp() {
	if m != nil {
		m.followUps.Inc()
	}
}

// Notified counts a job result posted in its thread.
func (m *metrics) Notified(status docsapi.Status) {
	if m != nil {
		m.notifications.WithLabelValues(string(status)).Inc()
	}
}

// Feedback counts a person's first feedback on a result: "positive" or
// "negative".
func (m *metrics) Feedback(outcome string) {
	if m != nil {
		m.feedback.WithLabelValues(outcome).Inc()
	}
}

// Polled records how long after its due time a job was polled.
func (m *metrics) Polled(late time.Duration) {
	if m != nil {
		m.pollLag.Observe(late.Seconds())
	}
}

// TrackedJobs sets the number of jobs in the shared poll schedule.
func (m *metrics) TrackedJobs(n int64) {
	if m != nil {
		m.tracked.Set(float64(n))
	}
}
