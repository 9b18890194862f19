package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/cmd/internal/cli"
)

// TestPprofHandlerServesNamedProfiles checks the profiling listener's
// named profiles: a known one is served, an unknown one is not found.
func TestPprofHandlerServesNamedProfiles(t *testing.T) {
	t.Parallel()
	h := pprofHandler()
	for _, tc := range []struct {
		path string
		code int
	}{
		{"/debug/pprof/heap", http.StatusOK},
		{"/debug/pprof/allocs", http.StatusOK},
		{"/debug/pprof/goroutine", http.StatusOK},
		{"/debug/pprof/nonesuch", http.StatusNotFound},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
		if rec.Code != tc.code || tc.code == http.StatusOK && rec.Body.Len() == 0 {
			t.Errorf("GET %s: %d with %d bytes, want %d", tc.path, rec.Code, rec.Body.Len(), tc.code)
		}
	}
}

// TestServeRefusesProfilesOffLoopback: DOCSBOT_PPROF_ADDR with a host other
// than loopback stops `docsbot serve` at start, before anything is opened,
// saying why and what to write; a loopback address goes on to start (here
// as far as the Redis that is not there).
func TestServeRefusesProfilesOffLoopback(t *testing.T) {
	t.Parallel()
	api := newServer(t)
	base := []string{envSlackBotToken + "=" + testBotToken, envSlackAppToken + "=" + testAppToken,
		envSlackAPIURL + "=http://127.0.0.1:1/api/", envRedisURL + "=redis://127.0.0.1:1/0", envHTTPAddr + "="}
	for _, tc := range []struct{ addr, want string }{
		{":6060", `DOCSBOT_PPROF_ADDR ":6060" listens on every network interface`},
		{"0.0.0.0:6060", `DOCSBOT_PPROF_ADDR "0.0.0.0:6060" listens on every network interface`},
		{"192.0.2.7:6060", `DOCSBOT_PPROF_ADDR "192.0.2.7:6060" is not a loopback address`},
	} {
		res := docsbot(t, api, append(base, envPprofAddr+"="+tc.addr), "serve")
		if res.code != cli.ExitUsage || !strings.Contains(res.stderr, tc.want) || !strings.Contains(res.stderr, "write 127.0.0.1:6060") ||
			strings.Contains(res.stderr, "Redis") {
			t.Errorf("%s: want a usage error naming the address and what to write, before Redis: %s", tc.addr, res)
		}
	}
	res := docsbot(t, api, append(base, envPprofAddr+"=127.0.0.1:0"), "serve")
	if res.code != cli.ExitFailure || strings.Contains(res.stderr, envPprofAddr) || !strings.Contains(res.stderr, "cannot reach Redis") {
		t.Errorf("a loopback address: want the start to go on to Redis: %s", res)
	}
}
