package bot

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/docsbot/docsbot/docsapi"
)

// Metrics counts what the core of a replica does (commands, Slack and the
// docs API, the inbox), in the Prometheus format; each feature registers its
// own metrics with Register. All methods work on a nil *Metrics and then
// record nothing, so tests and tools need no registry.
type Metrics struct {
	// reg is where the features register their own metrics (Register).
	reg           prometheus.Registerer
	commands      *prometheus.CounterVec
	apiCalls      *prometheus.CounterVec
	apiLatency    *prometheus.HistogramVec
	connects      prometheus.Counter
	slack429      *prometheus.CounterVec
	inbox         prometheus.Gauge
	work          *prometheus.CounterVec
	slackRequests *prometheus.CounterVec
	// outcomes and firstText are the questions' (bot/outcome's Metered
	// counts them, once across replicas).
	outcomes  *prometheus.CounterVec
	firstText prometheus.Histogram
}

// NewMetrics creates the bot's metrics and registers them with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		reg: reg,
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_commands_total", Help: "Slash commands received, by command.",
		}, []string{"command"}),
		apiCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_api_requests_total", Help: "Docs API requests, by endpoint and HTTP status (\"error\" when no answer came).",
		}, []string{"endpoint", "code"}),
		apiLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "docsbot_api_request_duration_seconds", Help: "Docs API request latency, by endpoint.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"endpoint"}),
		connects: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docsbot_slack_connects_total", Help: "Slack Socket Mode connections opened; more than one means reconnects.",
		}),
		slack429: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_slack_rate_limited_total", Help: "Slack Web API answers 429 ratelimited, by method; each was waited out and retried.",
		}, []string{"method"}),
		inbox: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docsbot_inbox_queued", Help: "Acknowledged Slack work waiting or being done (all replicas).",
		}),
		work: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_inbox_work_total", Help: "Inbox work taken, by kind and outcome: done, retried (deferred for later), told (the person was told it could not be done), refused (storage down at the ack).",
		}, []string{"kind", "outcome"}),
		slackRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_slack_requests_total", Help: "HTTP mode: requests from Slack answered, by path and HTTP status (401 not signed by Slack, 413 too large, 503 not recorded: Slack retries).",
		}, []string{"path", "code"}),
		outcomes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsbot_answer_outcomes_total", Help: "Questions docsbot answered entering each outcome: open (answered), uncertain, resolved, resolved_by_expert, handed_off, rated_helpful, rated_unhelpful; each change counted once across replicas, by the replica that wrote it (no_signal is decided when read: /docs-health quality counts it).",
		}, []string{"outcome"}),
		firstText: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "docsbot_question_first_text_seconds", Help: "Time from a question to the first text of docsbot's answer shown in Slack, once a question across replicas.",
			Buckets: []float64{.5, 1, 2, 3, 5, 8, 13, 20, 30, 60},
		}),
	}
	reg.MustRegister(m.commands, m.apiCalls, m.apiLatency, m.connects, m.slack429, m.inbox, m.work, m.slackRequests, m.outcomes, m.firstText)
	return m
}

// AnswerOutcome counts a question entering outcome (bot/outcome.Meter).
func (m *Metrics) AnswerOutcome(outcome string) {
	if m != nil {
		m.outcomes.WithLabelValues(outcome).Inc()
	}
}

// QuestionFirstText records a question's time to its answer's first text
// (bot/outcome.Meter).
func (m *Metrics) QuestionFirstText(d time.Duration) {
	if m != nil {
		m.firstText.Observe(d.Seconds())
	}
}

// Register registers a feature's own metrics beside the core's; on a nil
// *Metrics it does nothing. A feature registers its metrics once, in its
// Register.
func (m *Metrics) Register(cs ...prometheus.Collector) {
	if m != nil {
		m.reg.MustRegister(cs...)
	}
}

// command counts a slash command received (dispatchCommand).
func (m *Metrics) command(name string) {
	if m != nil {
		m.commands.WithLabelValues(name).Inc()
	}
}

func (m *Metrics) connected() {
	if m != nil {
		m.connects.Inc()
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
