package docsapi

import (
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy says how a failed attempt is retried. Reads are retried on
// network errors, 408, 429 and 5xx; the POST operations only on 429 and when
// the connection could not be opened.
type RetryPolicy struct {
	// MaxAttempts is the total number of attempts, the first included.
	// 1 (or 0) means no retry.
	MaxAttempts int
	// BaseDelay is the backoff before the first retry; it doubles on each
	// further retry up to MaxDelay. Each delay is jittered to between half of
	// it and all of it.
	BaseDelay, MaxDelay time.Duration
	// MaxWait is the longest wait the client sleeps before a retry, whether
	// asked by Retry-After or computed by backoff. When the server asks for a
	// longer wait, or the context deadline would pass first, the last error is
	// returned at once (for a 429, the [*APIError] with RetryAfter set).
	MaxWait time.Duration
}

// DefaultRetryPolicy returns 4 attempts, 250ms base delay, 8s maximum delay
// and a 20s maximum wait.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxAttempts: 4, BaseDelay: 250 * time.Millisecond, MaxDelay: 8 * time.Second, MaxWait: 20 * time.Second}
}

func (p RetryPolicy) validate() error {
	switch {
	case p.MaxAttempts < 0:
		return &ValidationError{Field: "retry policy", Problem: "MaxAttempts must not be negative"}
	case p.BaseDelay < 0 || p.MaxDelay < 0 || p.MaxWait < 0:
		return &ValidationError{Field: "retry policy", Problem: "delays must not be negative"}
	}
	return nil
}

func (p RetryPolicy) attempts() int { return max(p.MaxAttempts, 1) }

// backoff returns the jittered delay before retry number n (n >= 1).
func (p RetryPolicy) backoff(n int) time.Duration {
	d := p.BaseDelay
	limit := max(p.MaxDelay, p.BaseDelay)
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	if d <= 0 {
		return 0
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// maxRetryAfter bounds a parsed Retry-After so that arithmetic cannot overflow;
// anything this long is beyond every sensible MaxWait anyway.
const maxRetryAfter = 7 * 24 * time.Hour

// parseRetryAfter reads a Retry-After value: a number of seconds or an
// HTTP-date. A date is measured from the server's Date header when it has a
// valid one (so clock skew does not matter), else from now. Anything
// unreadable, and a date in the past, gives 0.
func parseRetryAfter(value, serverDate string, now time.Time) time.Duration {
	v := strings.TrimSpace(value)
	if v == "" {
		return 0
	}
	if isDigits(v) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter
		}
		return time.Duration(n) * time.Second
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0
	}
	ref := now
	if d, err := http.ParseTime(strings.TrimSpace(serverDate)); err == nil {
		ref = d
	}
	wait := at.Sub(ref)
	if wait <= 0 {
		return 0
	}
	return min(wait, maxRetryAfter)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// temporaryStatus reports whether an answer with this status may be followed
// by a good one: 408, 429 and 5xx.
func temporaryStatus(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusTooManyRequests || status >= 500
}

// Temporary reports whether a failed read (GetJob, Visitors) may succeed when
// repeated later, as the client's own retries judge it: a request that got no
// answer, or an answer of 408, 429 or 5xx. retryAfter is the wait the server
// asked for, 0 if none. Validation errors, other statuses, unreadable answers
// and errors wrapping [ErrOutcomeUnknown] are not temporary: a POST whose
// outcome is unknown must not be repeated blindly.
func Temporary(err error) (retryAfter time.Duration, ok bool) {
	if errors.Is(err, ErrOutcomeUnknown) {
		return 0, false
	}
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.RetryAfter, temporaryStatus(ae.StatusCode)
	}
	var te *TransportError
	return 0, errors.As(err, &te)
}
