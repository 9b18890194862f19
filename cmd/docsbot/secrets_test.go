package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/cmd/internal/cli"
)

// TestSecretInWrongSetting pastes a token, a key or a password into a setting
// that is not secret, and checks that neither the binary (a CLI command, serve
// and doctor) nor cli.Report() prints it back, while the problem still names the
// setting.
func TestSecretInWrongSetting(t *testing.T) {
	t.Parallel()
	const (
		botToken    = "xoxb-1111111111-2222222222-wrongSettingBotTokenAbcd"
		appToken    = "xapp-1-A0WRONG-3333333333-wrongSettingAppTokenEfgh"
		otherKey    = "mint_wrongSettingOtherApiKey0123456789"
		plainKey    = "plainWrongSettingApiKey0123456789abcdef"
		redisPass   = "wrongSettingRedisPassword0123456789"
		urlPassword = "wrongSettingURLPassword0123456789"
		asstKey     = "mint_dsc_wrongSettingAssistantKey0123456789"
	)
	srv := newServer(t)
	tests := []struct {
		name   string
		env    map[string]string
		secret string
		// want is what the configuration problem says, in serve's report.
		want string
	}{
		{"API key in DOCS_API_URL", map[string]string{envAPIURL: otherKey}, otherKey, "DOCS_API_URL mint_…6789 (from environment variable DOCS_API_URL) is not an http(s) URL"},
		{"bot token in DOCS_API_URL", map[string]string{envAPIURL: botToken}, botToken, "DOCS_API_URL xoxb-…Abcd"},
		{"the key itself in DOCS_API_URL", map[string]string{envAPIKey: plainKey, envAPIURL: plainKey}, plainKey, "DOCS_API_URL …cdef"},
		{"credentials in DOCS_API_URL", map[string]string{envAPIURL: "https://admin:" + urlPassword + "@api.example"}, urlPassword,
			"DOCS_API_URL (from environment variable DOCS_API_URL) must not contain credentials"},
		{"API key in DOCS_PROJECT_ID", map[string]string{envProject: otherKey}, otherKey, "DOCS_PROJECT_ID holds a secret, not a project ID"},
		{"API key in DOCSBOT_PROJECTS_FILE", map[string]string{envProjectsFile: otherKey}, otherKey, "DOCSBOT_PROJECTS_FILE holds a secret, not the path of a projects file"},
		{"the key itself in DOCSBOT_PROJECTS_FILE", map[string]string{envAPIKey: plainKey, envProjectsFile: plainKey}, plainKey, "DOCSBOT_PROJECTS_FILE holds a secret"},
		{"bot token in SLACK_API_URL", map[string]string{envSlackAPIURL: botToken}, botToken, "SLACK_API_URL xoxb-…Abcd is not an http(s) URL"},
		{"credentials in SLACK_API_URL", map[string]string{envSlackAPIURL: "https://bot:" + urlPassword + "@slack.example/api/"}, urlPassword,
			"SLACK_API_URL must not contain credentials"},
		{"bot token in DOCSBOT_ALLOWED_USERS", map[string]string{envAllowedUsers: "U0ALICE," + botToken}, botToken, "DOCSBOT_ALLOWED_USERS: xoxb-…Abcd is not a Slack id"},
		{"app token in DOCSBOT_ALLOWED_CHANNELS", map[string]string{envAllowedChannels: appToken}, appToken, "DOCSBOT_ALLOWED_CHANNELS: xapp-…Efgh is not a Slack id"},
		{"API key in DOCSBOT_HTTP_ADDR", map[string]string{envHTTPAddr: otherKey}, otherKey, "DOCSBOT_HTTP_ADDR mint_…6789 is not a listen address"},
		{"bot token in DOCSBOT_LOG_FORMAT", map[string]string{envLogFormat: botToken}, botToken, "DOCSBOT_LOG_FORMAT xoxb-…Abcd must be text or json"},
		{"Redis password in DOCSBOT_LOG_LEVEL", map[string]string{envRedisURL: "redis://:" + redisPass + "@127.0.0.1:1/0", envLogLevel: redisPass}, redisPass,
			"DOCSBOT_LOG_LEVEL …6789 must be debug"},
		{"app token in DOCSBOT_POLL_INTERVAL", map[string]string{envPollInterval: appToken}, appToken, "DOCSBOT_POLL_INTERVAL xapp-…Efgh is not a positive duration"},
		{"bot token in DOCSBOT_POLL_MAX_INTERVAL", map[string]string{envPollMaxInterval: botToken}, botToken, "DOCSBOT_POLL_MAX_INTERVAL xoxb-…Abcd"},
		{"the key itself in DOCSBOT_VISITORS_CACHE_TTL", map[string]string{envAPIKey: plainKey, envVisitorsTTL: plainKey}, plainKey, "DOCSBOT_VISITORS_CACHE_TTL …cdef"},
		{"admin key in DOCS_ASSISTANT_KEY", map[string]string{envAssistantKey: otherKey, envDomain: "acme"}, otherKey, "DOCS_ASSISTANT_KEY is another kind of docs key"},
		{"assistant key in DOCS_DOMAIN", map[string]string{envAssistantKey: asstKey, envDomain: asstKey}, asstKey, "DOCS_DOMAIN mint_…6789 is not a docs domain"},
		{"assistant key in DOCS_SITE_URL", map[string]string{envSiteURL: asstKey}, asstKey, "DOCS_SITE_URL mint_…6789 is not an http(s) URL"},
		{"assistant key in DOCS_PROJECT_ID", map[string]string{envProject: asstKey}, asstKey, "DOCS_PROJECT_ID holds a secret, not a project ID"},
		{"credentials in DOCS_DISCOVERY_URL", map[string]string{envDiscoveryURL: "https://u:" + urlPassword + "@api.example/discovery"}, urlPassword,
			"DOCS_DISCOVERY_URL must not contain credentials"},
		{"bot token in DOCSBOT_REQUESTS_CHANNEL", map[string]string{envRequestsChannel: botToken}, botToken, "DOCSBOT_REQUESTS_CHANNEL xoxb-…Abcd is not a channel id"},
		{"assistant key in DOCSBOT_ASK_PER_USER", map[string]string{envAssistantKey: asstKey, envDomain: "acme", envAskPerUser: asstKey}, asstKey, "DOCSBOT_ASK_PER_USER mint_…6789 must be a whole number"},
		{"API key in DOCSBOT_VISITORS_BUDGET", map[string]string{envVisitorsBudget: otherKey}, otherKey, "DOCSBOT_VISITORS_BUDGET mint_…6789 must be a whole number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Everything else is set and points at this machine only: a
			// closed port for Slack, a missing socket for Redis, the test
			// server for the docs API and its discovery API.
			env := map[string]string{
				envAPIURL: srv.URL, envAPIKey: srv.Key, envProject: srv.ProjectID, envDiscoveryURL: srv.DiscoveryURL,
				envSlackBotToken: "xoxb-1-2-validBotToken0123456789", envSlackAppToken: "xapp-1-A0-3-validAppToken0123456789",
				envSlackAPIURL: "http://127.0.0.1:1/api/", envRedisURL: "unix:///nonexistent/docsbot-test.sock", envHTTPAddr: "",
			}
			for k, v := range tt.env {
				env[k] = v
			}
			// Masked forms show at most a kind and four characters.
			leaks := func(out string) bool {
				return strings.Contains(strings.ToLower(out), strings.ToLower(tt.secret[5:len(tt.secret)-4]))
			}

			r, _, _ := testRunner(t, env, "")
			_, err := r.loadServeConfig(flagValues{})
			var rep bytes.Buffer
			if code := cli.Report(&rep, err); code != cli.ExitUsage || !strings.Contains(rep.String(), tt.want) {
				t.Errorf("report: exit %d, %q; want exit %d and %q", code, rep.String(), cli.ExitUsage, tt.want)
			}
			if leaks(rep.String()) {
				t.Errorf("report shows the secret: %s", rep.String())
			}

			var list []string
			for k, v := range env {
				list = append(list, k+"="+v)
			}
			for _, args := range [][]string{{"jobs", "get", "job_1"}, {"serve"}, {"doctor", "--timeout", "5s"}} {
				res := docsbot(t, nil, list, args...)
				if res.code == cli.ExitOK {
					t.Errorf("%s: exit 0 with a wrong setting: %s", args[0], res)
				}
				if leaks(res.stdout + res.stderr) {
					t.Errorf("%s shows the secret: %s", args[0], res)
				}
			}
		})
	}
}
