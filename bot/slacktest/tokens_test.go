package slacktest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/store/redistest"
)

// authTestErr is auth.test's error with token ("" when it works).
func authTestErr(t *testing.T, s *Server, token string) string {
	t.Helper()
	_, err := slack.New(token, slack.OptionAPIURL(s.APIURL)).AuthTestContext(testContext(t))
	return slackErr(err)
}

func TestTokenRotation(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	s := acmeServer(t, WithClock(clock.Now), WithTokenRotation(12*time.Hour))
	ctx := testContext(t)
	refresh := func(token string) (*slack.OAuthV2Response, error) {
		return slack.RefreshOAuthV2TokenContext(ctx, http.DefaultClient, testClientID, testClientSecret, token, slack.OAuthOptionAPIURL(s.APIURL))
	}
	first := installApp(t, s, "T0ACME", "U0ANNA")
	if first.ExpiresIn != 12*60*60 || !strings.HasPrefix(first.RefreshToken, "xoxe-1-") {
		t.Fatalf("install with rotation: expires_in %d, refresh token %q", first.ExpiresIn, first.RefreshToken)
	}
	clock.Advance(11 * time.Hour)
	second, err := refresh(first.RefreshToken)
	if err != nil {
		t.Fatal(err)
	}
	if second.AccessToken == first.AccessToken || second.RefreshToken == first.RefreshToken || second.ExpiresIn != 12*60*60 ||
		second.Team.ID != "T0ACME" || second.BotUserID != "U0BOTACME" {
		t.Fatalf("refresh = %+v", second)
	}
	steps := []struct {
		name    string
		advance time.Duration
		token   string
		wantErr string
	}{
		{"old token before its expiry", 0, first.AccessToken, ""},
		{"new token", 0, second.AccessToken, ""},
		{"old token at its expiry", time.Hour, first.AccessToken, "token_expired"},
		{"new token an hour later", 0, second.AccessToken, ""},
		{"new token at its expiry", 11 * time.Hour, second.AccessToken, "token_expired"},
		{"unknown token", 0, "xoxb-made-up", "invalid_auth"},
	}
	for _, st := range steps {
		clock.Advance(st.advance)
		if got := authTestErr(t, s, st.token); got != st.wantErr {
			t.Errorf("%s: %q, want %q", st.name, got, st.wantErr)
		}
	}
	expired := s.Calls("auth.test")
	if last := expired[len(expired)-2]; last.Team != "T0ACME" || last.Error != "token_expired" {
		t.Errorf("the expired token's call: %+v", last)
	}

	third, err := refresh(second.RefreshToken)
	if err != nil {
		t.Fatalf("refresh after expiry: %v", err)
	}
	for _, rt := range []string{first.RefreshToken, second.RefreshToken, "xoxe-1-made-up"} {
		if _, err := refresh(rt); slackErr(err) != "invalid_refresh_token" {
			t.Errorf("refresh with a spent or unknown refresh token: %v, want invalid_refresh_token", err)
		}
	}
	if got := authTestErr(t, s, third.AccessToken); got != "" {
		t.Errorf("third token: %q", got)
	}
	if got := s.TokenExchanges(); got != 2 {
		t.Errorf("TokenExchanges = %d, want 2", got)
	}
	// The two spent ones, not the made-up one, each with when it was
	// exchanged (the first 12 hours before the second) and presented.
	reused := s.RefreshReuses()
	if len(reused) != 2 || reused[0].Installation != "T0ACME" || reused[1].Exchanged.Sub(reused[0].Exchanged) != 12*time.Hour || reused[1].Presented.Before(reused[1].Exchanged) {
		t.Errorf("RefreshReuses = %+v, want the first and second refresh tokens, each after its exchange", reused)
	}
}

// payloadOf is what tests read of an envelope's payload: an event's team
// and authorization, its inner event's type and tokens.
type payloadOf struct {
	TeamID         string `json:"team_id"`
	Authorizations []struct {
		TeamID              string `json:"team_id"`
		UserID              string `json:"user_id"`
		EnterpriseID        string `json:"enterprise_id"`
		IsEnterpriseInstall bool   `json:"is_enterprise_install"`
	} `json:"authorizations"`
	Event struct {
		Type   string              `json:"type"`
		Text   string              `json:"text"`
		User   string              `json:"user"`
		Tokens map[string][]string `json:"tokens"`
	} `json:"event"`
	Team struct {
		ID     string `json:"id"`
		Domain string `json:"domain"`
	} `json:"team"`
}

