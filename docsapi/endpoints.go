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
	EndpointOther        = "other"
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
	case n >= 4 && parts[n-4] == "v1" && parts[n-3] == "analytics" && parts[n-1] == "visitors" && method == "GET":
		return EndpointVisitors
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
