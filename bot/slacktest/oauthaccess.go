package slacktest

import (
	"strings"
	"time"
)

// oauthV2Access answers oauth.v2.access (no token): an authorization code
// (grant_type authorization_code or none) or a refresh token (grant_type
// refresh_token) exchanged, with the app's client id and secret, for a bot
// token, as Slack does, errors included: invalid_client_id,
// bad_client_secret, invalid_grant_type, invalid_code (unknown, used or
// expired), bad_redirect_uri, invalid_refresh_token (unknown, used or
// revoked).
func (s *Server) oauthV2Access(r *apiRequest) apiResult {
	p := r.params
	switch {
	case s.cfg.oauth.clientID == "" || p["client_id"] != s.cfg.oauth.clientID:
		return fail("invalid_client_id")
	case p["client_secret"] != s.cfg.oauth.clientSecret:
		return fail("bad_client_secret")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch p["grant_type"] {
	case "", "authorization_code":
		c := s.codes[p["code"]]
		switch {
		case c == nil || c.used || !s.cfg.now().Before(c.expires):
			return fail("invalid_code")
		case p["redirect_uri"] != c.redirectURI:
			return fail("bad_redirect_uri")
		}
		c.used = true
		s.installs[c.key()] = &install{c.grant}
		return s.issueLocked(c.grant)
	case "refresh_token":
		rt := s.refreshes[p["refresh_token"]]
		if rt != nil && rt.used {
			s.reuses = append(s.reuses, RefreshReuse{Installation: rt.key(), Exchanged: rt.usedAt, Presented: s.cfg.now()})
		}
		if rt == nil || rt.used || rt.revoked {
			return fail("invalid_refresh_token")
		}
		rt.used, rt.usedAt = true, s.cfg.now()
		s.exchanges++
		return s.issueLocked(rt.grant)
	default:
		return fail("invalid_grant_type")
	}
}

// issueLocked issues a bot token for g (with token rotation, its expiry
// and a refresh token) and answers it as oauth.v2.access does. s.mu is held.
func (s *Server) issueLocked(g grant) apiResult {
	w := s.workspaceLocked(g.team)
	token := "xoxb-" + randomString(12) + "-" + randomString(24)
	t := &issuedToken{grant: g}
	fields := map[string]any{
		"app_id":                s.cfg.appID,
		"authed_user":           map[string]any{"id": g.user},
		"scope":                 strings.Join(g.scopes, ","),
		"token_type":            "bot",
		"access_token":          token,
		"bot_user_id":           w.BotUserID,
		"team":                  map[string]any{"id": w.Team, "name": w.Name},
		"enterprise":            nil,
		"is_enterprise_install": g.orgWide,
	}
	if g.enterprise != "" {
		fields["enterprise"] = map[string]any{"id": g.enterprise, "name": w.EnterpriseName}
	}
	if g.orgWide {
		fields["team"] = nil
	}
	if d := s.cfg.oauth.rotation; d > 0 {
		t.expires = s.cfg.now().Add(d)
		refresh := "xoxe-1-" + randomString(40)
		s.refreshes[refresh] = &refreshToken{grant: g}
		fields["refresh_token"] = refresh
		fields["expires_in"] = int(d / time.Second)
	}
	s.tokens[token] = t
	return apiResult{fields: fields}
}
