package bot

import (
	"context"
	"net"
	"net/http"
	"strings"
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
	b := &Bot{http: &http.Client{}}
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
