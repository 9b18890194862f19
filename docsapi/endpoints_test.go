package docsapi_test

import (
	"testing"

	"github.com/docsbot/docsbot/docsapi"
)

func TestEndpointOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method, path, want string
	}{
		{"POST", "/v2/agent/proj/job", docsapi.EndpointCreateJob},
		{"POST", "/v2/agent/proj/job/job_1/message", docsapi.EndpointSendMessage},
		{"GET", "/v2/agent/proj/job/job_1", docsapi.EndpointGetJob},
		{"GET", "/v1/analytics/proj/visitors", docsapi.EndpointVisitors},
		{"GET", "/prefix/v1/analytics/proj/visitors", docsapi.EndpointVisitors},
		{"POST", "/base/v2/agent/proj/job/", docsapi.EndpointCreateJob},
		{"GET", "/v2/agent/proj/job", docsapi.EndpointOther},
		{"DELETE", "/v2/agent/proj/job/job_1", docsapi.EndpointOther},
		{"GET", "/", docsapi.EndpointOther},
		{"POST", "/discovery/v2/assistant/acme/message", docsapi.EndpointAsk},
		{"POST", "/discovery/v1/search/acme", docsapi.EndpointSearch},
		{"POST", "/discovery/v1/page/acme", docsapi.EndpointPage},
		{"GET", "/discovery/v1/page/acme", docsapi.EndpointOther},
		{"POST", "/v1/project/update/proj", docsapi.EndpointDeploy},
		{"GET", "/v1/project/update-status/st_1", docsapi.EndpointDeployStatus},
		{"POST", "/v1/project/preview/proj", docsapi.EndpointPreview},
		{"GET", "/v1/project/update/proj", docsapi.EndpointOther},
		{"POST", "/v1/project/update-status/st_1", docsapi.EndpointOther},
		{"GET", "/v1/project/preview/proj", docsapi.EndpointOther},
		{"GET", "/v1/analytics/proj/views", docsapi.EndpointViews},
		{"GET", "/v1/analytics/proj/searches", docsapi.EndpointSearches},
		{"GET", "/base/v1/analytics/proj/feedback", docsapi.EndpointFeedback},
		{"GET", "/v1/analytics/proj/feedback/by-page", docsapi.EndpointFeedbackByPage},
		{"GET", "/v1/analytics/proj/assistant", docsapi.EndpointConversations},
		{"GET", "/v1/analytics/proj/assistant/threads/01JDQ5", docsapi.EndpointThread},
		{"GET", "/v1/analytics/proj/assistant/caller-stats", docsapi.EndpointCallerStats},
		{"GET", "/v1/analytics/proj/assistant/threads", docsapi.EndpointOther},
		{"GET", "/v1/analytics/proj/unknown", docsapi.EndpointOther},
		{"GET", "/v1/analytics/proj", docsapi.EndpointOther},
		{"POST", "/v1/analytics/proj/views", docsapi.EndpointOther},
		// The analytics path below a project named "v1" still parses.
		{"GET", "/v1/analytics/v1/views", docsapi.EndpointViews},
	}
	for _, tt := range tests {
		if got := docsapi.EndpointOf(tt.method, tt.path); got != tt.want {
			t.Errorf("EndpointOf(%s %s) = %s, want %s", tt.method, tt.path, got, tt.want)
		}
	}
}
