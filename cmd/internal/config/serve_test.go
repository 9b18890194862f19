package config

import (
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
)

// TestSameListener: DOCSBOT_OPS_ADDR may not take the port of
// DOCSBOT_HTTP_ADDR, whichever way the two are written.
func TestSameListener(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		same bool
	}{
		{":8080", ":8080", true},
		{":8080", "0.0.0.0:8080", true},
		{"[::]:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", ":8080", true},
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"LOCALHOST:8080", "localhost:8080", true},
		{":8080", ":9090", false},
		{"127.0.0.1:8080", "10.0.0.1:8080", false},
		{"127.0.0.1:0", "127.0.0.1:0", false},
		{":0", ":0", false},
	}
	for _, tt := range tests {
		if got := SameListener(tt.a, tt.b); got != tt.same {
			t.Errorf("SameListener(%q, %q) = %t, want %t", tt.a, tt.b, got, tt.same)
		}
		if got := SameListener(tt.b, tt.a); got != tt.same {
			t.Errorf("SameListener(%q, %q) = %t, want %t", tt.b, tt.a, got, tt.same)
		}
	}
}

// TestServeFillsTheReplicasConfig: every typed setting reaches the one
// app.Config `docsbot serve` builds its replica with (Serve.Config), as the
// table's check parsed it: the deployments' and the answers' limits, the
// core's lists and switches, the features' durations and digest time; and
// a value a check refuses is a problem named by its variable, never a
// silent zero.
func TestServeFillsTheReplicasConfig(t *testing.T) {
	t.Parallel()
	base := map[string]string{EnvSlackBotToken: "xoxb-1-2-abc", EnvSlackAppToken: "xapp-1-abc", EnvAPIKey: "mint_0000000000000000000000",
		EnvProject: "proj_1"}
	serve := func(extra map[string]string) (Serve, error) {
		vars := maps.Clone(base)
		maps.Copy(vars, extra)
		e := Env{LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, Dir: t.TempDir(), Stderr: io.Discard}
		return e.Serve(nil)
	}
	c, err := serve(map[string]string{
		EnvDeployPerUser: "3", EnvAskPerUser: "4", EnvAskBudget: "50", EnvAllowGuests: "TRUE", EnvAllowExternal: "true",
		EnvEditors: "U0ALICE, S0DOCS", EnvAllowedUsers: "U0ALICE,U0BOB", EnvAllowedChannels: "C0GENERAL", EnvAuditText: "true",
		EnvAuditRetention: "48h", EnvVisitorsTTL: "2m", EnvPollInterval: "3s", EnvPollMaxInterval: "30s",
		EnvDigestTime: "Mon 09:30 UTC", EnvSlackMode: "SOCKET", EnvLogLevel: "warn", EnvLogFormat: "JSON",
		EnvAnalyticsUser: "7", EnvAskPerGuest: "2", EnvExpertCallsUser: "5", EnvExpertCallsChan: "6",
		EnvSlackAPIURL: "http://127.0.0.1:7777/api/",
	})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"deployments a person", c.Deploy.PerUser, 3},
		{"questions a person", c.Ask.PerUser, 4},
		{"questions the workspace", c.Ask.Budget, 50},
		{"questions a guest", c.Ask.PerGuest, 2},
		{"expert calls a person", c.Help.ExpertCallsPerUser, 5},
		{"expert calls a channel", c.Help.ExpertCallsPerChannel, 6},
		{"a fake Slack's response URLs", c.Bot.SlackHost, "127.0.0.1:7777"},
		{"guests", c.Bot.AllowGuests, true},
		{"other organisations", c.Bot.AllowExternal, true},
		{"editors", fmt.Sprint(c.Bot.Editors.Users, c.Bot.Editors.Groups), "[U0ALICE] [S0DOCS]"},
		{"allowed users", fmt.Sprint(c.Bot.AllowedUsers), "[U0ALICE U0BOB]"},
		{"allowed channels", fmt.Sprint(c.Bot.AllowedChannels), "[C0GENERAL]"},
		{"audit text", c.Audit.KeepText, true},
		{"audit retention", c.Audit.Retention, 48 * time.Hour},
		{"visitors cache", c.Visitors.CacheTTL, 2 * time.Minute},
		{"first poll", c.Agent.PollInterval, 3 * time.Second},
		{"poll cap", c.Agent.PollMaxInterval, 30 * time.Second},
		{"visitors digest", fmt.Sprint(c.Visitors.Digest.Weekday, c.Visitors.Digest.Hour, c.Visitors.Digest.Minute), "Monday 9 30"},
		{"health digest, the same", c.Health.Digest, c.Visitors.Digest},
		{"mode, in its case", c.Bot.Mode, bot.ModeSocket},
		{"log level", c.LogLevel, slog.LevelWarn},
		{"log format, in its case", c.LogFormat, "json"},
		{"analytics share", c.Bot.Analytics.PerUser, 7},
		{"analytics budget, the default", c.Bot.Analytics.Budget, bot.DefaultAnalyticsBudget},
		{"projects", c.Bot.Projects != nil && c.Bot.Projects == c.Projects, true},
	}
	for _, tc := range checks {
		if tc.got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	for env, bad := range map[string]string{EnvDeployPerUser: "0", EnvAskPerUser: "many", EnvAllowGuests: "yes",
		EnvAuditRetention: "forever", EnvDigestTime: "someday", EnvEditors: "alice", EnvLogLevel: "loud"} {
		c, err := serve(map[string]string{env: bad})
		if err == nil || !slices.ContainsFunc(c.Problems, func(p Problem) bool { return slices.Contains(p.Vars, env) }) {
			t.Errorf("%s=%s: %v, problems %+v; want a problem of %s", env, bad, err, c.Problems, env)
		}
	}
}

// TestOpsApartInHTTPMode: in http mode, where Slack's listener faces the
// internet, /metrics and /readyz are on a listener of their own (:9090)
// unless DOCSBOT_OPS_ADDR says where; socket mode keeps them on
// DOCSBOT_HTTP_ADDR.
func TestOpsApartInHTTPMode(t *testing.T) {
	t.Parallel()
	base := map[string]string{EnvSlackBotToken: "xoxb-1-2-abc", EnvSlackAppToken: "xapp-1-abc", EnvAPIKey: "mint_0000000000000000000000",
		EnvProject: "proj_1", EnvSigningSecret: "0123456789abcdef0123456789abcdef"}
	for _, tc := range []struct {
		name string
		vars map[string]string
		want string
	}{
		{"socket mode", map[string]string{}, ""},
		{"http mode", map[string]string{EnvSlackMode: "http"}, HTTPModeOpsAddr},
		{"http mode, set", map[string]string{EnvSlackMode: "http", EnvOpsAddr: "127.0.0.1:9191"}, "127.0.0.1:9191"},
		{"http mode, set empty: beside Slack's", map[string]string{EnvSlackMode: "http", EnvOpsAddr: ""}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vars := maps.Clone(base)
			maps.Copy(vars, tc.vars)
			e := Env{LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, Dir: t.TempDir(), Stderr: io.Discard}
			c, err := e.Serve(nil)
			if err != nil || c.OpsAddr != tc.want || len(c.Problems) != 0 {
				t.Errorf("OpsAddr = %q, problems %v (%v); want %q", c.OpsAddr, c.Problems, err, tc.want)
			}
		})
	}
}
