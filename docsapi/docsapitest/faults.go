package docsapitest

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Fault makes the server misbehave for matching requests. See the package
// documentation for how faults are matched and which answer wins.
type Fault struct {
	// Endpoint restricts the fault to one endpoint; "" matches every request.
	Endpoint Endpoint
	// Status answers this HTTP status, with an error body unless Body is set.
	Status int
	// Body is a raw body to send instead, such as a proxy's HTML page. With
	// Status 0 it is sent with the endpoint's success status.
	Body string
	// RetryAfter adds a Retry-After header in whole seconds (rounded up) to
	// the fault's answer.
	RetryAfter time.Duration
	// Malformed answers 2xx with truncated JSON: the endpoint's success
	// status unless Status is set; with AfterAct, the real body cut short.
	Malformed bool
	// CloseConn closes the connection without answering. Note that Go's
	// http.Transport replays a GET once when a reused keep-alive connection
	// closes without an answer, so one client call may use the fault twice.
	CloseConn bool
	// Latency waits before answering; the wait ends early, with no answer,
	// if the client gives up or the server closes.
	Latency time.Duration
	// AfterAct does the real work first (creates the job, counts the limit),
	// then waits Latency and answers with the fault.
	AfterAct bool
	// Hold, when set, holds matching requests until it is closed (before
	// Latency); like Latency it ends early, with no answer, if the client
	// gives up or the server closes. A test holds a request to act while
	// it is under way, with no timing.
	Hold <-chan struct{}
	// The fields below shape an assistant answer's stream; they do not make
	// the fault answer in its place, and other endpoints ignore them.

	// Pace, when set, makes the stream wait for a receive from it before
	// each text delta after the first (a closed Pace lets all through), so
	// a test sees events arrive one by one with no timing.
	Pace <-chan struct{}
	// DeltaDelay waits before each text delta after the first, instead of
	// the server's [WithDeltaDelay].
	DeltaDelay time.Duration
	// StreamError sends an error chunk with this errorText, then [DONE],
	// in place of the text delta number AfterDeltas+1 (or of text-end when
	// the answer has fewer deltas).
	StreamError string
	// CutStream closes the connection at the same point, mid-answer.
	CutStream bool
	// AfterDeltas is how many text deltas go out before StreamError or
	// CutStream strikes; 0 strikes before the first.
	AfterDeltas int
	// NoThreadHeaders leaves out X-Thread-Id and X-Thread-Key, so that a
	// client must read the thread from the finish chunk.
	NoThreadHeaders bool
	// Deltas, when set, are the answer's text deltas, sent in order in
	// place of the answer composed from the docs (the search still runs
	// and its results still come first): the text a test needs, such as
	// the markup, addresses or length an assistant could write. The
	// thread records it as the answer.
	Deltas []string
	// SourceURLs are source-url chunks sent before the text, as an
	// assistant may cite an address besides its search results.
	SourceURLs []SourceURL

	// Times is the number of matching requests the fault applies to;
	// 0 (or less) means until ClearFaults.
	Times int
}

// SourceURL is a source-url chunk of an answer's stream: an address and
// its title.
type SourceURL struct {
	URL, Title string
}

// answers reports whether the fault replaces the answer, rather than only
// delaying it.
func (f *Fault) answers() bool {
	return f.CloseConn || f.Malformed || f.Status != 0 || f.Body != ""
}

type faultState struct {
	f    Fault
	left int // remaining uses; 0 = unlimited
}

// AddFault adds a fault after those already added.
func (s *Server) AddFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &faultState{f: f, left: max(f.Times, 0)})
}

// ClearFaults removes every fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// takeFault returns the first fault matching e and uses it up once, or nil.
func (s *Server) takeFault(e Endpoint) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, fs := range s.faults {
		if fs.f.Endpoint != "" && fs.f.Endpoint != e {
			continue
		}
		f := fs.f
		if fs.left > 0 {
			fs.left--
			if fs.left == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		return &f
	}
	return nil
}

// hold waits until the fault's Hold is closed; it reports false if the
// request or the server ended first.
func (s *Server) hold(ctx context.Context, f *Fault) bool {
	if f.Hold == nil {
		return true
	}
	select {
	case <-f.Hold:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

// sleep waits d; it reports false if the request or the server ended first.
func (s *Server) sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

// truncatedBody is the cut-off JSON a Malformed fault serves when it answers
// before acting.
func truncatedBody(e Endpoint) string {
	switch e {
	case EndpointCreate, EndpointMessage:
		return `{"id":"job_0000000000000000","status":"act`
	case EndpointGet:
		return `{"id":"job_0000000000000000","status":"comp`
	case EndpointVisitors:
		return `{"totals":{"human":12,"ai":`
	case EndpointViews:
		return `{"totals":{"human":12,"ai":`
	case EndpointSearches:
		return `{"searches":[{"searchQuery":"ss`
	case EndpointFeedback, EndpointFeedbackByPage:
		return `{"feedback":[{"path":"/gui`
	case EndpointConversations:
		return `{"conversations":[{"id":"01JD`
	case EndpointThread:
		return `{"threadId":"01JD`
	case EndpointCallerStats:
		return `{"web":12,"api":`
	case EndpointDeploy, EndpointPreview:
		return `{"statusId":"0000`
	case EndpointDeployStatus:
		return `{"_id":"000000000000000000000000","status":"in_pro`
	}
	return `{"error":`
}

// faultResponse builds the answer of fault f for endpoint e; real is the
// server's own answer when the fault acts after the work, else nil.
func faultResponse(f *Fault, e Endpoint, real *response) *response {
	var resp *response
	switch {
	case f.Malformed:
		status := successStatus(e)
		body := truncatedBody(e)
		if real != nil {
			if real.status/100 == 2 {
				status = real.status
			}
			if len(real.body) > 1 {
				body = string(real.body[:len(real.body)/2])
			}
		}
		if f.Status != 0 {
			status = f.Status
		}
		resp = &response{status: status, header: http.Header{}, body: []byte(body)}
		resp.header.Set("Content-Type", "application/json")
	case f.Body != "":
		status := f.Status
		if status == 0 {
			status = successStatus(e)
		}
		resp = &response{status: status, header: http.Header{}, body: []byte(f.Body)}
		resp.header.Set("Content-Type", sniff(f.Body))
	default:
		msg := strings.ToLower(http.StatusText(f.Status))
		if f.Status == http.StatusTooManyRequests {
			msg = msgRateLimited
		}
		if msg == "" {
			msg = "status " + strconv.Itoa(f.Status)
		}
		resp = errorResponse(f.Status, msg)
	}
	if f.RetryAfter > 0 {
		resp.header.Set("Retry-After", strconv.Itoa(int((f.RetryAfter+time.Second-1)/time.Second)))
	}
	return resp
}

// sniff guesses the content type of a raw fault body.
func sniff(body string) string {
	t := strings.TrimSpace(body)
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		return "application/json"
	}
	return http.DetectContentType([]byte(body))
}

// successStatus is the status the endpoint answers on success.
func successStatus(e Endpoint) int {
	switch e {
	case EndpointCreate:
		return http.StatusCreated
	case EndpointDeploy, EndpointPreview:
		return http.StatusAccepted
	}
	return http.StatusOK
}
