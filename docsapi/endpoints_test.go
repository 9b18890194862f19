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
	}
	for _, tt := range tests {
		if got := docsapi.EndpointOf(tt.method, tt.path); got != tt.want {
			t.Errorf("EndpointOf(%s %s) = %s, want %s", tt.method, tt.path, got, tt.want)
		}
	}
}
