package bot

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/slack-go/slack"
)

// TestRespondKeepsTheResponseURLOutOfErrors posts to a response_url nobody
// listens on: the error, which gets logged, must not carry the URL.
func TestRespondKeepsTheResponseURLOutOfErrors(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	const secret = "B0SECRET/AbCdEfGhIjKlMnOp"
	b := &Bot{http: &http.Client{}, cfg: Config{SlackHost: addr}}
	cmd := slack.SlashCommand{ResponseURL: "http://" + addr + "/commands/T0TEST/" + secret}
	err = b.Respond(context.Background(), cmd, Reply(Ephemeral("hi")))
	if err == nil {
		t.Fatal("posting to a closed port succeeded")
	}
	if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "/commands/") {
		t.Errorf("error shows the response_url: %v", err)
	}
	if !strings.Contains(err.Error(), "response_url") {
		t.Errorf("error %q does not say what failed", err)
	}
}

// TestRespondPostsOnlyToSlack: a response_url is posted to only on Slack's
// hosts (hooks.slack.com) or the configured Slack's (a fake's): any other,
// look-alikes included, is refused before a byte leaves.
func TestRespondPostsOnlyToSlack(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	fake := strings.TrimPrefix(srv.URL, "http://")
	for _, tc := range []struct {
		name, url, slackHost string
		ok                   bool
	}{
		{"another host", srv.URL + "/commands/T0/1", "", false},
		{"the configured Slack", srv.URL + "/commands/T0/1", fake, true},
		{"a look-alike of Slack's", "https://hooks.slack.com.evil.example/commands/T0/1", "", false},
		{"Slack's host over http", "http://hooks.slack.com/commands/T0/1", "", false},
		{"a user before Slack's host", "https://x@hooks.slack.com/commands/T0/1", "", false},
		{"not a URL", "::", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &Bot{http: &http.Client{}, cfg: Config{SlackHost: tc.slackHost}}
			if got := b.responseURLOK(tc.url); got != tc.ok {
				t.Errorf("responseURLOK(%q) = %t, want %t", tc.url, got, tc.ok)
			}
		})
	}
	b := &Bot{http: &http.Client{}}
	err := b.Respond(context.Background(), slack.SlashCommand{ResponseURL: srv.URL + "/commands/T0/1"}, Reply(Ephemeral("hi")))
	if !errors.Is(err, ErrResponseURL) || hits.Load() != 0 {
		t.Errorf("Respond to a host not Slack's = %v with %d requests; want ErrResponseURL and none", err, hits.Load())
	}
	b.cfg.SlackHost = fake
	if err := b.Respond(context.Background(), slack.SlashCommand{ResponseURL: srv.URL + "/commands/T0/1"}, Reply(Ephemeral("hi"))); err != nil || hits.Load() != 1 {
		t.Errorf("Respond to the configured Slack = %v with %d requests; want it posted", err, hits.Load())
	}
}
