package docsapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// openStream is the open body of a streamed 2xx answer and what keeps it in
// check: the request's own context, and a timer that cancels it after a
// silence as long as the attempt timeout.
type openStream struct {
	body   io.ReadCloser
	header http.Header
	ctx    context.Context
	cancel context.CancelCauseFunc
	timer  *time.Timer // nil without an attempt timeout
	idle   time.Duration
}

// Causes with which a stream's context is cancelled, to tell them apart from
// the caller's own cancellation.
var (
	errStalled      = errors.New("no data within the attempt timeout")
	errStreamClosed = errors.New("answer stream closed")
)

// streamAttempt sends a streaming call once. An answer outside 2xx is read
// and closed like any other; a 2xx answer is returned with its body open in
// response.stream. Until the status line and headers arrive the attempt
// timeout limits the wait as for other calls; after that it limits each
// silence of the stream, so a long answer that keeps coming is never cut. No
// goroutine is started: the timer's function only cancels a context.
func (c *Client) streamAttempt(parent context.Context, cl *call) (*response, http.Header, error) {
	ctx, cancel := context.WithCancelCause(parent)
	var timer *time.Timer
	if c.attemptTimeout > 0 {
		timer = time.AfterFunc(c.attemptTimeout, func() { cancel(errStalled) })
	}
	stop := func() {
		if timer != nil {
			timer.Stop()
		}
		cancel(nil)
	}
	explain := func(err error) error {
		err = unwrapURLError(err)
		if errors.Is(context.Cause(ctx), errStalled) && parent.Err() == nil {
			return fmt.Errorf("attempt timed out after %s: %w", c.attemptTimeout, err)
		}
		return err
	}
	req, err := c.newRequest(ctx, cl)
	if err != nil {
		stop()
		return nil, nil, err
	}
	resp, err := c.httpClient.Do(req)
	if err != nil {
		err = explain(err)
		stop()
		return nil, nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer stop()
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+1))
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s answer: %w", statusLine(resp.StatusCode), explain(err))
		}
		if len(b) > maxErrorBody {
			b = b[:maxErrorBody]
		}
		return &response{status: resp.StatusCode, body: b}, resp.Header, nil
	}
	if timer != nil {
		timer.Reset(c.attemptTimeout)
	}
	return &response{status: resp.StatusCode, stream: &openStream{
		body: resp.Body, header: resp.Header, ctx: ctx, cancel: cancel, timer: timer, idle: c.attemptTimeout,
	}}, resp.Header, nil
}

// Read reads the body and, when data came, restarts the silence timer.
func (o *openStream) Read(p []byte) (int, error) {
	n, err := o.body.Read(p)
	if n > 0 && o.timer != nil {
		o.timer.Reset(o.idle)
	}
	return n, err
}

// close stops the timer, cancels the request and closes the body.
func (o *openStream) close() error {
	if o.timer != nil {
		o.timer.Stop()
	}
	o.cancel(errStreamClosed)
	return o.body.Close()
}
