package docsapitest

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
)

func analyticsPath(srv *Server, rest string) string {
	return "/v1/analytics/" + srv.ProjectID + "/" + rest
}

// TestAnalyticsRoutes checks each endpoint's success, errors and 405.
func TestAnalyticsRoutes(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithClock(clockStart), WithLimits(Limits{}))
	tests := []struct {
		path     string
		endpoint Endpoint
		status   int
		detail   string // a details message of a 400, or the error of another status
	}{
		{"views", EndpointViews, 200, ""},
		{"views?limit=251", EndpointViews, 400, "limit must be between 1 and 250"},
		{"searches", EndpointSearches, 200, ""},
		{"searches?limit=101", EndpointSearches, 400, "limit must be between 1 and 100"},
		{"searches?cursor=nope", EndpointSearches, 400, msgBadCursor},
		{"searches?cursor=" + textCursor("feedback", 5), EndpointSearches, 400, msgBadCursor},
		{"feedback?source=contextual&status=pending,resolved", EndpointFeedback, 200, ""},
		{"feedback?source=email", EndpointFeedback, 400, "source must be one of code_snippet, contextual, agent, thumbs_only"},
		{"feedback?status=open", EndpointFeedback, 400, "status must be a comma-separated list of pending, in_progress, resolved, dismissed"},
		{"feedback/by-page", EndpointFeedbackByPage, 200, ""},
		{"feedback/by-page?dateFrom=yesterday", EndpointFeedbackByPage, 400, "dateFrom must be a date in YYYY-MM-DD or ISO 8601 format"},
		{"assistant?limit=1000", EndpointConversations, 200, ""},
		{"assistant?limit=1001", EndpointConversations, 400, "limit must be between 1 and 1000"},
		{"assistant?cursor=" + textCursor("searches", 5), EndpointConversations, 400, msgBadCursor},
		{"assistant/threads/" + ThreadID(1), EndpointThread, 200, ""},
		{"assistant/threads/" + ThreadID(12345), EndpointThread, 404, msgNoAnalyticsThread},
		{"assistant/threads/abc", EndpointThread, 400, msgBadThreadID},
		{"assistant/caller-stats?limit=5", EndpointCallerStats, 200, ""},
		{"assistant/caller-stats?dateTo=2025-13-01", EndpointCallerStats, 400, "dateTo must be a date in YYYY-MM-DD or ISO 8601 format"},
		{"assistant/elsewhere", EndpointUnknown, 404, msgNotFound},
	}
	for _, tt := range tests {
		srv.ResetRequests()
		r := do(t, srv, http.MethodGet, analyticsPath(srv, tt.path), "")
		if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Endpoint != tt.endpoint {
			t.Errorf("GET %s: recorded %+v, want endpoint %s", tt.path, reqs, tt.endpoint)
		}
		if r.status != tt.status {
			t.Errorf("GET %s: status %d, want %d; %s", tt.path, r.status, tt.status, r.body)
			continue
		}
		switch {
		case tt.status == 400 && tt.detail != msgBadThreadID:
			e := mustError(t, r, 400)
			if len(e.Details) != 1 || e.Details[0].Message != tt.detail {
				t.Errorf("GET %s: details %+v, want %q", tt.path, e.Details, tt.detail)
			}
		case tt.status != 200:
			if e := mustError(t, r, tt.status); e.Error != tt.detail {
				t.Errorf("GET %s: error %q, want %q", tt.path, e.Error, tt.detail)
			}
		}
	}
	for _, p := range []string{"views", "assistant/threads/" + ThreadID(1)} {
		r := do(t, srv, http.MethodPost, analyticsPath(srv, p), "")
		if r.status != http.StatusMethodNotAllowed || r.header.Get("Allow") != http.MethodGet {
			t.Errorf("POST %s: %d, Allow %q", p, r.status, r.header.Get("Allow"))
		}
	}
	if r := do(t, srv, http.MethodGet, "/v1/analytics/other/searches", ""); r.status != http.StatusNotFound {
		t.Errorf("other project: %d", r.status)
	}
}

// TestAnalyticsSharedWindow spends the one analytics limit on every endpoint.
func TestAnalyticsSharedWindow(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(clockStart())
	srv := startServer(t, WithClock(clock.Now), WithLimits(Limits{Visitors: 8}))
	paths := []string{"visitors", "views", "searches", "feedback", "feedback/by-page", "assistant", "assistant/threads/" + ThreadID(1), "assistant/caller-stats"}
	for _, p := range paths {
		if r := do(t, srv, http.MethodGet, analyticsPath(srv, p), ""); r.status != 200 {
			t.Fatalf("GET %s within the limit: %d %s", p, r.status, r.body)
		}
		clock.Advance(time.Minute)
	}
	for _, p := range paths {
		expectLimited(t, do(t, srv, http.MethodGet, analyticsPath(srv, p), ""), 60*60-8*60)
	}
	// The agent limits are apart.
	if r := do(t, srv, http.MethodPost, jobsPath(srv), promptBody("x")); r.status != http.StatusCreated {
		t.Errorf("create job after the analytics limit: %d", r.status)
	}
}

