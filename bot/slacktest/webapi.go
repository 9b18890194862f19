package slacktest

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Token kinds recorded in Call.Token.
const (
	tokenBot     = "bot"
	tokenApp     = "app"
	tokenNone    = "none"
	tokenInvalid = "invalid"
)

// apiRequest is a parsed Web API request.
type apiRequest struct {
	params map[string]string
	// ws is the workspace the call acts in, as its token says (for an
	// org-wide token, the one the call names); orgWide says the token is
	// an org-wide install's.
	ws      *Workspace
	orgWide bool
	// token is the token the call presented (auth.revoke revokes it).
	token string
}

// apiResult is a method's answer: fields added to {"ok":true}, or a Slack error.
type apiResult struct {
	fields map[string]any
	err    string
	// messages explain an error (response_metadata.messages), errFields are
	// added to an error answer (missing_scope's needed and provided).
	messages  []string
	errFields map[string]any
	echo      []*envelope // events to deliver once the answer is decided
}

func fail(code string) apiResult { return apiResult{err: code} }

// apiMethod describes one Web API method the server implements.
type apiMethod struct {
	token string // the token kind the method requires
	run   func(s *Server, r *apiRequest) apiResult
}

// lookupMethod returns the implementation of a Web API method.
func lookupMethod(name string) (apiMethod, bool) {
	var run func(*Server, *apiRequest) apiResult
	switch name {
	case "auth.test":
		run = (*Server).authTest
	case "auth.revoke":
		run = (*Server).authRevoke
	case "apps.connections.open":
		return apiMethod{tokenApp, (*Server).appsConnectionsOpen}, true
	case "oauth.v2.access":
		return apiMethod{tokenNone, (*Server).oauthV2Access}, true
	case "chat.postMessage":
		run = (*Server).chatPostMessage
	case "chat.update":
		run = (*Server).chatUpdate
	case "chat.startStream":
		run = (*Server).chatStartStream
	case "chat.appendStream":
		run = (*Server).chatAppendStream
	case "chat.stopStream":
		run = (*Server).chatStopStream
	case "chat.postEphemeral":
		run = (*Server).chatPostEphemeral
	case "reactions.add":
		run = (*Server).reactionsAdd
	case "reactions.remove":
		run = (*Server).reactionsRemove
	case "conversations.replies":
		run = (*Server).conversationsReplies
	case "conversations.history":
		run = (*Server).conversationsHistory
	case "conversations.open":
		run = (*Server).conversationsOpen
	case "views.open":
		run = (*Server).viewsOpen
	case "views.push":
		run = (*Server).viewsPush
	case "views.update":
		run = (*Server).viewsUpdate
	case "views.publish":
		run = (*Server).viewsPublish
	case "assistant.threads.setStatus":
		run = (*Server).assistantThreadsSetStatus
	case "assistant.threads.setSuggestedPrompts":
		run = (*Server).assistantThreadsSetSuggestedPrompts
	case "assistant.threads.setTitle":
		run = (*Server).assistantThreadsSetTitle
	case "agents.sessions.setStatus":
		run = (*Server).agentsSessionsSetStatus
	case "agents.sessions.rename":
		run = (*Server).agentsSessionsRename
	case "chat.unfurl":
		run = (*Server).chatUnfurl
	case "files.getUploadURLExternal":
		run = (*Server).filesGetUploadURLExternal
	case "files.completeUploadExternal":
		run = (*Server).filesCompleteUploadExternal
	case "usergroups.users.list":
		run = (*Server).usergroupsUsersList
	case "users.info":
		run = (*Server).usersInfo
	case "chat.getPermalink":
		run = (*Server).chatGetPermalink
	case "conversations.info":
		run = (*Server).conversationsInfo
	case "users.conversations":
		run = (*Server).usersConversations
	case "conversations.members":
		run = (*Server).conversationsMembers
	default:
		return apiMethod{}, false
	}
	return apiMethod{tokenBot, run}, true
}

// serveAPI answers /api/{method}: always HTTP 200 with {"ok":...}, except 429
// for an injected rate limit.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	method := strings.TrimPrefix(r.URL.Path, "/api/")
	params, token, parseErr := parseAPIRequest(r)
	if id, secret, ok := r.BasicAuth(); ok && method == "oauth.v2.access" {
		// The app's credentials by HTTP basic auth, which Slack accepts
		// instead of the form's.
		params["client_id"], params["client_secret"], token = id, secret, ""
	}
	tu := s.tokenOf(token, params)
	kind, tokenErr := tu.kind, tu.code
	call := Call{Method: method, Params: params, Token: kind, At: now, Team: tu.team, NamedTeam: s.namedTeam(params)}
	if method == "oauth.v2.access" {
		call.Params = withoutSecrets(maps.Clone(params))
	}

	s.arrived(method, 1)
	defer s.arrived(method, -1)
	if d := s.faults.latencyOf(method); d > 0 {
		// Like Slack, a request received is carried out after its latency
		// whether or not its caller still waits for the answer: a post
		// whose caller gave up may still land.
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-s.ctx.Done():
			t.Stop()
		}
	}

	retry, limited := s.faults.takeRateLimit(method)
	if !limited && method == "chat.postMessage" && kind == tokenBot {
		retry, limited = s.faults.takePost(&s.cfg, params["channel"], s.cfg.now())
	}
	if !limited && kind == tokenBot {
		retry, limited = s.faults.takeMethod(&s.cfg, method)
	}
	if kind == tokenBot && tokenErr == "" {
		w.Header().Set("X-OAuth-Scopes", strings.Join(s.cfg.scopes, ","))
	}
	if limited {
		call.Error = "ratelimited"
		s.record(call)
		secs := int64((retry + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"ok": false, "error": "ratelimited"})
		return
	}

	res := s.runAPI(method, kind, tokenErr, &apiRequest{params: params, ws: tu.ws, orgWide: tu.orgWide, token: token}, parseErr)
	call.Error = res.err
	s.record(call)
	for _, e := range res.echo {
		s.deliver(e)
	}
	s.hold(r.Context(), method, params, res)
	if res.err != "" {
		out := map[string]any{"ok": false, "error": res.err}
		maps.Copy(out, res.errFields)
		if len(res.messages) > 0 {
			out["response_metadata"] = map[string]any{"messages": res.messages}
		}
		writeJSON(w, http.StatusOK, out)
		return
	}
	out := map[string]any{"ok": true}
	maps.Copy(out, res.fields)
	writeJSON(w, http.StatusOK, out)
}

