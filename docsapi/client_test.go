package docsapi

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestNewClientValidation(t *testing.T) {
	t.Parallel()
	const key = "mint_unit_secret_0123456789"
	tests := []struct {
		name       string
		key, proj  string
		opts       []Option
		field      string // "" when valid
		wantBase   string
		wantUAHead string
	}{
		{name: "defaults", key: key, proj: "p1", wantBase: DefaultBaseURL, wantUAHead: "docsbot/"},
		{name: "trailing slash", key: key, proj: "p1", opts: []Option{WithBaseURL("http://127.0.0.1:8080/")}, wantBase: "http://127.0.0.1:8080"},
		{name: "path prefix", key: key, proj: "p1", opts: []Option{WithBaseURL("https://gw.example/api//")}, wantBase: "https://gw.example/api"},
		{name: "nil options ignored", key: key, proj: "p1", opts: []Option{nil, WithHTTPClient(nil), WithLogger(nil)}, wantBase: DefaultBaseURL, wantUAHead: "docsbot/"},
		{name: "no attempt timeout", key: key, proj: "p1", opts: []Option{WithAttemptTimeout(0)}, wantBase: DefaultBaseURL},
		{name: "key with outer spaces", key: " " + key + "\n", proj: "p1", wantBase: DefaultBaseURL},
		{name: "empty key", key: "", proj: "p1", field: "api key"},
		{name: "blank key", key: " \t", proj: "p1", field: "api key"},
		{name: "key with inner space", key: "mint_a b", proj: "p1", field: "api key"},
		{name: "key with newline", key: "mint_a\nInjected: x", proj: "p1", field: "api key"},
		{name: "empty project", key: key, proj: "", field: "project id"},
		{name: "blank project", key: key, proj: "  ", field: "project id"},
		{name: "dot project", key: key, proj: "..", field: "project id"},
		{name: "relative base", key: key, proj: "p1", opts: []Option{WithBaseURL("api.mintlify.com")}, field: "base url"},
		{name: "ftp base", key: key, proj: "p1", opts: []Option{WithBaseURL("ftp://x")}, field: "base url"},
		{name: "base without host", key: key, proj: "p1", opts: []Option{WithBaseURL("http://")}, field: "base url"},
		{name: "base with query", key: key, proj: "p1", opts: []Option{WithBaseURL("http://x/?a=1")}, field: "base url"},
		{name: "base with credentials", key: key, proj: "p1", opts: []Option{WithBaseURL("http://u:pw@x")}, field: "base url"},
		{name: "unparsable base", key: key, proj: "p1", opts: []Option{WithBaseURL("http://[::1")}, field: "base url"},
		{name: "empty base", key: key, proj: "p1", opts: []Option{WithBaseURL("")}, field: "base url"},
		{name: "negative attempts", key: key, proj: "p1", opts: []Option{WithRetryPolicy(RetryPolicy{MaxAttempts: -1})}, field: "retry policy"},
		{name: "negative delay", key: key, proj: "p1", opts: []Option{WithRetryPolicy(RetryPolicy{MaxAttempts: 2, MaxWait: -time.Second})}, field: "retry policy"},
		{name: "negative attempt timeout", key: key, proj: "p1", opts: []Option{WithAttemptTimeout(-time.Second)}, field: "attempt timeout"},
		{name: "zero max pages", key: key, proj: "p1", opts: []Option{WithMaxPages(0)}, field: "max pages"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := NewClient(tt.key, tt.proj, tt.opts...)
			if tt.field != "" {
				var ve *ValidationError
				if !errors.As(err, &ve) || ve.Field != tt.field {
					t.Fatalf("NewClient = %v, %v; want a ValidationError on %q", c, err, tt.field)
				}
				if strings.Contains(err.Error(), "mint_") {
					t.Errorf("error %q quotes the key", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("NewClient: %v", err)
			}
			if c.baseURL != tt.wantBase || c.ProjectID() != strings.TrimSpace(tt.proj) {
				t.Errorf("BaseURL %q ProjectID %q, want %q %q", c.baseURL, c.ProjectID(), tt.wantBase, tt.proj)
			}
			if !strings.HasPrefix(c.userAgent, tt.wantUAHead) {
				t.Errorf("user agent %q, want prefix %q", c.userAgent, tt.wantUAHead)
			}
			if c.apiKey.value() != key {
				t.Errorf("key not trimmed")
			}
		})
	}
}

func TestClientPrintsNoKey(t *testing.T) {
	t.Parallel()
	const key = "mint_print_secret_42"
	c, err := NewClient(key, "p1")
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	l := slog.New(slog.NewJSONHandler(&logs, nil))
	l.Info("client", "client", c, "key", c.apiKey)
	l.Info("client value", "client", *c) // even a copied struct keeps the key hidden
	out := fmt.Sprintf("%v %+v %#v %s %v %+v %#v", c, c, c, c, *c, *c, *c) + logs.String()
	if strings.Contains(out, key) {
		t.Fatalf("printed client shows the key: %s", out)
	}
	if !strings.Contains(out, "p1") {
		t.Errorf("printed client lost the project: %s", out)
	}
}
