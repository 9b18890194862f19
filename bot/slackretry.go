package bot

import (
	"net/http"
	"time"

	"github.com/slack-go/slack"
)

// slackRetries bounds how often one Web API call waits out a 429. Each wait
// is what Slack's Retry-After asks (a second or more), and the caller's
// context bounds the whole call, so the bound is a backstop, not a policy.
const slackRetries = 30

// SlackOptions returns the slack-go options every Web API call of the bot
// goes through: an answer 429 ratelimited is waited out for as long as
// Slack's Retry-After asks, then the call is made again; each such answer is
// counted in m. Only 429 is retried: Slack did not act on the call, so a
// retried chat.postMessage cannot post twice. A network failure is returned,
// since a message may have been posted before the connection broke. The
// answers of chat.postMessage and chat.update reach slack-go without the
// message they echo (lightAnswers, the transport of the HTTP client the
// options set). A redirect is followed only on the host the request went
// to (checkRedirect, files.go): the token goes nowhere else.
//
// Give no slack.OptionHTTPClient before the options: they set the client's
// HTTP client, and the retries wrap it. One given after them replaces both
// lightAnswers and the retries (as install mode's client of no workspace
// does, whose transport answers without sending).
func SlackOptions(m *Metrics) []slack.Option {
	cfg := slack.DefaultRetryConfig()
	cfg.MaxRetries = slackRetries
	cfg.RetryAfterDuration = 5 * time.Second // a 429 without Retry-After
	cfg.RetryAfterJitter = 250 * time.Millisecond
	cfg.Handlers = []slack.RetryHandler{countRateLimits{next: slack.NewRateLimitErrorRetryHandler(cfg), metrics: m}}
	return []slack.Option{
		slack.OptionHTTPClient(&http.Client{Transport: lightAnswers{next: orgTeam{next: http.DefaultTransport}}, CheckRedirect: checkRedirect}),
		slack.OptionRetryConfig(cfg),
	}
}

// countRateLimits counts Slack's 429 answers by method before handing the
// decision to slack-go's own Retry-After handler.
type countRateLimits struct {
	next    slack.RetryHandler
	metrics *Metrics
}

func (c countRateLimits) ShouldRetry(state *slack.RetryState, req *http.Request, resp *http.Response, err error) (bool, time.Duration) {
	if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
		c.metrics.slackRateLimited(slackMethod(req))
	}
	return c.next.ShouldRetry(state, req, resp, err)
}

// slackMethod is the Web API method a request calls, such as chat.postMessage.
func slackMethod(req *http.Request) string {
	if req == nil || req.URL == nil {
		return "unknown"
	}
	p := req.URL.Path
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