// envelopes connects a client that acknowledges everything and records
// each envelope's payload.
func envelopes(t *testing.T, s *Server) *recorder[payloadOf] {
	t.Helper()
	rec := &recorder[payloadOf]{}
	ackEverything(t, s, func(e socketmode.Event) {
		var p payloadOf
		if e.Request != nil && json.Unmarshal(e.Request.Payload, &p) == nil {
			rec.add(p)
		}
	})
	return rec
}

// payloadOfEvent waits for the event typ (by user, unless "") and returns
// its payload.
func payloadOfEvent(t *testing.T, rec *recorder[payloadOf], typ, user string) payloadOf {
	t.Helper()
	var out payloadOf
	redistest.Until(t, "event "+typ, func() bool {
		i := slices.IndexFunc(rec.all(), func(p payloadOf) bool { return p.Event.Type == typ && (user == "" || p.Event.User == user) })
		if i >= 0 {
			out = rec.all()[i]
		}
		return i >= 0
	})
	return out
}

func TestUninstallAndRevokeTokens(t *testing.T) {
	t.Parallel()
	s := acmeServer(t, WithTokenRotation(12*time.Hour))
	rec := envelopes(t, s)
	ctx := testContext(t)
	first := installApp(t, s, "T0ACME", "U0ANNA")
	again := installApp(t, s, "T0ACME", "U0ANNA")
	if got := authTestErr(t, s, first.AccessToken); got != "" || again.AccessToken == first.AccessToken {
		t.Fatalf("a reinstall: earlier token %q, same token %v", got, again.AccessToken == first.AccessToken)
	}

	s.RevokeTokens("T0ACME")
	revoked := payloadOfEvent(t, rec, "tokens_revoked", "")
	if revoked.TeamID != "T0ACME" || !slices.Equal(revoked.Event.Tokens["bot"], []string{"U0BOTACME"}) {
		t.Errorf("tokens_revoked = %+v", revoked)
	}
	for _, tok := range []string{first.AccessToken, again.AccessToken} {
		if got := authTestErr(t, s, tok); got != "token_revoked" {
			t.Errorf("revoked token: %q", got)
		}
	}
	if _, err := slack.RefreshOAuthV2TokenContext(ctx, http.DefaultClient, testClientID, testClientSecret, again.RefreshToken,
		slack.OAuthOptionAPIURL(s.APIURL)); slackErr(err) != "invalid_refresh_token" {
		t.Errorf("refresh with a revoked refresh token: %v", err)
	}
	if !s.Installed("T0ACME") {
		t.Error("revoking tokens uninstalled the app")
	}

	third := installApp(t, s, "T0ACME", "U0ANNA")
	s.Uninstall("T0ACME")
	gone := payloadOfEvent(t, rec, "app_uninstalled", "")
	if gone.TeamID != "T0ACME" || gone.Authorizations[0].UserID != "U0BOTACME" {
		t.Errorf("app_uninstalled = %+v", gone)
	}
	tests := []struct {
		name, team string
		installed  bool
	}{
		{"uninstalled", "T0ACME", false},
		{"primary untouched", "T0TEST", true},
		{"never added", "T0NOPE", false},
	}
	for _, tt := range tests {
		if got := s.Installed(tt.team); got != tt.installed {
			t.Errorf("%s: Installed(%s) = %v", tt.name, tt.team, got)
		}
	}
	if got := authTestErr(t, s, third.AccessToken); got != "token_revoked" {
		t.Errorf("token after uninstall: %q", got)
	}
	if got := authTestErr(t, s, s.BotToken()); got != "" {
		t.Errorf("the primary's token after another's uninstall: %q", got)
	}
}

func TestUninstallOverHTTP(t *testing.T) {
	t.Parallel()
	app := &signedApp{}
	s := newHTTPModeServer(t, app)
	s.Uninstall("T0TEST")
	reqs := waitLen(t, &app.seen, 1)
	var p payloadOf
	if err := json.Unmarshal(reqs[0].body, &p); err != nil || reqs[0].path != PathEvents || p.Event.Type != "app_uninstalled" || p.TeamID != "T0TEST" {
		t.Errorf("delivered %s %s (%v)", reqs[0].path, reqs[0].body, err)
	}
	if got := authTestErr(t, s, s.BotToken()); got != "token_revoked" || s.Installed("T0TEST") {
		t.Errorf("primary after uninstall: token %q, installed %v", got, s.Installed("T0TEST"))
	}
}
