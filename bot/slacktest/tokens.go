package slacktest

import (
	"slices"
	"strings"
	"time"
)

// installState is what installs of the app left: its installations, the bot
// tokens and refresh tokens they issued, the OAuth codes not yet exchanged
// and the people signed in to the fake in a browser. It is held under
// Server.mu.
type installState struct {
	// installs are the installations by team id, or by enterprise id for
	// an org-wide one; the primary workspace's is there from the start.
	installs map[string]*install
	// tokens are the bot tokens by value, BotToken included; refreshes the
	// refresh tokens (token rotation) by value.
	tokens    map[string]*issuedToken
	refreshes map[string]*refreshToken
	// codes are the authorization codes by value; signins the signed-in
	// people by session cookie.
	codes   map[string]*authCode
	signins map[string]signin
	// denyNext makes the next authorize a refusal (DenyNextInstall),
	// orgWide makes approvals org-wide installs (InstallOrgWide);
	// exchanges counts refresh tokens exchanged (TokenExchanges), reuses
	// are the refresh tokens presented again after their exchange
	// (RefreshReuses).
	denyNext  bool
	orgWide   bool
	exchanges int
	reuses    []RefreshReuse
}

// grant is what an installation authorises: the app in one workspace
// (team), or in every workspace of an enterprise (an org-wide install).
type grant struct {
	team       string
	enterprise string
	orgWide    bool
	scopes     []string
	user       string // the person who approved
}

// key is the installation the grant belongs to: its team, or its enterprise
// when org-wide.
func (g grant) key() string {
	if g.orgWide {
		return g.enterprise
	}
	return g.team
}

// install is an installation of the app.
type install struct{ grant }

// issuedToken is a bot token: it acts for its grant until it expires (zero:
// never) or is revoked.
type issuedToken struct {
	grant
	expires time.Time
	revoked bool
}

// refreshToken exchanges once for a new bot token and refresh token (at
// usedAt).
type refreshToken struct {
	grant
	used, revoked bool
	usedAt        time.Time
}

func newInstallState(primary string) installState {
	return installState{
		installs:  map[string]*install{primary: {grant{team: primary}}},
		tokens:    map[string]*issuedToken{},
		refreshes: map[string]*refreshToken{},
		codes:     map[string]*authCode{},
		signins:   map[string]signin{},
	}
}

// botTokenLocked resolves a bot token for a call with params: the
// workspace it acts in (for an org-wide token, the one the call names by
// team_id, channel or person, else the enterprise's first) and Slack's
// error for a token that no longer works (token_revoked, token_expired).
// ok is false for a value that is no bot token. s.mu is held.
func (s *Server) botTokenLocked(value string, params map[string]string) (w *Workspace, t *issuedToken, code string, ok bool) {
	t, ok = s.tokens[value]
	if !ok {
		return nil, nil, "", false
	}
	if t.orgWide {
		w = s.orgWorkspaceLocked(t.enterprise, params)
	} else {
		w = s.workspaceLocked(t.team)
	}
	switch {
	case t.revoked || w == nil:
		code = "token_revoked"
	case !t.expires.IsZero() && !s.cfg.now().Before(t.expires):
		code = "token_expired"
	}
	return w, t, code, true
}

// orgWorkspaceLocked is the workspace of enterprise a call with an
// org-wide token acts in: the one team_id names, else the workspace of
// the channel or person it names, else the enterprise's first. s.mu is held.
func (s *Server) orgWorkspaceLocked(enterprise string, params map[string]string) *Workspace {
	in := func(w *Workspace) bool { return w != nil && w.Enterprise == enterprise }
	if w := s.workspaces[params["team_id"]]; in(w) {
		return w
	}
	for _, k := range []string{"channel", "channel_id"} {
		if ch, ok := s.channels[params[k]]; ok && in(s.channelWorkspaceLocked(ch)) {
			return s.channelWorkspaceLocked(ch)
		}
	}
	for _, k := range []string{"user", "user_id", "users"} {
		if w := s.userWorkspaceLocked(params[k]); params[k] != "" && in(w) {
			return w
		}
	}
	for _, team := range s.workspaceOrder {
		if w := s.workspaces[team]; in(w) {
			return w
		}
	}
	return nil
}

