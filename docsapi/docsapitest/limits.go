package docsapitest

import "time"

// rateWindow is the length of the sliding rate-limit window, but for
// deployments and previews.
const rateWindow = time.Hour

// The windows of the deployment limits, as the service publishes them.
const (
	deployWindow  = 10 * time.Second
	previewWindow = time.Minute
)

// windowLength is the length of the sliding window requests to e count in.
func windowLength(e Endpoint) time.Duration {
	switch e {
	case EndpointDeploy:
		return deployWindow
	case EndpointPreview:
		return previewWindow
	}
	return rateWindow
}

// Limits holds the number of requests allowed per sliding hour, but for
// Deploy and Preview; 0 means unlimited. Create, Message and Get are per
// project; Visitors is the per-organization analytics limit shared by all
// analytics calls.
type Limits struct {
	// Create limits POST /v2/agent/{projectId}/job.
	Create int
	// Message limits POST /v2/agent/{projectId}/job/{id}/message.
	Message int
	// Get limits GET /v2/agent/{projectId}/job/{id}.
	Get int
	// Visitors limits the analytics endpoints together: the visitors
	// export, views, searches, feedback (and by page), assistant
	// conversations, threads and caller stats.
	Visitors int
	// Assistant limits questions to the assistant (the discovery API's
	// message endpoint), per organization.
	Assistant int
	// Discovery limits search and page together, per organization.
	Discovery int
	// Deploy limits POST /v1/project/update/{projectId} per sliding 10
	// seconds, per organization. (The service shares this limit with
	// triggering automations, which this server does not serve.)
	Deploy int
	// Preview limits POST /v1/project/preview/{projectId} per sliding
	// minute, per organization.
	Preview int
}

// DefaultLimits returns the published limits: 100 creates, 100 messages and
// 100 analytics calls per hour, no limit on getting a job, 10,000
// questions and 10,000 searches and pages per hour, 10 deployments per 10
// seconds and 5 previews per minute. Getting a deployment's status has no
// published limit.
func DefaultLimits() Limits {
	return Limits{Create: 100, Message: 100, Get: 0, Visitors: 100, Assistant: 10000, Discovery: 10000, Deploy: 10, Preview: 5}
}

func (l Limits) of(e Endpoint) int {
	switch e {
	case EndpointCreate:
		return l.Create
	case EndpointMessage:
		return l.Message
	case EndpointGet:
		return l.Get
	case EndpointVisitors, EndpointViews, EndpointSearches, EndpointFeedback, EndpointFeedbackByPage,
		EndpointConversations, EndpointThread, EndpointCallerStats:
		return l.Visitors
	case EndpointAssistant:
		return l.Assistant
	case EndpointSearch, EndpointPage:
		return l.Discovery
	case EndpointDeploy:
		return l.Deploy
	case EndpointPreview:
		return l.Preview
	}
	return 0
}

// window names the counter a request to e counts in: search and page share
// one, and so do all analytics endpoints.
func window(e Endpoint) Endpoint {
	switch {
	case e == EndpointPage:
		return EndpointSearch
	case e.analytics():
		return EndpointVisitors
	}
	return e
}

// SetLimits replaces the limits. Requests already counted stay in their
// windows.
func (s *Server) SetLimits(l Limits) {
	s.mu.Lock()
	s.limits = l
	s.mu.Unlock()
}

// admitLocked counts a request to e at now against its limit. When the limit
// is reached it counts nothing and returns the whole seconds until a counted
// request leaves the window (at least 1) and false.
func (s *Server) admitLocked(e Endpoint, now time.Time) (retryAfter int, ok bool) {
	limit := s.limits.of(e)
	length := windowLength(e)
	e = window(e)
	win := s.windows[e]
	cut := now.Add(-length)
	drop := 0
	for drop < len(win) && !win[drop].After(cut) {
		drop++
	}
	win = win[drop:]
	if limit <= 0 {
		s.windows[e] = win
		return 0, true
	}
	if len(win) >= limit {
		s.windows[e] = win
		// Enough requests must leave for the count to drop below limit.
		wait := win[len(win)-limit].Add(length).Sub(now)
		secs := int((wait + time.Second - 1) / time.Second)
		return max(secs, 1), false
	}
	s.windows[e] = append(win, now)
	return 0, true
}
