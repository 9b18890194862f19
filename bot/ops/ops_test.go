package ops_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/ops"
)

func TestHandler(t *testing.T) {
	t.Parallel()
	down := errors.New("connection refused")
	tests := []struct {
		name       string
		connected  bool
		ping       error
		path       string
		wantStatus int
		want       []string
	}{
		{"alive", false, down, "/healthz", http.StatusOK, []string{"ok"}},
		{"ready", true, nil, "/readyz", http.StatusOK, []string{"ready"}},
		{"socket down", false, nil, "/readyz", http.StatusServiceUnavailable, []string{"slack socket not connected"}},
		{"both down", false, down, "/readyz", http.StatusServiceUnavailable, []string{"slack socket not connected", "redis unreachable"}},
		{"metrics", true, nil, "/metrics", http.StatusOK, []string{"go_goroutines"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := ops.Handler(ops.NewRegistry(), ops.Readiness{
				SlackConnected: func() bool { return tt.connected },
				PingRedis:      func(context.Context) error { return tt.ping },
			})
			srv := httptest.NewServer(h)
			defer srv.Close()
			res, err := http.Get(srv.URL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status %d, want %d", res.StatusCode, tt.wantStatus)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(body), w) {
					t.Errorf("body %q does not contain %q", body, w)
				}
			}
		})
	}
}
