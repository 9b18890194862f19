package docsapitest

import (
	"crypto/subtle"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// maxBody is the largest request body the agent endpoints accept.
const maxBody = 1 << 20

// maxAssistantBody is the largest question the assistant accepts: its
// images travel in the body as data: URLs. The real service's limit is not
// documented (a Fault with Status 413 plays a smaller one).
const maxAssistantBody = 64 << 20

// bodyLimit is the largest request body e accepts.
func bodyLimit(e Endpoint) int {
	if e == EndpointAssistant {
		return maxAssistantBody
	}
	return maxBody
}

// route is what the path and method of a request name.
type route struct {
	endpoint Endpoint
	allow    string // the method a known path accepts, for 405 answers
	project  string
	jobID    string
}

// matchRoute classifies a request. A known path with the wrong method is
// EndpointUnknown with allow set.
func matchRoute(method string, u *url.URL, discoveryPrefix string) route {
	escaped := u.EscapedPath()
	discovery := false
	if discoveryPrefix == "" || strings.HasPrefix(escaped, discoveryPrefix+"/") {
		discovery, escaped = true, strings.TrimPrefix(escaped, discoveryPrefix)
	}
	raw := strings.Split(escaped, "/")
	seg := make([]string, len(raw))
	for i, p := range raw {
		v, err := url.PathUnescape(p)
		if err != nil {
			return route{endpoint: EndpointUnknown}
		}
		seg[i] = v
	}
	if discovery {
		if rt := matchDiscovery(method, seg); rt.endpoint != EndpointUnknown || rt.allow != "" || discoveryPrefix != "" {
			return rt
		}
	}
	var rt route
	switch {
	case len(seg) == 5 && seg[0] == "" && seg[1] == "v2" && seg[2] == "agent" && seg[4] == "job":
		rt = route{endpoint: EndpointCreate, allow: http.MethodPost, project: seg[3]}
	case len(seg) == 6 && seg[0] == "" && seg[1] == "v2" && seg[2] == "agent" && seg[4] == "job":
		rt = route{endpoint: EndpointGet, allow: http.MethodGet, project: seg[3], jobID: seg[5]}
	case len(seg) == 7 && seg[0] == "" && seg[1] == "v2" && seg[2] == "agent" && seg[4] == "job" && seg[6] == "message":
		rt = route{endpoint: EndpointMessage, allow: http.MethodPost, project: seg[3], jobID: seg[5]}
	case len(seg) == 5 && seg[0] == "" && seg[1] == "v1" && seg[2] == "analytics" && seg[4] == "visitors":
		rt = route{endpoint: EndpointVisitors, allow: http.MethodGet, project: seg[3]}
	case len(seg) == 5 && seg[0] == "" && seg[1] == "v1" && seg[2] == "project" && seg[3] == "update":
		rt = route{endpoint: EndpointDeploy, allow: http.MethodPost, project: seg[4]}
	case len(seg) == 5 && seg[0] == "" && seg[1] == "v1" && seg[2] == "project" && seg[3] == "preview":
		rt = route{endpoint: EndpointPreview, allow: http.MethodPost, project: seg[4]}
	case len(seg) == 5 && seg[0] == "" && seg[1] == "v1" && seg[2] == "project" && seg[3] == "update-status":
		// The status id (kept in jobID) stands where other paths have the
		// project.
		rt = route{endpoint: EndpointDeployStatus, allow: http.MethodGet, jobID: seg[4]}
	default:
		ar, ok := matchAnalytics(seg)
		if !ok {
			return route{endpoint: EndpointUnknown}
		}
		rt = ar
	}
	needsID := rt.endpoint == EndpointGet || rt.endpoint == EndpointMessage || rt.endpoint == EndpointDeployStatus
	if (rt.project == "" && rt.endpoint != EndpointDeployStatus) || (needsID && rt.jobID == "") {
		return route{endpoint: EndpointUnknown}
	}
	if method != rt.allow {
		return route{endpoint: EndpointUnknown, allow: rt.allow}
	}
	return rt
}

// serveHTTP runs one request: record it, apply a fault, do the work, answer.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		abort(w)
		return
	}
	defer s.inflight.Done()
	start := time.Now()

	rt := matchRoute(r.Method, r.URL, s.cfg.discoveryPrefix)
	body, _ := io.ReadAll(io.LimitReader(r.Body, int64(bodyLimit(rt.endpoint))+1))
	rec := s.record(rt.endpoint, r, body)
	status := 0
	defer func() {
		s.finish(rec, status)
		if l := s.cfg.logger; l != nil {
			l.Info("docsapitest request", "method", r.Method, "path", r.URL.Path,
				"endpoint", string(rt.endpoint), "status", status, "duration", time.Since(start))
		}
	}()

	f := s.takeFault(rt.endpoint)
	if f != nil && !f.AfterAct {
		if !s.hold(r.Context(), f) || !s.sleep(r.Context(), f.Latency) {
			abort(w) // no answer at all, not an empty 200
			return
		}
		if f.answers() {
			status = s.answerFault(w, f, rt.endpoint, nil)
			return
		}
	}
	resp := s.handle(r, rt, body)
	if f != nil && f.AfterAct {
		if !s.hold(r.Context(), f) || !s.sleep(r.Context(), f.Latency) {
			abort(w) // no answer at all, not an empty 200
			return
		}
		if f.answers() {
			status = s.answerFault(w, f, rt.endpoint, resp)
			return
		}
	}
	if resp.stream != nil {
		status = s.writeStream(w, r, resp, f)
		return
	}
	resp.write(w)
	status = resp.status
}

