package slacktest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"
)

const (
	testClientID     = "1111.2222"
	testClientSecret = "test-client-secret"
	testRedirect     = "https://app.example/slack/oauth/callback"
)

// newBrowser is a person's browser: it keeps cookies and follows redirects,
// but stops at the app (app.example), answering that redirect instead.
func newBrowser(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if req.URL.Host == "app.example" {
			return http.ErrUseLastResponse
		}
		return nil
	}}
}

// authorizeURL is the install link of the app with clientID.
func authorizeURL(s *Server, clientID, redirect, state string) string {
	return s.URL() + "/oauth/v2/authorize?" + url.Values{
		"client_id": {clientID}, "scope": {"chat:write,commands users:read"},
		"redirect_uri": {redirect}, "state": {state},
	}.Encode()
}

// visit opens u in the browser: the last status, the redirect's Location
// (parsed) and the body.
func visit(t *testing.T, b *http.Client, u string) (int, *url.URL, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(testContext(t), http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := b.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	loc, _ := resp.Location()
	return resp.StatusCode, loc, string(body)
}

// approve is person user of team signing in and approving the install:
// the code of the redirect to testRedirect.
func approve(t *testing.T, s *Server, team, user string) string {
	t.Helper()
	status, loc, body := visit(t, newBrowser(t), s.SignInURL(team, user, authorizeURL(s, testClientID, testRedirect, "st")))
	if status != http.StatusFound || loc == nil || loc.Query().Get("code") == "" {
		t.Fatalf("approve as %s of %s: %d %v %s", user, team, status, loc, body)
	}
	return loc.Query().Get("code")
}

// installApp is approve and the code's exchange.
func installApp(t *testing.T, s *Server, team, user string) *slack.OAuthV2Response {
	t.Helper()
	resp, err := slack.GetOAuthV2ResponseContext(testContext(t), http.DefaultClient, testClientID, testClientSecret,
		approve(t, s, team, user), testRedirect, slack.OAuthOptionAPIURL(s.APIURL))
	if err != nil {
		t.Fatalf("install in %s: %v", team, err)
	}
	return resp
}

// acmeServer is a server with OAuth, the workspace T0ACME ("Acme", bot
// U0BOTACME) and its person U0ANNA in its channel C0ACME, where the bot is.
func acmeServer(t *testing.T, opts ...Option) *Server {
	t.Helper()
	s := newTestServer(t, append([]Option{WithOAuth(testClientID, testClientSecret)}, opts...)...)
	s.AddWorkspace(Workspace{Team: "T0ACME", Name: "Acme", BotUserID: "U0BOTACME"})
	s.AddMember("T0ACME", "U0ANNA", "anna")
	s.AddChannel(Channel{ID: "C0ACME", Name: "general", BotMember: true, Team: "T0ACME"})
	return s
}

func TestAuthorizeInBrowser(t *testing.T) {
	t.Parallel()
	s := acmeServer(t)
	signedIn := newBrowser(t)
	if status, loc, _ := visit(t, signedIn, s.SignInURL("T0ACME", "U0ANNA", "https://app.example/after")); status != http.StatusFound || loc.String() != "https://app.example/after" {
		t.Fatalf("sign-in: %d to %v, want 302 to next", status, loc)
	}
	tests := []struct {
		name     string
		browser  *http.Client
		deny     bool
		url      string
		status   int
		page     string // in the body
		redirect url.Values
	}{
		{name: "nobody signed in", browser: newBrowser(t), url: authorizeURL(s, testClientID, testRedirect, "s1"),
			status: http.StatusOK, page: "Sign in to Slack"},
		{name: "unknown client_id", browser: signedIn, url: authorizeURL(s, "9.9", testRedirect, "s2"), status: http.StatusBadRequest},
		{name: "no redirect_uri", browser: signedIn, url: authorizeURL(s, testClientID, "", "s3"), status: http.StatusBadRequest},
		{name: "redirect_uri not http", browser: signedIn, url: authorizeURL(s, testClientID, "ftp://app.example/x", "s4"), status: http.StatusBadRequest},
		{name: "relative redirect_uri", browser: signedIn, url: authorizeURL(s, testClientID, "/callback", "s5"), status: http.StatusBadRequest},
		{name: "denied", browser: signedIn, deny: true, url: authorizeURL(s, testClientID, testRedirect, "s6"),
			status: http.StatusFound, redirect: url.Values{"error": {"access_denied"}, "state": {"s6"}}},
		{name: "approved", browser: signedIn, url: authorizeURL(s, testClientID, testRedirect, "s7"),
			status: http.StatusFound, redirect: url.Values{"state": {"s7"}}},
	}
	for _, tt := range tests {
		if tt.deny {
			s.DenyNextInstall()
		}
		status, loc, body := visit(t, tt.browser, tt.url)
		if status != tt.status || !strings.Contains(body, tt.page) {
			t.Errorf("%s: %d %q, want %d with %q", tt.name, status, body, tt.status, tt.page)
			continue
		}
		if tt.redirect == nil {
			continue
		}
		if loc == nil || loc.Host != "app.example" || loc.Path != "/slack/oauth/callback" {
			t.Errorf("%s: redirected to %v", tt.name, loc)
			continue
		}
		q := loc.Query()
		for k := range tt.redirect {
			if q.Get(k) != tt.redirect.Get(k) {
				t.Errorf("%s: %s=%q, want %q", tt.name, k, q.Get(k), tt.redirect.Get(k))
			}
		}
		if hasCode := q.Get("code") != ""; hasCode == tt.deny {
			t.Errorf("%s: code %q", tt.name, q.Get("code"))
		}
	}
	if status, _, _ := visit(t, newBrowser(t), s.SignInURL("T0ACME", "U0ALICE", "/")); status != http.StatusBadRequest {
		t.Errorf("sign-in of a person of another workspace: %d, want 400", status)
	}
}

// postForm posts oauth.v2.access as a form, with the app's credentials by
// HTTP basic auth when basic is set: Slack's answer.
func postForm(t *testing.T, s *Server, form url.Values, basic bool) map[string]any {
	t.Helper()
	return formCall(t, s, "oauth.v2.access", form, func(req *http.Request) {
		if basic {
			req.SetBasicAuth(testClientID, testClientSecret)
		}
	})
}

// formCall posts form to the Web API's method, with what auth sets on the
// request: Slack's answer, decoded.
func formCall(t *testing.T, s *Server, method string, form url.Values, auth func(*http.Request)) map[string]any {
	t.Helper()
	req, err := http.NewRequestWithContext(testContext(t), http.MethodPost, s.APIURL+method, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	auth(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestOAuthAccessExchange(t *testing.T) {
	t.Parallel()
	clock := NewManualClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	s := acmeServer(t, WithClock(clock.Now))
	ctx := testContext(t)
	exchange := func(id, secret, code, redirect string) (*slack.OAuthV2Response, error) {
		return slack.GetOAuthV2ResponseContext(ctx, http.DefaultClient, id, secret, code, redirect, slack.OAuthOptionAPIURL(s.APIURL))
	}
	used := approve(t, s, "T0ACME", "U0ANNA")
	if _, err := exchange(testClientID, testClientSecret, used, testRedirect); err != nil {
		t.Fatal(err)
	}
	expired := approve(t, s, "T0ACME", "U0ANNA")
	clock.Advance(codeTTL)
	tests := []struct {
		name, id, secret, code, redirect, wantErr string
	}{
		{"unknown client", "9.9", testClientSecret, approve(t, s, "T0ACME", "U0ANNA"), testRedirect, "invalid_client_id"},
		{"wrong secret", testClientID, "nope", approve(t, s, "T0ACME", "U0ANNA"), testRedirect, "bad_client_secret"},
		{"unknown code", testClientID, testClientSecret, "123.abc", testRedirect, "invalid_code"},
		{"used code", testClientID, testClientSecret, used, testRedirect, "invalid_code"},
		{"expired code", testClientID, testClientSecret, expired, testRedirect, "invalid_code"},
		{"other redirect_uri", testClientID, testClientSecret, approve(t, s, "T0ACME", "U0ANNA"), "https://app.example/other", "bad_redirect_uri"},
		{"primary workspace", testClientID, testClientSecret, approve(t, s, "", "U0ALICE"), testRedirect, ""},
	}
	for _, tt := range tests {
		_, err := exchange(tt.id, tt.secret, tt.code, tt.redirect)
		if got := slackErr(err); got != tt.wantErr {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.wantErr)
		}
	}

	resp, err := exchange(testClientID, testClientSecret, approve(t, s, "T0ACME", "U0ANNA"), testRedirect)
	if err != nil {
		t.Fatal(err)
	}
	want := slack.OAuthV2Response{TokenType: "bot", Scope: "chat:write,commands,users:read", BotUserID: "U0BOTACME", AppID: "A0DOCSBOT",
		Team: slack.OAuthV2ResponseTeam{ID: "T0ACME", Name: "Acme"}, AuthedUser: slack.OAuthV2ResponseAuthedUser{ID: "U0ANNA"}}
	if !strings.HasPrefix(resp.AccessToken, "xoxb-") || resp.TokenType != want.TokenType || resp.Scope != want.Scope ||
		resp.BotUserID != want.BotUserID || resp.AppID != want.AppID || resp.Team != want.Team ||
		resp.AuthedUser.ID != want.AuthedUser.ID || resp.Enterprise.ID != "" || resp.IsEnterpriseInstall ||
		resp.RefreshToken != "" || resp.ExpiresIn != 0 {
		t.Errorf("oauth.v2.access = %+v, want %+v", resp, want)
	}
	if !s.Installed("T0ACME") {
		t.Error("T0ACME not installed after the exchange")
	}
	for _, c := range s.Calls("oauth.v2.access") {
		if _, ok := c.Params["client_secret"]; ok || c.Params["code"] != "" {
			t.Errorf("a recorded call keeps credentials: %v", c.Params)
		}
	}

	forms := []struct {
		name    string
		form    url.Values
		basic   bool
		wantErr string
	}{
		{"basic auth", url.Values{"code": {approve(t, s, "T0ACME", "U0ANNA")}, "redirect_uri": {testRedirect}}, true, ""},
		{"unknown grant_type", url.Values{"grant_type": {"password"}}, true, "invalid_grant_type"},
		{"refresh without rotation", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"xoxe-1-nope"}}, true, "invalid_refresh_token"},
		{"no credentials", url.Values{"code": {"1.x"}}, false, "invalid_client_id"},
	}
	for _, tt := range forms {
		out := postForm(t, s, tt.form, tt.basic)
		if got, _ := out["error"].(string); got != tt.wantErr || out["ok"] != (tt.wantErr == "") {
			t.Errorf("%s: %v, want error %q", tt.name, out, tt.wantErr)
		}
	}
}
