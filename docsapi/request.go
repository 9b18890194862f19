package docsapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

const (
	maxBodyDefault  = 1 << 20  // 1 MiB: jobs and error answers
	maxBodyVisitors = 10 << 20 // 10 MiB: a page of the visitors export
	maxErrorBody    = 64 << 10 // read of an error answer, of which little is kept
)

// call is one API operation, possibly sent several times.
type call struct {
	method  string
	path    string     // escaped path below the base URL, without query
	query   url.Values // may be nil
	body    []byte     // JSON body, nil for none
	maxBody int64      // cap of a success body
	// safe marks a POST that only reads (search, page), so that it may be
	// repeated like a GET.
	safe bool
	// stream leaves a 2xx answer's body open for the caller (response.stream)
	// instead of reading it; see streamAttempt.
	stream bool
	accept string // Accept header; "" means application/json
	// secrets are values besides the API key that must not show in an error,
	// such as a thread key sent in the body.
	secrets []string
}

// idempotent reports whether the call may be repeated without effect.
func (cl *call) idempotent() bool { return cl.method == http.MethodGet || cl.safe }

// response is a read answer.
type response struct {
	status   int
	body     []byte
	tooLarge bool        // the body went past the call's cap and was cut
	stream   *openStream // the open 2xx body of a streaming call
}

// do sends cl, retrying as the policy and the method allow, and returns the
// first 2xx answer. Every other outcome is an error.
func (c *Client) do(ctx context.Context, cl *call) (*response, error) {
	attempts := c.retry.attempts()
	var lastErr error
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return nil, c.stopped(cl, err, lastErr)
		}
		start := time.Now()
		res, header, err := c.attempt(ctx, cl)
		var wait time.Duration
		switch {
		case err != nil:
			err = &TransportError{Method: cl.method, Path: cl.path, Err: err}
			c.logger.DebugContext(ctx, "docsapi attempt failed", "method", cl.method, "path", cl.path,
				"attempt", n, "elapsed", time.Since(start), "error", err.Error())
			if !cl.idempotent() && !isDialError(err) {
				return nil, &outcomeUnknownError{cause: err}
			}
			if ctx.Err() != nil {
				return nil, err
			}
			lastErr = err
		case res.status >= 200 && res.status <= 299:
			c.logger.DebugContext(ctx, "docsapi attempt", "method", cl.method, "path", cl.path,
				"attempt", n, "status", res.status, "elapsed", time.Since(start))
			if res.tooLarge {
				return nil, c.malformed(cl, res.status, nil, fmt.Errorf("body larger than %d bytes", cl.maxBody))
			}
			return res, nil
		default:
			apiErr := c.apiError(cl, res, header)
			c.logger.DebugContext(ctx, "docsapi attempt", "method", cl.method, "path", cl.path,
				"attempt", n, "status", res.status, "elapsed", time.Since(start), "retryAfter", apiErr.RetryAfter)
			if !c.retryableStatus(cl, res.status) {
				if !cl.idempotent() && outcomeUnknownStatus(res.status) {
					return nil, &outcomeUnknownError{cause: apiErr}
				}
				return nil, apiErr
			}
			wait = apiErr.RetryAfter
			lastErr = apiErr
		}
		if n >= attempts {
			return nil, lastErr
		}
		wait = max(wait, c.retry.backoff(n))
		if wait > c.retry.MaxWait {
			c.logger.DebugContext(ctx, "docsapi not retrying: wait too long", "method", cl.method, "path", cl.path,
				"wait", wait, "maxWait", c.retry.MaxWait)
			return nil, lastErr
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			c.logger.DebugContext(ctx, "docsapi not retrying: deadline too close", "method", cl.method, "path", cl.path, "wait", wait)
			return nil, lastErr
		}
		c.logger.DebugContext(ctx, "docsapi retry", "method", cl.method, "path", cl.path, "attempt", n+1, "wait", wait)
		if err := sleep(ctx, wait); err != nil {
			return nil, c.stopped(cl, err, lastErr)
		}
	}
}

// stopped reports the caller's context ending between attempts.
func (c *Client) stopped(cl *call, ctxErr, lastErr error) error {
	if lastErr == nil {
		return fmt.Errorf("docsapi: %s %s: %w", cl.method, cl.path, ctxErr)
	}
	return fmt.Errorf("%w (gave up before retrying: %w)", lastErr, ctxErr)
}

// retryableStatus reports whether an answer with this status is worth
// another attempt: 429 always (the server did not act), the other temporary
// statuses only for reads.
func (c *Client) retryableStatus(cl *call, status int) bool {
	return status == http.StatusTooManyRequests || (cl.idempotent() && temporaryStatus(status))
}

