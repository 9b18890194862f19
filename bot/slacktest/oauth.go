package slacktest

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"time"
)

// codeTTL is how long an authorization code may be exchanged, as on Slack.
const codeTTL = 10 * time.Minute

// sessionCookie is the cookie of the person signed in to the fake in a
// browser (SignInURL).
const sessionCookie = "slacktest_session"

// oauthConfig is the app's OAuth settings (WithOAuth, WithTokenRotation).
type oauthConfig struct {
	clientID, clientSecret string
	// rotation is the lifetime of issued tokens; 0 is no token rotation.
	rotation time.Duration
}

// WithOAuth makes the app installable by link, as an app distributed to many
// workspaces is: GET /oauth/v2/authorize on URL() sends the signed-in
// person's approval back to the redirect_uri with a code, and
// oauth.v2.access exchanges it, with clientID and clientSecret, for a bot
// token of the person's workspace (see SignInURL, DenyNextInstall,
// InstallOrgWide, WithTokenRotation).
func WithOAuth(clientID, clientSecret string) Option {
	return func(c *config) { c.oauth.clientID, c.oauth.clientSecret = clientID, clientSecret }
}

// WithTokenRotation turns on token rotation: the tokens oauth.v2.access
// issues expire after lifetime on the server's clock (WithClock), with
// expires_in (seconds) and a refresh token ("xoxe-1-...") that exchanges
// once for a new token and a new refresh token.
func WithTokenRotation(lifetime time.Duration) Option {
	return func(c *config) { c.oauth.rotation = lifetime }
}

// signin is a person signed in to the fake in a browser.
type signin struct{ team, user string }

// authCode is an authorization code: single use, valid codeTTL, bound to
// the redirect_uri it was issued for and to what the person approved.
type authCode struct {
	grant
	redirectURI string
	expires     time.Time
	used        bool
}

// SignInURL is the address that signs the person user of workspace team
// ("" is the primary) in to the fake in a browser (a cookie on URL()) and
// then sends the browser on to next: the person whose approval an
// authorize asks.
func (s *Server) SignInURL(team, user, next string) string {
	return s.base + "/signin?" + url.Values{"team": {team}, "user": {user}, "next": {next}}.Encode()
}

// DenyNextInstall makes the next authorize a refusal: the person presses
// Cancel, and the browser goes back to the redirect_uri with
// error=access_denied.
func (s *Server) DenyNextInstall() {
	s.mu.Lock()
	s.denyNext = true
	s.mu.Unlock()
}

// InstallOrgWide makes the approvals after it, by a person of a workspace
// of an enterprise, org-wide installs (on) or installs in their workspace
// only (off, the default): an org-wide token serves every workspace of the
// enterprise.
func (s *Server) InstallOrgWide(on bool) {
	s.mu.Lock()
	s.orgWide = on
	s.mu.Unlock()
}

// serveSignIn answers GET /signin?team=&user=&next=: a session cookie for
// that person of that workspace, and a redirect to next ("/" when empty).
func (s *Server) serveSignIn(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	ws := s.workspaceLocked(q.Get("team"))
	user := q.Get("user")
	_, known := s.users[user]
	if ws == nil || !known || s.userWorkspaceLocked(user) != ws || s.botUserLocked(user) {
		s.mu.Unlock()
		writePage(w, http.StatusBadRequest, "Sign in to Slack", "No such person in that workspace.")
		return
	}
	session := randomString(32)
	s.signins[session] = signin{team: ws.Team, user: user}
	s.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: session, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, orDefault(q.Get("next"), "/"), http.StatusFound)
}

// serveAuthorize answers GET /oauth/v2/authorize as Slack does: 400 for an
// unknown client_id or a redirect_uri that is no http(s) URL, a sign-in page
// for a browser nobody signed in on, else a redirect to redirect_uri with
// error=access_denied (DenyNextInstall) or a code, and state.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if s.cfg.oauth.clientID == "" || q.Get("client_id") != s.cfg.oauth.clientID {
		writePage(w, http.StatusBadRequest, "Something went wrong", "Invalid client_id parameter.")
		return
	}
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || (redirect.Scheme != "http" && redirect.Scheme != "https") || redirect.Host == "" {
		writePage(w, http.StatusBadRequest, "Something went wrong", "Invalid redirect_uri parameter.")
		return
	}
	var who signin
	s.mu.Lock()
	if c, err := r.Cookie(sessionCookie); err == nil {
		who = s.signins[c.Value]
	}
	if who.user == "" {
		s.mu.Unlock()
		writePage(w, http.StatusOK, "Sign in to Slack", "Sign in to your workspace to install the app.")
		return
	}
	back := redirect.Query()
	if st := q.Get("state"); st != "" {
		back.Set("state", st)
	}
	if s.denyNext {
		s.denyNext = false
		back.Set("error", "access_denied")
	} else {
		ws := s.workspaceLocked(who.team)
		g := grant{team: ws.Team, enterprise: ws.Enterprise, scopes: scopeList(q.Get("scope")), user: who.user}
		g.orgWide = s.orgWide && ws.Enterprise != ""
		code := fmt.Sprintf("%d.%s", s.seqLocked(), randomHex(32))
		s.codes[code] = &authCode{grant: g, redirectURI: q.Get("redirect_uri"), expires: s.cfg.now().Add(codeTTL)}
		back.Set("code", code)
	}
	s.mu.Unlock()
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

// writePage answers a small HTML page.
func writePage(w http.ResponseWriter, status int, title, text string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title></head><body><h1>%s</h1><p>%s</p></body></html>\n",
		html.EscapeString(title), html.EscapeString(title), html.EscapeString(text))
}