// orgInstalledLocked reports whether the app reaches w by an org-wide
// install of its enterprise (and no install of w's own). s.mu is held.
func (s *Server) orgInstalledLocked(w *Workspace) bool {
	if w.Enterprise == "" || s.installs[w.Team] != nil {
		return false
	}
	in, ok := s.installs[w.Enterprise]
	return ok && in.orgWide
}

// Installed reports whether the app is installed in team (a workspace, by
// its own install or its enterprise's org-wide one, or an enterprise id)
// and not uninstalled since (Uninstall). The primary workspace starts
// installed.
func (s *Server) Installed(team string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.installs[team]; ok {
		return true
	}
	w := s.workspaces[team]
	return w != nil && s.orgInstalledLocked(w)
}

// TokenExchanges counts the oauth.v2.access calls that exchanged a refresh
// token for a new token.
func (s *Server) TokenExchanges() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exchanges
}

// RefreshReuse is a refresh token presented again after its exchange.
type RefreshReuse struct {
	// Installation is the team (or enterprise id) the token was issued for.
	Installation string
	// Exchanged is when Slack exchanged it, Presented when it came again
	// (on the server's clock, WithClock).
	Exchanged, Presented time.Time
}

// RefreshReuses lists the oauth.v2.access calls that presented a refresh
// token already exchanged, oldest first: refused invalid_refresh_token, as
// a refresh token works once. Two callers refreshing one token at once
// make one; so does a caller that lost the answer of the exchange (it died
// before it kept the new tokens) and a later one that tries again.
func (s *Server) RefreshReuses() []RefreshReuse {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reuses)
}

// revokeLocked revokes every bot token and refresh token of the
// installation key (a team, or an enterprise id for an org-wide install)
// and reports whether there was one still working. s.mu is held.
func (s *Server) revokeLocked(key string) bool {
	live := false
	for _, t := range s.tokens {
		if t.key() == key && !t.revoked {
			t.revoked, live = true, true
		}
	}
	for _, r := range s.refreshes {
		if r.key() == key && !r.revoked {
			r.revoked = true
		}
	}
	return live
}

// installWorkspaceLocked is the workspace an event about installation key
// comes from: the team, or an enterprise's first workspace. s.mu is held.
func (s *Server) installWorkspaceLocked(key string) *Workspace {
	if w := s.workspaceLocked(key); w != nil {
		return w
	}
	return s.orgWorkspaceLocked(key, nil)
}

// Uninstall is workspace team (or, for an org-wide install, its enterprise
// id) removing the app: every token and refresh token of it is revoked
// (token_revoked) and, when it was installed, app_uninstalled is delivered
// (Events API, by the configured delivery), without waiting for the ack.
func (s *Server) Uninstall(team string) {
	s.mu.Lock()
	w := s.installWorkspaceLocked(team)
	_, was := s.installs[team]
	s.revokeLocked(team)
	var e *envelope
	if was && w != nil {
		e, _ = s.callbackInLocked(w, map[string]any{"type": "app_uninstalled"})
	}
	delete(s.installs, team)
	s.mu.Unlock()
	s.changed()
	if e != nil {
		s.deliver(e)
	}
}

// RevokeTokens is workspace team (or an enterprise id) revoking the app's
// tokens: every token and refresh token of it is revoked and, when one
// still worked, tokens_revoked is delivered with the bot user's id, without
// waiting for the ack. The app stays installed.
func (s *Server) RevokeTokens(team string) {
	s.mu.Lock()
	w := s.installWorkspaceLocked(team)
	var e *envelope
	if s.revokeLocked(team) && w != nil {
		e, _ = s.callbackInLocked(w, map[string]any{
			"type":   "tokens_revoked",
			"tokens": map[string]any{"oauth": []string{}, "bot": []string{w.BotUserID}},
		})
	}
	s.mu.Unlock()
	s.changed()
	if e != nil {
		s.deliver(e)
	}
}

// scopeList is the scopes of an authorize's scope parameter, comma or
// space separated.
func scopeList(v string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// authRevoke revokes the token the call presented (auth.revoke; test=true
// only says it would): calls with it answer token_revoked after.
func (s *Server) authRevoke(r *apiRequest) apiResult {
	if r.params["test"] == "true" || r.params["test"] == "1" {
		return apiResult{fields: map[string]any{"revoked": false}}
	}
	s.mu.Lock()
	if t, ok := s.tokens[r.token]; ok {
		t.revoked = true
	}
	s.mu.Unlock()
	return apiResult{fields: map[string]any{"revoked": true}}
}