// outcomeUnknownStatus reports whether a failed POST with this status may
// still have been carried out.
func outcomeUnknownStatus(status int) bool {
	return status == http.StatusRequestTimeout || status >= 500
}

// isDialError reports whether err shows that no connection was opened, so
// that nothing can have been sent. In doubt it says no.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// attempt sends cl once and reads the whole answer within the attempt's own
// time limit.
func (c *Client) attempt(parent context.Context, cl *call) (*response, http.Header, error) {
	if cl.stream {
		return c.streamAttempt(parent, cl)
	}
	ctx := parent
	if c.attemptTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(parent, c.attemptTimeout)
		defer cancel()
	}
	// explain names an attempt that ran out of its own time, which the bare
	// "context deadline exceeded" would not tell apart from the caller's.
	explain := func(err error) error {
		err = unwrapURLError(err)
		if ctx.Err() != nil && parent.Err() == nil {
			return fmt.Errorf("attempt timed out after %s: %w", c.attemptTimeout, err)
		}
		return err
	}
	req, err := c.newRequest(ctx, cl)
	if err != nil {
		return nil, nil, err
	}
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return nil, nil, explain(err)
	}
	defer resp.Body.Close()
	limit := cl.maxBody
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		limit = maxErrorBody
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s answer: %w", statusLine(resp.StatusCode), explain(err))
	}
	res := &response{status: resp.StatusCode, body: b}
	if int64(len(b)) > limit {
		res.body, res.tooLarge = b[:limit], true
	}
	return res, resp.Header, nil
}

// newRequest builds the HTTP request of one attempt of cl.
func (c *Client) newRequest(ctx context.Context, cl *call) (*http.Request, error) {
	target := c.baseURL + cl.path
	if len(cl.query) > 0 {
		target += "?" + cl.query.Encode()
	}
	var body io.Reader
	if cl.body != nil {
		body = bytes.NewReader(cl.body)
	}
	req, err := http.NewRequestWithContext(ctx, cl.method, target, body)
	if err != nil {
		return nil, fmt.Errorf("building request: %w", unwrapURLError(err))
	}
	accept := cl.accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey.value())
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", c.userAgent)
	if cl.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// unwrapURLError drops the *url.Error layer, whose text repeats the whole
// request address; the method and path are named by the caller instead.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

// apiError builds the error of a non-2xx answer. Any copy of the API key the
// server might echo is removed.
func (c *Client) apiError(cl *call, res *response, header http.Header) *APIError {
	// Redact before the text is cut, so that no piece of the key survives.
	msg, details := errorBody(c.scrub(res.body, cl.secrets...), header.Get("Content-Type"))
	e := &APIError{
		StatusCode: res.status,
		Message:    c.redact(msg, cl.secrets...),
		Method:     cl.method,
		Path:       cl.path,
		RetryAfter: parseRetryAfter(header.Get("Retry-After"), header.Get("Date"), time.Now()),
	}
	for _, d := range details {
		e.Details = append(e.Details, c.redact(d, cl.secrets...))
	}
	return e
}

// scrub returns b with every copy of the API key, and of each further
// secret, replaced.
func (c *Client) scrub(b []byte, more ...string) []byte {
	for _, k := range append([]string{c.apiKey.value()}, more...) {
		if k != "" && bytes.Contains(b, []byte(k)) {
			b = bytes.ReplaceAll(b, []byte(k), []byte(redacted))
		}
	}
	return b
}

// redact is scrub for a string.
func (c *Client) redact(s string, more ...string) string {
	for _, k := range append([]string{c.apiKey.value()}, more...) {
		if k != "" && strings.Contains(s, k) {
			s = strings.ReplaceAll(s, k, redacted)
		}
	}
	return s
}

// malformed reports a 2xx answer that could not be decoded. For a POST the
// server has acted, so the error also wraps ErrOutcomeUnknown. A decoder's
// message may quote the body; when the body holds the API key, the message is
// withheld.
func (c *Client) malformed(cl *call, status int, body []byte, cause error) error {
	for _, k := range append([]string{c.apiKey.value()}, cl.secrets...) {
		if k != "" && bytes.Contains(body, []byte(k)) {
			cause = errors.New("body not shown: it contains a secret")
			break
		}
	}
	var err error = &malformedError{method: cl.method, path: cl.path, status: status, cause: cause}
	if !cl.idempotent() {
		err = &outcomeUnknownError{cause: err}
	}
	return err
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
