package docsapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 11, 3, 12, 0, 0, 0, time.UTC)
	httpDate := func(t time.Time) string { return t.UTC().Format(http.TimeFormat) }
	tests := []struct {
		name, value, date string
		want              time.Duration
	}{
		{"empty", "", "", 0},
		{"seconds", "30", "", 30 * time.Second},
		{"seconds with spaces", " 7 ", "", 7 * time.Second},
		{"zero", "0", "", 0},
		{"negative", "-5", "", 0},
		{"fraction", "1.5", "", 0},
		{"garbage", "soon", "", 0},
		{"huge", "99999999999999999999999", "", maxRetryAfter},
		{"beyond cap", "10000000", "", maxRetryAfter},
		{"date from now", httpDate(now.Add(90 * time.Second)), "", 90 * time.Second},
		{"date in the past", httpDate(now.Add(-time.Minute)), "", 0},
		{"date from server clock", httpDate(now.Add(time.Hour + 45*time.Second)), httpDate(now.Add(time.Hour)), 45 * time.Second},
		{"bad server date falls back to now", httpDate(now.Add(20 * time.Second)), "yesterday", 20 * time.Second},
		{"RFC 850 date", now.Add(10 * time.Second).Format("Monday, 02-Jan-06 15:04:05 GMT"), "", 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := parseRetryAfter(tt.value, tt.date, now); got != tt.want {
				t.Errorf("parseRetryAfter(%q, %q) = %v, want %v", tt.value, tt.date, got, tt.want)
			}
		})
	}
}

func TestBackoffStaysWithinBounds(t *testing.T) {
	t.Parallel()
	p := RetryPolicy{MaxAttempts: 10, BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	tests := []struct {
		retry    int
		min, max time.Duration
	}{
		{1, 50 * time.Millisecond, 100 * time.Millisecond},
		{2, 100 * time.Millisecond, 200 * time.Millisecond},
		{3, 200 * time.Millisecond, 400 * time.Millisecond},
		{5, 500 * time.Millisecond, time.Second},
		{60, 500 * time.Millisecond, time.Second}, // no overflow on many retries
	}
	for _, tt := range tests {
		for range 200 {
			if d := p.backoff(tt.retry); d < tt.min || d > tt.max {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", tt.retry, d, tt.min, tt.max)
			}
		}
	}
	if d := (RetryPolicy{}).backoff(3); d != 0 {
		t.Errorf("zero policy backoff = %v, want 0", d)
	}
}

func TestDefaultRetryPolicy(t *testing.T) {
	t.Parallel()
	p := DefaultRetryPolicy()
	if err := p.validate(); err != nil {
		t.Fatal(err)
	}
	if p.MaxAttempts < 2 || p.BaseDelay <= 0 || p.MaxDelay < p.BaseDelay || p.MaxWait < p.MaxDelay {
		t.Errorf("DefaultRetryPolicy() = %+v: want retries with a capped, positive backoff within MaxWait", p)
	}
}

func TestTemporary(t *testing.T) {
	t.Parallel()
	api := func(status int, after time.Duration) error {
		return &APIError{StatusCode: status, Method: "GET", Path: "/v2/agent/p/job/j", RetryAfter: after}
	}
	network := &TransportError{Method: "GET", Path: "/v2/agent/p/job/j", Err: errors.New("connection refused")}
	tests := []struct {
		name      string
		err       error
		wantAfter time.Duration
		wantOK    bool
	}{
		{"408", api(408, 0), 0, true},
		{"429 with Retry-After", api(429, 30*time.Second), 30 * time.Second, true},
		{"500", api(500, 0), 0, true},
		{"503 with Retry-After", api(503, time.Minute), time.Minute, true},
		{"400", api(400, 0), 0, false},
		{"401", api(401, 0), 0, false},
		{"404", api(404, 0), 0, false},
		{"422", api(422, 0), 0, false},
		{"no connection", network, 0, true},
		{"attempt timed out", &TransportError{Method: "GET", Path: "/x", Err: context.DeadlineExceeded}, 0, true},
		{"wrapped", fmt.Errorf("poll: %w", api(502, 0)), 0, true},
		{"gave up before retrying", fmt.Errorf("%w (gave up before retrying: %w)", api(503, 0), context.Canceled), 0, true},
		{"validation", &ValidationError{Field: "job id", Problem: "must not be empty"}, 0, false},
		{"malformed", &malformedError{method: "GET", path: "/x", status: 200, cause: errors.New("unexpected EOF")}, 0, false},
		{"POST outcome unknown", &outcomeUnknownError{cause: api(503, 0)}, 0, false},
		{"POST cut off", &outcomeUnknownError{cause: network}, 0, false},
		{"other", errors.New("boom"), 0, false},
	}
	for _, tt := range tests {
		after, ok := Temporary(tt.err)
		if after != tt.wantAfter || ok != tt.wantOK {
			t.Errorf("%s: Temporary = %s, %t; want %s, %t", tt.name, after, ok, tt.wantAfter, tt.wantOK)
		}
	}
}
func TestWatchRetryable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		err       error
		wantAfter time.Duration
		wantOK    bool
	}{
		{"429 with Retry-After", &APIError{StatusCode: 429, RetryAfter: 30 * time.Second}, 30 * time.Second, true},
		{"502", &APIError{StatusCode: 502}, 0, true},
		{"408", &APIError{StatusCode: 408}, 0, true},
		{"unreadable answer", fmt.Errorf("%w: unexpected EOF", ErrMalformedResponse), 0, true},
		{"404", &APIError{StatusCode: 404}, 0, false},
		{"401", &APIError{StatusCode: 401}, 0, false},
		{"400", &APIError{StatusCode: 400}, 0, false},
		{"validation", &ValidationError{Field: "job id"}, 0, false},
		{"network", context.DeadlineExceeded, 0, true},
	}
	for _, tt := range tests {
		after, ok := watchRetryable(tt.err)
		if after != tt.wantAfter || ok != tt.wantOK {
			t.Errorf("%s: watchRetryable = %s, %t; want %s, %t", tt.name, after, ok, tt.wantAfter, tt.wantOK)
		}
	}
}
