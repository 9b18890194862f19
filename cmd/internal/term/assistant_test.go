package term_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

func TestExplainAssistant(t *testing.T) {
	t.Parallel()
	const key = "mint_dsc_abcdefghijklmnopqrstuvwxyz"
	now := time.Date(2025, 11, 3, 14, 4, 30, 0, time.UTC)
	inputs := map[string]string{"key": "DOCS_ASSISTANT_KEY", "domain": "DOCS_DOMAIN", "discoveryurl": "DOCS_DISCOVERY_URL"}
	apiErr := func(status int, msg string) *docsapi.APIError {
		return &docsapi.APIError{StatusCode: status, Message: msg, Method: "POST", Path: "/discovery/v1/search/acme"}
	}
	rateLimited := apiErr(429, "rate limit exceeded")
	rateLimited.RetryAfter = 30 * time.Second
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{"wrong key", apiErr(401, "Unauthorized"), []string{"the discovery API refused the assistant key mint_…wxyz for docs site acme (401 Unauthorized)",
			"check DOCS_ASSISTANT_KEY (environment variable DOCS_ASSISTANT_KEY) and DOCS_DOMAIN", "mint_dsc_…"}},
		{"forbidden", apiErr(403, ""), []string{"refused the assistant key", "403 Forbidden"}},
		{"no search index", apiErr(404, "domain not found"), []string{"docs site acme has no search index at the discovery API (404 Not Found)",
			"check DOCS_DOMAIN: the last part of your dashboard's URL"}},
		{"rate limited", rateLimited, []string{"try again in 30s (at 14:05 UTC)", "10,000 requests an hour"}},
		{"rate limited without Retry-After", apiErr(429, ""), []string{"rate limited by the discovery API: try again later"}},
		{"server error", apiErr(503, "<html>"), []string{"the discovery API failed", "503 Service Unavailable", "service side"}},
		{"malformed", fmt.Errorf("%w: unexpected EOF", docsapi.ErrMalformedResponse), []string{"did not take or answer a plain search",
			"DOCS_DISCOVERY_URL (https://api.example/discovery) is the discovery API"}},
		{"network", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, []string{"cannot reach the discovery API", "connection refused",
			"check DOCS_DISCOVERY_URL (https://api.example/discovery) and your network"}},
		{"no answer in time", fmt.Errorf("search: %w", context.DeadlineExceeded), []string{"did not answer in time", "DOCS_DISCOVERY_URL"}},
		{"interrupted", fmt.Errorf("search: %w", context.Canceled), []string{"interrupted"}},
		{"another kind of key", &docsapi.ValidationError{Field: "assistant key", Problem: "is another kind of docs key"}, []string{"invalid DOCS_ASSISTANT_KEY: is another kind", "fix DOCS_ASSISTANT_KEY"}},
		{"bad discovery URL", &docsapi.ValidationError{Field: "discovery url", Problem: "must name a host"}, []string{"invalid DOCS_DISCOVERY_URL: must name a host"}},
		{"bad domain", &docsapi.ValidationError{Field: "domain", Problem: "must not be empty"}, []string{"invalid DOCS_DOMAIN: must not be empty"}},
		{"message that quotes the key", apiErr(500, "bad key "+key), []string{"bad key mint_…wxyz"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x := term.ExplainAssistant(tt.err, term.AssistantRequest{DiscoveryURL: "https://api.example/discovery", Key: key, Domain: "acme",
				KeyFrom: "environment variable DOCS_ASSISTANT_KEY", Now: now, Input: func(f string) string { return inputs[f] }})
			text := x.Message + "\n" + x.Fix
			for _, want := range tt.want {
				if !strings.Contains(text, want) {
					t.Errorf("explanation does not contain %q:\n%s", want, text)
				}
			}
			if strings.Contains(text, key) {
				t.Errorf("explanation shows the key:\n%s", text)
			}
		})
	}
}
