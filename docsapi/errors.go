package docsapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Sentinel errors matched by [*APIError] through errors.Is.
var (
	// ErrNotFound matches a 404 answer, such as an unknown job.
	ErrNotFound = errors.New("docsapi: not found")
	// ErrUnauthorized matches 401 and 403 answers: a missing, wrong or
	// insufficient API key.
	ErrUnauthorized = errors.New("docsapi: unauthorized")
	// ErrRateLimited matches a 429 answer.
	ErrRateLimited = errors.New("docsapi: rate limited")
	// ErrInvalidRequest matches 400 and 422 answers.
	ErrInvalidRequest = errors.New("docsapi: invalid request")
)

// ErrOutcomeUnknown is wrapped, together with the cause, when a POST failed
// after it may have reached the server: a timeout, a connection lost after the
// request was written, a 5xx answer or an unreadable success answer. The job
// may have been created or the message delivered; the caller must not assume
// that nothing happened, and must not resend blindly.
var ErrOutcomeUnknown = errors.New("docsapi: outcome unknown, the server may have acted on the request")

// ErrMalformedResponse is wrapped when a success answer could not be read as
// the expected JSON document.
var ErrMalformedResponse = errors.New("docsapi: malformed response")

// APIError is an answer of the service with a status code outside 2xx.
type APIError struct {
	// StatusCode is the HTTP status code of the answer.
	StatusCode int
	// Message is the server's message, or a short excerpt of a non-JSON body.
	// It may be empty.
	Message string
	// Details lists further messages the server gave, if any.
	Details []string
	// Method and Path identify the request. Path has no query string.
	Method, Path string
	// RetryAfter is the wait the server asked for in Retry-After, 0 if none.
	RetryAfter time.Duration
}

// Error describes the failure, for example
// "docsapi: POST /v2/agent/p1/job: 429 Too Many Requests: rate limit exceeded (retry after 30s)".
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString("docsapi: ")
	if e.Method != "" || e.Path != "" {
		b.WriteString(strings.TrimSpace(e.Method + " " + e.Path))
		b.WriteString(": ")
	}
	b.WriteString(statusLine(e.StatusCode))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if len(e.Details) > 0 {
		if e.Message == "" {
			b.WriteString(": ")
		} else {
			b.WriteString(" (")
		}
		b.WriteString(strings.Join(e.Details, "; "))
		if e.Message != "" {
			b.WriteString(")")
		}
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	return b.String()
}

// Is reports whether target is the sentinel for the error's status code.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests
	case ErrInvalidRequest:
		return e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusUnprocessableEntity
	}
	return false
}

// ValidationError reports an argument rejected before anything was sent.
type ValidationError struct {
	// Field names the argument, such as "prompt" or "limit".
	Field string
	// Problem says what is wrong with it.
	Problem string
}

// Error reads like "docsapi: invalid prompt: must not be empty".
func (e *ValidationError) Error() string {
	return "docsapi: invalid " + e.Field + ": " + e.Problem
}

// outcomeUnknownError wraps a POST failure that may have been acted upon.
type outcomeUnknownError struct{ cause error }

func (e *outcomeUnknownError) Error() string {
	return e.cause.Error() + " (outcome unknown: the server may have acted on the request)"
}

func (e *outcomeUnknownError) Unwrap() []error { return []error{ErrOutcomeUnknown, e.cause} }

// malformedError is a 2xx answer whose body could not be decoded.
type malformedError struct {
	method, path string
	status       int
	cause        error
}

func (e *malformedError) Error() string {
	return fmt.Sprintf("docsapi: %s %s: malformed response (%s): %v", e.method, e.path, statusLine(e.status), e.cause)
}

func (e *malformedError) Unwrap() []error { return []error{ErrMalformedResponse, e.cause} }

// Status names the answer's status code: "500 Internal Server Error".
func (e *APIError) Status() string { return statusLine(e.StatusCode) }

func statusLine(code int) string {
	if t := http.StatusText(code); t != "" {
		return strconv.Itoa(code) + " " + t
	}
	return "status " + strconv.Itoa(code)
}

const (
	maxTextExcerpt  = 200 // runes kept from a non-JSON error body
	maxJSONMessage  = 500 // runes kept from a JSON error message
	maxErrorDetails = 10
)

// errorBody decodes the error shapes of the service:
// {"error":"message"} and {"error":"message","details":[{"message":"..."}]}.
// It also tolerates {"message":"..."}, an error object, and plain strings as
// details. When the body is not JSON, it returns a short single-line excerpt
// of a text body and nothing for HTML.
func errorBody(body []byte, contentType string) (msg string, details []string) {
	trimmed := strings.TrimSpace(string(body))
	if trimmed == "" {
		return "", nil
	}
	if strings.HasPrefix(trimmed, "{") {
		var doc struct {
			Error   json.RawMessage   `json:"error"`
			Message json.RawMessage   `json:"message"`
			Details []json.RawMessage `json:"details"`
		}
		if err := json.Unmarshal([]byte(trimmed), &doc); err == nil {
			msg = messageOf(doc.Error)
			if msg == "" {
				msg = messageOf(doc.Message)
			}
			for _, d := range doc.Details {
				if len(details) == maxErrorDetails {
					break
				}
				if m := messageOf(d); m != "" {
					details = append(details, m)
				}
			}
			return msg, details
		}
	}
	if looksLikeHTML(trimmed, contentType) {
		return "", nil
	}
	return oneLine(trimmed, maxTextExcerpt), nil
}

// messageOf reads a JSON string, or the message/error string of an object.
func messageOf(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return oneLine(s, maxJSONMessage)
	}
	var obj struct {
		Message string `json:"message"`
		Error   string `json:"error"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		if obj.Message != "" {
			return oneLine(obj.Message, maxJSONMessage)
		}
		return oneLine(obj.Error, maxJSONMessage)
	}
	return ""
}

func looksLikeHTML(body, contentType string) bool {
	if strings.Contains(strings.ToLower(contentType), "html") {
		return true
	}
	// Markup of any kind (an HTML error page, XML) is never quoted.
	return strings.HasPrefix(body, "<")
}

// oneLine collapses whitespace and control characters to single spaces and
// cuts the text to at most max runes, marking a cut with "…".
func oneLine(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = b.Len() > 0
			continue
		}
		if n == max {
			b.WriteString("…")
			return b.String()
		}
		if space {
			if n+1 >= max {
				b.WriteString("…")
				return b.String()
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// TransportError is a request that got no HTTP answer: the connection could
// not be opened, broke, or timed out. Method and Path name the request (never
// the base URL or the key); Err is the cause.
type TransportError struct {
	Method, Path string
	Err          error
}

// Error returns "docsapi: METHOD PATH: cause".
func (e *TransportError) Error() string {
	return "docsapi: " + e.Method + " " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *TransportError) Unwrap() error { return e.Err }