// TestAnalyticsRange checks that dateTo is exclusive and dateFrom inclusive.
func TestAnalyticsRange(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 11, 20, 12, 0, 0, 0, time.UTC)
	story := &Analytics{Searches: []SearchStat{
		{Query: "today", Hits: 3, Age: time.Hour},               // 2025-11-20 11:00
		{Query: "yesterday", Hits: 2, Age: 24 * time.Hour},      // 2025-11-19 12:00
		{Query: "two days ago", Hits: 1, Age: 48*time.Hour + 1}, // 2025-11-18 11:59
	}}
	srv := startServer(t, WithClock(func() time.Time { return now }), WithAnalytics(story), WithLimits(Limits{}))
	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{"today", "yesterday", "two days ago"}},
		{"?dateFrom=2025-11-19", []string{"today", "yesterday"}},
		{"?dateFrom=2025-11-19&dateTo=2025-11-20", []string{"yesterday"}},
		{"?dateTo=2025-11-19", []string{"two days ago"}},
		{"?dateFrom=2025-11-21", nil},
	}
	for _, tt := range tests {
		r := do(t, srv, http.MethodGet, analyticsPath(srv, "searches"+tt.query), "")
		var body struct {
			Searches []struct {
				SearchQuery string `json:"searchQuery"`
			} `json:"searches"`
			NextCursor *string `json:"nextCursor"`
		}
		if err := json.Unmarshal(r.body, &body); err != nil || r.status != 200 {
			t.Fatalf("%s: %d %s", tt.query, r.status, r.body)
		}
		var got []string
		for _, s := range body.Searches {
			got = append(got, s.SearchQuery)
		}
		if !reflect.DeepEqual(got, tt.want) || body.NextCursor != nil {
			t.Errorf("searches%s = %v (cursor %v), want %v", tt.query, got, body.NextCursor, tt.want)
		}
	}
}

// TestAnalyticsWireShapes checks fields the documentation makes nullable or
// optional, and 12.0 counts.
func TestAnalyticsWireShapes(t *testing.T) {
	t.Parallel()
	srv := startServer(t, WithClock(clockStart), WithLimits(Limits{}), WithFloatCounts(true))
	body := string(do(t, srv, http.MethodGet, analyticsPath(srv, "searches?limit=100"), "").body)
	for _, want := range []string{`"searchQuery":"sso","hits":41.0,"ctr":0,"topClickedPage":null`, `"nextCursor":null`} {
		if !strings.Contains(body, want) {
			t.Errorf("searches lack %s: %s", want, body)
		}
	}
	body = string(do(t, srv, http.MethodGet, analyticsPath(srv, "feedback?source=code_snippet"), "").body)
	for _, want := range []string{`"filename":"verify-signature.js"`, `"lang":"javascript"`, `"hasMore":false`, `"nextCursor":null`} {
		if !strings.Contains(body, want) || strings.Contains(body, `"helpful"`) {
			t.Errorf("code snippet feedback lacks %s or has helpful: %s", want, body)
		}
	}
	body = string(do(t, srv, http.MethodGet, analyticsPath(srv, "assistant?limit=3"), "").body)
	if !strings.Contains(body, `"hasMore":true`) || !strings.Contains(body, `"nextCursor":"`+ulidCursor(3)+`"`) || !isULID(ulidCursor(3)) {
		t.Errorf("conversations page: %s", body)
	}
	if strings.Count(body, `"responseType"`) != 0 {
		t.Errorf("answers carry a responseType; the service leaves it out: %s", body)
	}
	body = string(do(t, srv, http.MethodGet, analyticsPath(srv, "assistant/caller-stats"), "").body)
	if !strings.Contains(body, `.0,`) {
		t.Errorf("caller stats not written as 12.0: %s", body)
	}
}

// TestDefaultAnalyticsDeterministic checks the story is the same each time
// and that a server keeps its own copy.
func TestDefaultAnalyticsDeterministic(t *testing.T) {
	t.Parallel()
	a, b := DefaultAnalytics(), DefaultAnalytics()
	if !reflect.DeepEqual(a, b) {
		t.Fatal("DefaultAnalytics differs between calls")
	}
	srv := startServer(t, WithAnalytics(a))
	a.Searches[0].Query = "changed"
	if srv.Analytics().Searches[0].Query == "changed" {
		t.Error("the server shares the caller's story")
	}
	for _, c := range a.Conversations {
		if !isULID(c.ThreadID) {
			t.Errorf("thread id %q is not a ULID", c.ThreadID)
		}
	}
}