// answerFault sends the fault's answer and returns the status sent (0 when
// the connection was closed instead).
func (s *Server) answerFault(w http.ResponseWriter, f *Fault, e Endpoint, real *response) int {
	if f.CloseConn {
		abort(w)
		return 0
	}
	resp := faultResponse(f, e, real)
	resp.write(w)
	return resp.status
}

// abort closes the connection without an answer.
func abort(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// handle does the server's real work for a request.
func (s *Server) handle(r *http.Request, rt route, body []byte) *response {
	if rt.endpoint == EndpointUnknown {
		if rt.allow != "" {
			resp := errorResponse(http.StatusMethodNotAllowed, msgMethodNotAllowed)
			resp.header.Set("Allow", rt.allow)
			return resp
		}
		return errorResponse(http.StatusNotFound, msgNotFound)
	}
	if rt.endpoint.discovery() {
		return s.handleDiscovery(r, rt, body)
	}
	if !s.authorized(r.Header.Get("Authorization")) {
		resp := errorResponse(http.StatusUnauthorized, msgUnauthorized)
		resp.header.Set("WWW-Authenticate", "Bearer")
		return resp
	}
	if rt.endpoint != EndpointDeployStatus && rt.project != s.ProjectID {
		return errorResponse(http.StatusNotFound, msgNoProject)
	}
	s.mu.Lock()
	// The clock is read under the lock so window entries stay in order.
	wait, ok := s.admitLocked(rt.endpoint, s.now())
	s.mu.Unlock()
	if !ok {
		resp := errorResponse(http.StatusTooManyRequests, msgRateLimited)
		resp.header.Set("Retry-After", strconv.Itoa(wait))
		return resp
	}
	switch rt.endpoint {
	case EndpointCreate:
		return s.createJob(body)
	case EndpointMessage:
		return s.sendMessage(rt.jobID, body)
	case EndpointGet:
		return s.getJob(rt.jobID)
	case EndpointDeploy:
		return s.startDeploy()
	case EndpointPreview:
		return s.startPreview(body)
	case EndpointDeployStatus:
		return s.deployStatus(rt.jobID)
	case EndpointViews, EndpointSearches, EndpointFeedback, EndpointFeedbackByPage,
		EndpointConversations, EndpointThread, EndpointCallerStats:
		return s.handleAnalytics(rt, r.URL.Query())
	default:
		return s.visitors(r.URL.Query())
	}
}

// authorized reports whether header is "Bearer <key>" with the server's key.
func (s *Server) authorized(header string) bool {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	token = strings.TrimSpace(token)
	return token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.Key)) == 1
}
