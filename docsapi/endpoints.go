package docsapi

import "strings"

// The operations of the API, as EndpointOf names them.
const (
	EndpointCreateJob   = "create_job"
	EndpointSendMessage = "send_message"
	EndpointGetJob      = "get_job"
	EndpointVisitors    = "visitors"
	EndpointAsk         = "assistant_message"
	EndpointSearch      = "search"
	EndpointPage        = "page"
	// Deployments: start one, follow one, start a preview.
	EndpointDeploy       = "deploy"
	EndpointDeployStatus = "deploy_status"
	EndpointPreview      = "preview"
	// Analytics beyond the visitors export (A2-A8). With EndpointVisitors
	// they share the organisation's budget of 100 requests an hour.
	EndpointViews          = "views"
	EndpointSearches       = "searches"
	EndpointFeedback       = "feedback"
	EndpointFeedbackByPage = "feedback_by_page"
	EndpointConversations  = "assistant_conversations"
	EndpointThread         = "assistant_thread"
	EndpointCallerStats    = "assistant_caller_stats"
	EndpointOther          = "other"
)

// EndpointOf names the operation a request is for, from its method and URL
// path, so that metrics can label requests without their ids. A base URL with
// a path prefix is allowed.
func EndpointOf(method, path string) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	n := len(parts)
	switch {
	case n >= 4 && parts[n-4] == "v2" && parts[n-3] == "agent" && parts[n-1] == "job" && method == "POST":
		return EndpointCreateJob
	case n >= 6 && parts[n-6] == "v2" && parts[n-5] == "agent" && parts[n-3] == "job" && parts[n-1] == "message" && method == "POST":
		return EndpointSendMessage
	case n >= 5 && parts[n-5] == "v2" && parts[n-4] == "agent" && parts[n-2] == "job" && method == "GET":
		return EndpointGetJob
	case method == "GET" && analyticsEndpoint(parts) != "":
		return analyticsEndpoint(parts)
	case n >= 4 && parts[n-4] == "v2" && parts[n-3] == "assistant" && parts[n-1] == "message" && method == "POST":
		return EndpointAsk
	case n >= 4 && parts[n-4] == "v1" && parts[n-3] == "project" && parts[n-2] == "update" && method == "POST":
		return EndpointDeploy
	case n >= 4 && parts[n-4] == "v1" && parts[n-3] == "project" && parts[n-2] == "update-status" && method == "GET":
		return EndpointDeployStatus
	case n >= 4 && parts[n-4] == "v1" && parts[n-3] == "project" && parts[n-2] == "preview" && method == "POST":
		return EndpointPreview
	case n >= 3 && parts[n-3] == "v1" && parts[n-2] == "search" && method == "POST":
		return EndpointSearch
	case n >= 3 && parts[n-3] == "v1" && parts[n-2] == "page" && method == "POST":
		return EndpointPage
	}
	return EndpointOther
}

// analyticsEndpoint names a GET below .../v1/analytics/{projectId}/, or "".
func analyticsEndpoint(parts []string) string {
	// The report's path has one to three segments after the project.
	for i := len(parts) - 4; i >= 0 && i >= len(parts)-6; i-- {
		if parts[i] != "v1" || parts[i+1] != "analytics" {
			continue
		}
		rest := parts[i+3:]
		if len(rest) == 3 && rest[0] == "assistant" && rest[1] == "threads" {
			return EndpointThread
		}
		switch strings.Join(rest, "/") {
		case "visitors":
			return EndpointVisitors
		case "views":
			return EndpointViews
		case "searches":
			return EndpointSearches
		case "feedback":
			return EndpointFeedback
		case "feedback/by-page":
			return EndpointFeedbackByPage
		case "assistant":
			return EndpointConversations
		case "assistant/caller-stats":
			return EndpointCallerStats
		}
	}
	return ""
}
