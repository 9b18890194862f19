package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBotOutputIsScrubbed runs a stand-in for the bot that prints its
// secrets and fails: the errors that carry its output must not carry them.
func TestBotOutputIsScrubbed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "fake-docsbot")
	script := "#!/bin/sh\necho \"starting with $SLACK_BOT_TOKEN $SLACK_APP_TOKEN $DOCS_API_KEY $REDIS_URL and xoxb-not-from-env-42\"\nexit 3\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	secrets := []string{"xoxb-load-test-secret", "xapp-1-A0LOAD-secret", "mint_loadtestkey123", "hunter2pass", "xoxb-not-from-env-42"}
	p, err := startBot(bin, dir, []string{
		"PATH=" + os.Getenv("PATH"),
		"SLACK_BOT_TOKEN=" + secrets[0],
		"SLACK_APP_TOKEN=" + secrets[1],
		"DOCS_API_KEY=" + secrets[2],
		"REDIS_URL=redis://:" + secrets[3] + "@127.0.0.1:6379/0",
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the stand-in did not exit")
	}
	tests := []struct {
		name string
		err  func() error
	}{
		{"alive", p.alive},
		{"stats", func() error { _, err := p.stats(); return err }},
		{"stop", p.stop},
	}
	for _, tc := range tests {
		err := tc.err()
		if err == nil {
			t.Errorf("%s: no error for a bot that exited with status 3", tc.name)
			continue
		}
		msg := err.Error()
		for _, s := range secrets {
			if strings.Contains(msg, s) {
				t.Errorf("%s: the error shows the secret %q:\n%s", tc.name, s, msg)
			}
		}
		if !strings.Contains(msg, "starting with") || !strings.Contains(msg, "[redacted]") {
			t.Errorf("%s: the error lost the bot's output:\n%s", tc.name, msg)
		}
	}
}
