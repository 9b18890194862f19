package slackcheck_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/slackcheck"
	"github.com/docsbot/docsbot/bot/slacktest"
)

func TestClientCredentials(t *testing.T) {
	t.Parallel()
	sl := slacktest.NewServer(slacktest.WithOAuth("111.222", "right-secret"))
	t.Cleanup(sl.Close)
	tests := []struct {
		name, id, secret string
		ok               bool
		want             string
	}{
		{"the app's", "111.222", "right-secret", true, "are the app's"},
		{"a wrong secret", "111.222", "wrong-secret", false, "bad_client_secret"},
		{"another app's id", "999.888", "right-secret", false, "invalid_client_id"},
	}
	for _, tt := range tests {
		c := slackcheck.ClientCredentials(t.Context(), sl.APIURL, tt.id, tt.secret)
		if c.OK != tt.ok || !strings.Contains(c.Line, tt.want) {
			t.Errorf("%s: %+v, want ok %t and %q", tt.name, c, tt.ok, tt.want)
		}
		if strings.Contains(c.Line+c.Fix, tt.secret) {
			t.Errorf("%s: the check shows the secret: %+v", tt.name, c)
		}
	}
	if n := len(sl.Calls("oauth.v2.access")); n != len(tests) {
		t.Errorf("%d exchanges, want one a check", n)
	}
}

func TestInstallPage(t *testing.T) {
	t.Parallel()
	var public string
	redirectTo := func(redirect string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://slack.com/oauth/v2/authorize?"+url.Values{"redirect_uri": {redirect}}.Encode(), http.StatusFound)
		})
	}
	good := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		redirectTo(public+"/slack/oauth_redirect").ServeHTTP(w, r)
	}))
	t.Cleanup(good.Close)
	public = good.URL
	elsewhere := httptest.NewServer(redirectTo("https://old.example.com/slack/oauth_redirect"))
	t.Cleanup(elsewhere.Close)
	notDocsbot := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(notDocsbot.Close)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	tests := []struct {
		name, url string
		ok        bool
		want      string
	}{
		{"docsbot behind the public URL", good.URL, true, "must be exactly this"},
		{"a redirect to another address", elsewhere.URL, false, "not " + elsewhere.URL},
		{"something else", notDocsbot.URL, false, "not Slack's consent screen"},
		{"nothing running", down.URL, false, "does not answer"},
	}
	for _, tt := range tests {
		c := slackcheck.InstallPage(t.Context(), tt.url, "/slack/install", "/slack/oauth_redirect")
		if c.OK != tt.ok || !strings.Contains(c.Line, tt.want) {
			t.Errorf("%s: %+v, want ok %t and %q", tt.name, c, tt.ok, tt.want)
		}
	}
}
