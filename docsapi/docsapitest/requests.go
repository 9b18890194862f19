package docsapitest

import (
	"net/http"
	"net/url"
	"time"
)

// Endpoint names an operation of the API, for faults, request records and
// counts.
type Endpoint string

// The endpoints the server tells apart. EndpointUnknown covers every path the
// API does not have and known paths called with the wrong method.
const (
	EndpointCreate   Endpoint = "create"
	EndpointMessage  Endpoint = "message"
	EndpointGet      Endpoint = "get"
	EndpointVisitors Endpoint = "visitors"
	// The discovery API: a question to the assistant, search, a page.
	EndpointAssistant Endpoint = "assistant"
	EndpointSearch    Endpoint = "search"
	EndpointPage      Endpoint = "page"
	// Deployments: start one (M1), its status (M2), start a preview (M3).
	EndpointDeploy       Endpoint = "deploy"
	EndpointDeployStatus Endpoint = "deploy_status"
	EndpointPreview      Endpoint = "preview"
	EndpointUnknown      Endpoint = "unknown"
)

// Request is the record of one request the server received. It never holds
// the Authorization header.
type Request struct {
	// Endpoint is what the method and path name.
	Endpoint Endpoint
	// Method is the HTTP method.
	Method string
	// Path is the URL path, unescaped.
	Path string
	// Query is the parsed query string.
	Query url.Values
	// Body is the request body as received (up to 1 MiB and a byte; a
	// question to the assistant, whose images it carries, up to 64 MiB and
	// a byte).
	Body string
	// Status is the HTTP status sent, or 0 while the request is running or
	// when no answer was sent (see the package documentation).
	Status int
	// At is the server clock when the request arrived.
	At time.Time
}

// record logs a request on arrival and returns the entry to finish later.
func (s *Server) record(e Endpoint, r *http.Request, body []byte) *Request {
	rec := &Request{
		Endpoint: e,
		Method:   r.Method,
		Path:     r.URL.Path,
		Query:    r.URL.Query(),
		Body:     string(body),
		At:       s.now(),
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[e]++
	s.requests = append(s.requests, rec)
	if n := s.cfg.maxRequests; n > 0 && len(s.requests) >= 2*n {
		// Trim in batches, copying so the dropped entries can be freed.
		s.requests = append(make([]*Request, 0, 2*n), s.requests[len(s.requests)-n:]...)
	}
	return rec
}

// finish stores the status sent for rec.
func (s *Server) finish(rec *Request, status int) {
	s.mu.Lock()
	rec.Status = status
	s.mu.Unlock()
}

// Requests returns copies of the recorded requests in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	recs := s.requests
	if n := s.cfg.maxRequests; n > 0 && len(recs) > n {
		recs = recs[len(recs)-n:]
	}
	out := make([]Request, len(recs))
	for i, r := range recs {
		out[i] = *r
		out[i].Query = cloneValues(r.Query)
	}
	return out
}

// Count returns how many requests to e arrived since the start or the last
// [Server.ResetRequests], however they were answered.
func (s *Server) Count(e Endpoint) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[e]
}

// ResetRequests forgets the recorded requests and counts. It does not touch
// jobs or rate-limit windows.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
	s.counts = make(map[Endpoint]int)
}

func cloneValues(v url.Values) url.Values {
	if v == nil {
		return nil
	}
	out := make(url.Values, len(v))
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