// runAPI checks the method, the token and injected failures, then runs the method.
func (s *Server) runAPI(method, kind, tokenErr string, r *apiRequest, parseErr bool) apiResult {
	m, ok := lookupMethod(method)
	switch {
	case !ok:
		return fail("unknown_method")
	case m.token == tokenNone:
		// A method that takes no token (oauth.v2.access) ignores one.
	case kind == tokenNone:
		return fail("not_authed")
	case kind == tokenInvalid:
		return fail("invalid_auth")
	case kind != m.token:
		return fail("not_allowed_token_type")
	case tokenErr != "":
		return fail(tokenErr)
	}
	if parseErr {
		return fail("invalid_form_data")
	}
	if r.orgWide && needsTeamID(method) && r.params["team_id"] == "" {
		// Slack cannot tell which of the organisation's workspaces the
		// call is about (its error for an argument left out).
		return fail("missing_argument")
	}
	if code, failed := s.faults.takeFailure(method); failed {
		return fail(code)
	}
	if res, ok := s.needScope(methodScopes(method)...); !ok {
		return res
	}
	return m.run(s, r)
}

// tokenUse is the token a call presented: its kind, and for a bot token
// the workspace the call acts in, the team Call records, Slack's error for
// a token that no longer works and whether it is an org-wide install's.
type tokenUse struct {
	kind    string
	ws      *Workspace
	team    string
	code    string
	orgWide bool
}

// tokenOf says which token a call with params presented.
func (s *Server) tokenOf(token string, params map[string]string) tokenUse {
	switch token {
	case "":
		return tokenUse{kind: tokenNone}
	case s.cfg.appToken:
		return tokenUse{kind: tokenApp}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w, t, code, ok := s.botTokenLocked(token, params)
	if !ok {
		return tokenUse{kind: tokenInvalid}
	}
	u := tokenUse{kind: tokenBot, ws: w, team: t.key(), code: code, orgWide: t.orgWide}
	if w != nil {
		u.team = w.Team
	}
	return u
}

// namedTeam is the workspace of the channel a call with params names, else
// of the person it names; "" for none the fake knows.
func (s *Server) namedTeam(params map[string]string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range []string{"channel", "channel_id"} {
		if ch, ok := s.channels[params[k]]; ok {
			return s.channelWorkspaceLocked(ch).Team
		}
	}
	for _, k := range []string{"user", "user_id"} {
		if _, known := s.users[params[k]]; known {
			if w := s.userWorkspaceLocked(params[k]); w != nil {
				return w.Team
			}
		}
	}
	return ""
}

// withoutSecrets deletes from params the credentials oauth.v2.access takes
// in its form, for Calls, and returns params.
func withoutSecrets(params map[string]string) map[string]string {
	for _, k := range []string{"client_secret", "code", "refresh_token"} {
		delete(params, k)
	}
	return params
}

// parseAPIRequest reads the parameters of a form or JSON request and the token
// (Authorization: Bearer, or the token field). The token is removed from params.
func parseAPIRequest(r *http.Request) (params map[string]string, token string, bad bool) {
	params = map[string]string{}
	token, _ = strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	ctype, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ctype == "application/json" {
		for k, v := range r.URL.Query() {
			params[k] = v[0]
		}
		raw, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		if err != nil {
			return params, token, true
		}
		if len(bytes.TrimSpace(raw)) > 0 {
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(raw, &fields); err != nil {
				return params, token, true
			}
			for k, v := range fields {
				var str string
				if err := json.Unmarshal(v, &str); err == nil {
					params[k] = str
				} else {
					params[k] = string(v)
				}
			}
		}
	} else {
		if err := r.ParseForm(); err != nil {
			return params, token, true
		}
		for k, v := range r.Form {
			params[k] = v[0]
		}
	}
	if t, ok := params["token"]; ok {
		if token == "" {
			token = t
		}
		delete(params, "token")
	}
	return params, token, false
}

// record stores a call for Calls.
func (s *Server) record(c Call) {
	s.mu.Lock()
	s.calls = append(s.calls, c)
	s.mu.Unlock()
	s.changed()
}

// Calls lists the Web API calls of method ("" = all), oldest first.
func (s *Server) Calls(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if method == "" || c.Method == method {
			c.Params = maps.Clone(c.Params)
			out = append(out, c)
		}
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// wsURL is the Socket Mode address handed out by apps.connections.open.
func wsURL(host, ticket, appID string) string {
	q := url.Values{"ticket": {ticket}, "app_id": {appID}}
	return "ws://" + host + "/link/?" + q.Encode()
}

// needsTeamID reports whether a call of method with an org-wide token must
// name the workspace it acts in (team_id), as Slack's list of such
// methods says of those the fake serves: a list of a workspace's
// conversations, people or user groups.
func needsTeamID(method string) bool {
	switch method {
	case "conversations.list", "users.list", "users.conversations", "usergroups.list", "usergroups.users.list":
		return true
	}
	return false
}
