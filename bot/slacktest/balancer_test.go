package slacktest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/docsbot/docsbot/store/redistest"
)

// TestBalancer: requests go to the replicas in turn; one whose process is
// gone (the connection refused) is passed over; one that goes away with a
// request makes it a 502, sent nowhere else; with no replica, 502.
func TestBalancer(t *testing.T) {
	t.Parallel()
	named := func(name string) *httptest.Server {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, name) }))
		t.Cleanup(s.Close)
		return s
	}
	a, b := named("a"), named("b")
	dying := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		c, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			_ = c.Close() // the process dies with the request in hand
		}
	}))
	t.Cleanup(dying.Close)
	lb := NewBalancer()
	t.Cleanup(lb.Close)
	get := func() (int, string) {
		t.Helper()
		resp, err := http.Get(lb.URL + "/slack/events")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	want := func(what string, status int, body string, stats BalancerStats) {
		t.Helper()
		if got, gotBody := get(); got != status || gotBody != body {
			t.Errorf("%s: %d %q, want %d %q", what, got, gotBody, status, body)
		}
		if got := lb.Stats(); got != stats {
			t.Errorf("%s: stats %+v, want %+v", what, got, stats)
		}
	}

	want("no replica", http.StatusBadGateway, "", BalancerStats{BadGateway: 1})
	lb.Add(a.URL)
	lb.Add(b.URL)
	lb.Add(a.URL) // once only
	if n := lb.Replicas(); n != 2 {
		t.Fatalf("%d replicas, want 2", n)
	}
	first, _ := get()
	_, second := get()
	_, third := get()
	if first != http.StatusOK || second == third {
		t.Errorf("not in turn: %d, then %q and %q", first, second, third)
	}
	lb.Remove(b.URL)
	lb.Add("http://" + redistest.FreeAddr()) // gone: nothing listens there
	want("one gone", http.StatusOK, "a", BalancerStats{Forwarded: 4, BadGateway: 1})
	want("one gone, again", http.StatusOK, "a", BalancerStats{Forwarded: 5, PassedOver: 1, BadGateway: 1})
	lb.Remove(a.URL)
	want("every replica gone", http.StatusBadGateway, "", BalancerStats{Forwarded: 5, PassedOver: 2, BadGateway: 2})
	lb.Add(dying.URL)
	lb.Remove(a.URL)
	stats := lb.Stats()
	for range 2 { // the gone one is passed over at most once
		if got, _ := get(); got != http.StatusBadGateway {
			t.Errorf("a replica that went away with the request: %d, want 502", got)
		}
	}
	if got := lb.Stats(); got.BadGateway != stats.BadGateway+2 || got.Forwarded != stats.Forwarded {
		t.Errorf("stats %+v after two requests the replica went away with (before: %+v)", got, stats)
	}
}
