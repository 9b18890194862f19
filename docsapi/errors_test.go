package docsapi

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestAPIErrorText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  *APIError
		want string
	}{
		{"rate limited", &APIError{StatusCode: 429, Message: "rate limit exceeded", Method: "POST", Path: "/v2/agent/p1/job", RetryAfter: 30 * time.Second},
			"docsapi: POST /v2/agent/p1/job: 429 Too Many Requests: rate limit exceeded (retry after 30s)"},
		{"details", &APIError{StatusCode: 400, Message: "invalid query parameters", Details: []string{"limit too big", "bad offset"}, Method: "GET", Path: "/v1/analytics/p1/visitors"},
			"docsapi: GET /v1/analytics/p1/visitors: 400 Bad Request: invalid query parameters (limit too big; bad offset)"},
		{"details only", &APIError{StatusCode: 400, Details: []string{"limit too big"}, Method: "GET", Path: "/x"},
			"docsapi: GET /x: 400 Bad Request: limit too big"},
		{"no message", &APIError{StatusCode: 502, Method: "GET", Path: "/x"}, "docsapi: GET /x: 502 Bad Gateway"},
		{"unknown status", &APIError{StatusCode: 599, Method: "GET", Path: "/x"}, "docsapi: GET /x: status 599"},
		{"no request", &APIError{StatusCode: 404, Message: "job not found"}, "docsapi: 404 Not Found: job not found"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%s: Error() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestAPIErrorIs(t *testing.T) {
	t.Parallel()
	sentinels := []error{ErrNotFound, ErrUnauthorized, ErrRateLimited, ErrInvalidRequest, ErrOutcomeUnknown, ErrMalformedResponse}
	tests := []struct {
		status int
		match  error // nil: matches none
	}{
		{400, ErrInvalidRequest}, {422, ErrInvalidRequest}, {401, ErrUnauthorized}, {403, ErrUnauthorized},
		{404, ErrNotFound}, {429, ErrRateLimited}, {409, nil}, {500, nil}, {503, nil},
	}
	for _, tt := range tests {
		// Wrapped, as callers will usually see it.
		err := fmt.Errorf("context: %w", &APIError{StatusCode: tt.status})
		for _, s := range sentinels {
			if got := errors.Is(err, s); got != (s == tt.match) {
				t.Errorf("errors.Is(%d, %v) = %v, want %v", tt.status, s, got, s == tt.match)
			}
		}
	}
}

func TestErrorBody(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 100)
	tests := []struct {
		name, body, contentType string
		msg                     string
		details                 []string
	}{
		{"agent shape", `{"error":"job not found"}`, "application/json", "job not found", nil},
		{"analytics shape", `{"error":"invalid query parameters","details":[{"message":"limit must be <= 250"},{"message":"offset must be >= 0"}]}`, "application/json",
			"invalid query parameters", []string{"limit must be <= 250", "offset must be >= 0"}},
		{"message field", `{"message":"Unauthorized"}`, "", "Unauthorized", nil},
		{"error object", `{"error":{"message":"nested","code":7}}`, "", "nested", nil},
		{"string details and junk", `{"error":"x","details":["a",3,{"message":""},{"message":"b"}]}`, "", "x", []string{"a", "b"}},
		{"multi-line message", "{\"error\":\"line one\\n\\tline two\"}", "", "line one line two", nil},
		{"html page", "<!DOCTYPE html>\n<html><head><title>502</title></head><body>" + long + "</body></html>", "text/html", "", nil},
		{"html without type", "  <html><body>bad gateway</body></html>", "", "", nil},
		{"html type, text body", "upstream error", "text/html; charset=utf-8", "", nil},
		{"plain text", "upstream\r\n  connect error\n", "text/plain", "upstream connect error", nil},
		{"long text cut", long, "text/plain", strings.TrimSpace(strings.Repeat("word ", 40)) + "…", nil},
		{"broken json as text", `{"error": "oops`, "", `{"error": "oops`, nil},
		{"empty", "  \n", "", "", nil},
		{"invalid utf-8", "bad \xff byte", "", "bad \uFFFD byte", nil},
	}
	for _, tt := range tests {
		msg, details := errorBody([]byte(tt.body), tt.contentType)
		if msg != tt.msg || strings.Join(details, "|") != strings.Join(tt.details, "|") {
			t.Errorf("%s: errorBody = %q, %q; want %q, %q", tt.name, msg, details, tt.msg, tt.details)
		}
	}
}

func TestOneLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"a  b\n\nc", 10, "a b c"},
		{"  lead and trail  ", 50, "lead and trail"},
		{"abcdef", 3, "abc…"},
		{"ab cd", 3, "ab…"},
		{"héllo wörld", 7, "héllo w…"},
		{"\x00ctrl\x07", 10, "ctrl"},
	}
	for _, tt := range tests {
		if got := oneLine(tt.in, tt.max); got != tt.want {
			t.Errorf("oneLine(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}
