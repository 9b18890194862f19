package docsapitest

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// Error messages of the discovery endpoints. 401 is plain text, as the
// discovery API's answer is not documented and may not be JSON; other errors
// are JSON, 404s with message rather than error as the page endpoint's are.
const (
	msgDiscoveryUnauthorized = "Unauthorized"
	msgNoDomain              = "domain not found"
	msgNoThread              = "thread not found"
	msgNoPage                = "page not found"
	msgFpRequired            = "fp is required"
	msgMessagesRequired      = "messages is required"
	msgNoQuestion            = "the last message must be a user message with text"
	msgBadFile               = "a file part needs a mediaType and a url (a data: URL must decode)"
	msgQueryRequired         = "query is required"
	msgBadPageSize           = "pageSize must be an integer between 1 and 50"
	msgPathRequired          = "path is required"
)

// discovery reports whether e is an endpoint of the discovery API.
func (e Endpoint) discovery() bool {
	return e == EndpointAssistant || e == EndpointSearch || e == EndpointPage
}

// matchDiscovery classifies a path below the discovery prefix, given as its
// unescaped segments (seg[0] is the empty string before the first slash).
func matchDiscovery(method string, seg []string) route {
	var rt route
	switch {
	case len(seg) == 5 && seg[0] == "" && seg[1] == "v2" && seg[2] == "assistant" && seg[4] == "message":
		rt = route{endpoint: EndpointAssistant, project: seg[3]}
	case len(seg) == 4 && seg[0] == "" && seg[1] == "v1" && seg[2] == "search":
		rt = route{endpoint: EndpointSearch, project: seg[3]}
	case len(seg) == 4 && seg[0] == "" && seg[1] == "v1" && seg[2] == "page":
		rt = route{endpoint: EndpointPage, project: seg[3]}
	default:
		return route{endpoint: EndpointUnknown}
	}
	rt.allow = http.MethodPost
	if rt.project == "" {
		return route{endpoint: EndpointUnknown}
	}
	if method != rt.allow {
		return route{endpoint: EndpointUnknown, allow: rt.allow}
	}
	return rt
}

// handleDiscovery does the work of a discovery request: the assistant key,
// the domain, the rate limit, then the endpoint.
func (s *Server) handleDiscovery(r *http.Request, rt route, body []byte) *response {
	if !bearer(r.Header.Get("Authorization"), s.AssistantKey) {
		h := http.Header{}
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("WWW-Authenticate", "Bearer")
		return &response{status: http.StatusUnauthorized, header: h, body: []byte(msgDiscoveryUnauthorized + "\n")}
	}
	if rt.project != s.Domain {
		return jsonResponse(http.StatusNotFound, map[string]string{"message": msgNoDomain})
	}
	s.mu.Lock()
	wait, ok := s.admitLocked(rt.endpoint, s.now())
	s.mu.Unlock()
	if !ok {
		resp := errorResponse(http.StatusTooManyRequests, msgRateLimited)
		resp.header.Set("Retry-After", strconv.Itoa(wait))
		return resp
	}
	fields, bad := jsonObject(body, bodyLimit(rt.endpoint))
	if bad != nil {
		return bad
	}
	switch rt.endpoint {
	case EndpointAssistant:
		return s.ask(fields)
	case EndpointSearch:
		return s.search(fields)
	default:
		return s.page(fields)
	}
}

// bearer reports whether header is "Bearer <key>".
func bearer(header, key string) bool {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	token = strings.TrimSpace(token)
	return token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(key)) == 1
}

// jsonObject reads a request body that must be a JSON object, of at most
// limit bytes. Unknown fields are kept for the handler to ignore.
func jsonObject(body []byte, limit int) (map[string]json.RawMessage, *response) {
	if len(body) > limit {
		return nil, errorResponse(http.StatusRequestEntityTooLarge, msgTooLarge)
	}
	t := bytes.TrimSpace(body)
	if !json.Valid(t) {
		return nil, errorResponse(http.StatusBadRequest, msgBadJSON)
	}
	if len(t) == 0 || t[0] != '{' {
		return nil, errorResponse(http.StatusBadRequest, msgNotObject)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(t, &fields); err != nil {
		return nil, errorResponse(http.StatusBadRequest, msgBadJSON)
	}
	return fields, nil
}

// stringField reads a string field; ok is false when it is absent, null or
// not a string.
func stringField(fields map[string]json.RawMessage, name string) (string, bool) {
	raw, found := fields[name]
	if !found {
		return "", false
	}
	var v string
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	return v, true
}

// intField reads an integer field: def when absent or null, ok false when it
// is not a whole number.
func intField(fields map[string]json.RawMessage, name string, def int) (int, bool) {
	raw, found := fields[name]
	if !found || string(raw) == "null" {
		return def, true
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}

// searchResult is one result as the search endpoint and the assistant's
// search tool give it.
type searchResult struct {
	Content  string         `json:"content"`
	Path     string         `json:"path"`
	Metadata searchMetadata `json:"metadata"`
}

type searchMetadata struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
}

func toResults(pages []DocPage) []searchResult {
	out := make([]searchResult, 0, len(pages))
	for _, p := range pages {
		out = append(out, searchResult{Content: p.Content, Path: p.Path, Metadata: searchMetadata{Title: p.Title, Description: p.Description}})
	}
	return out
}

// search handles POST {prefix}/v1/search/{domain}: a bare array of results.
func (s *Server) search(fields map[string]json.RawMessage) *response {
	q, ok := stringField(fields, "query")
	if !ok || strings.TrimSpace(q) == "" {
		return errorResponse(http.StatusBadRequest, msgQueryRequired)
	}
	n, ok := intField(fields, "pageSize", 10)
	if !ok || n < 1 || n > 50 {
		return errorResponse(http.StatusBadRequest, msgBadPageSize)
	}
	return jsonResponse(http.StatusOK, toResults(searchDocs(s.cfg.docs, q, n)))
}

// page handles POST {prefix}/v1/page/{domain}.
func (s *Server) page(fields map[string]json.RawMessage) *response {
	p, ok := stringField(fields, "path")
	if !ok || strings.TrimSpace(p) == "" {
		return errorResponse(http.StatusBadRequest, msgPathRequired)
	}
	for _, d := range s.cfg.docs {
		if d.Path == p {
			return jsonResponse(http.StatusOK, map[string]string{"path": d.Path, "content": d.Content})
		}
	}
	return jsonResponse(http.StatusNotFound, map[string]string{"message": msgNoPage})
}
