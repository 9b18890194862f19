package bot

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/docsbot/docsbot/docsapi"
)

// Metrics counts what a replica does, in the Prometheus format. All methods
// work on a nil *Metrics and then record nothing, so tests and tools need no
// registry.
type Metrics struct {
	commands      *prometheus.CounterVec
	jobsCreated   prometheus.Counter
	followUps     prometheus.Counter
	notifications *prometheus.CounterVec
	apiCalls      *prometheus.CounterVec
	apiLatency    *prometheus.HistogramVec
	pollLag       prometheus.Histogram
	tracked       prometheus.Gauge
	connects      prometheus.Counter
	visitorsCache *prometheus.CounterVec
	slack429      *prometheus.CounterVec
	inbox         prometheus.Gauge
	work          *prometheus.CounterVec
	feedback      *prometheus.CounterVec
	slackRequests *prometheus.CounterVec
}

// NewMetrics creates the bot's metrics and registers them with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_commands_total", Help: "Slash commands received, by command.",
		}, []string{"command"}),
		jobsCreated: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docsbot_jobs_created_total", Help: "Agent jobs created and linked to a thread.",
		}),
		followUps: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docsbot_followups_total", Help: "Thread replies sent to a job as follow-up messages.",
		}),
		notifications: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_notifications_total", Help: "Job results posted in threads, by job status.",
		}, []string{"status"}),
		apiCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_api_requests_total", Help: "Docs API requests, by endpoint and HTTP status (\"error\" when no answer came).",
		}, []string{"endpoint", "code"}),
		apiLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "docsbot_api_request_duration_seconds", Help: "Docs API request latency, by endpoint.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"endpoint"}),
		pollLag: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "docsbot_poll_lag_seconds", Help: "How long after its due time a job was polled.",
			Buckets: []float64{.005, .01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}),
		tracked: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docsbot_tracked_jobs", Help: "Jobs in the shared poll schedule (all replicas).",
		}),
		connects: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docsbot_slack_connects_total", Help: "Slack Socket Mode connections opened; more than one means reconnects.",
		}),
		visitorsCache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_visitors_cache_total", Help: "/docs-visitors lookups, by cache result: hit, stale or miss.",
		}, []string{"result"}),
		slack429: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_slack_rate_limited_total", Help: "Slack Web API answers 429 ratelimited, by method; each was waited out and retried.",
		}, []string{"method"}),
		inbox: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docsbot_inbox_queued", Help: "Acknowledged Slack work waiting or being done (all replicas).",
		}),
		work: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_inbox_work_total", Help: "Inbox work taken, by kind and outcome: done, retried (deferred for later), told (the person was told it could not be done), refused (storage down at the ack).",
		}, []string{"kind", "outcome"}),
		feedback: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_feedback_total", Help: "Feedback on the agent's results, by outcome (positive or negative); once per person and result.",
		}, []string{"outcome"}),
		slackRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_slack_requests_total", Help: "HTTP mode: requests from Slack answered, by path and HTTP status (401 not signed by Slack, 413 too large, 503 not recorded: Slack retries).",
		}, []string{"path", "code"}),
	}
	reg.MustRegister(m.commands, m.jobsCreated, m.followUps, m.notifications, m.apiCalls,
		m.apiLatency, m.pollLag, m.tracked, m.connects, m.visitorsCache, m.slack429, m.inbox, m.work, m.feedback, m.slackRequests)
	return m
}

// Command counts a slash command received.
func (m *Metrics) Command(name string) {
	if m != nil {
		m.commands.WithLabelValues(name).Inc()
	}
}

// JobCreated counts an agent job created and linked to a thread.
func (m *Metrics) JobCreated() {
	if m != nil {
		m.jobsCreated.Inc()
	}
}

// FollowUp counts a thread reply sent to a job.
func (m *Metrics) FollowUp() {
	if m != nil {
		m.followUps.Inc()
	}
}

// Notified counts a job result posted in its thread.
func (m *Metrics) Notified(status docsapi.Status) {
	if m != nil {
		m.notifications.WithLabelValues(string(status)).Inc()
	}
}

// Feedback counts a person's first feedback on a result: "positive" or
// "negative".
func (m *Metrics) Feedback(outcome string) {
	if m != nil {
		m.feedback.WithLabelValues(outcome).Inc()
	}
}

// Polled records how long after its due time a job was polled.
func (m *Metrics) Polled(late time.Duration) {
	if m != nil {
		m.pollLag.Observe(late.Seconds())
	}
}

// TrackedJobs sets the number of jobs in the shared poll schedule.
func (m *Metrics) TrackedJobs(n int64) {
	if m != nil {
		m.tracked.Set(float64(n))
	}
}

func (m *Metrics) connected() {
	if m != nil {
		m.connects.Inc()
	}
}

// VisitorsCache records a /docs-visitors cache lookup: "hit", "stale" or "miss".
func (m *Metrics) VisitorsCache(result string) {
	if m != nil {
		m.visitorsCache.WithLabelValues(result).Inc()
	}
}

// InstrumentAPI wraps the docs API client's transport so every request is
// counted and timed by endpoint and status.
func (m *Metrics) InstrumentAPI(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	if m == nil {
		return next
	}
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		endpoint := docsapi.EndpointOf(req.Method, req.URL.Path)
		start := time.Now()
		resp, err := next.RoundTrip(req)
		m.apiLatency.WithLabelValues(endpoint).Observe(time.Since(start).Seconds())
		code := "error"
		if err == nil {
			code = strconv.Itoa(resp.StatusCode)
		}
		m.apiCalls.WithLabelValues(endpoint, code).Inc()
		return resp, err
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func (m *Metrics) slackRateLimited(method string) {
	if m != nil {
		m.slack429.WithLabelValues(method).Inc()
	}
}

func (m *Metrics) queued(n int64) {
	if m != nil {
		m.inbox.Set(float64(n))
	}
}

// instrumentSlack counts the answers h gives to Slack's requests on path.
func (m *Metrics) instrumentSlack(path string, h http.Handler) http.Handler {
	if m == nil {
		return h
	}
	return promhttp.InstrumentHandlerCounter(m.slackRequests.MustCurryWith(prometheus.Labels{"path": path}), h)
}

func (m *Metrics) workOutcome(kind, outcome string) {
	if m != nil {
		m.work.WithLabelValues(kind, outcome).Inc()
	}
}
