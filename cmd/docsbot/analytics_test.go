package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/cmd/internal/cli"
)

// TestAnalyticsSettings reads the analytics limits: the defaults, the new
// settings, the deprecated DOCSBOT_VISITORS_BUDGET read while the new one
// is not set (and losing to it), each deprecation said.
func TestAnalyticsSettings(t *testing.T) {
	t.Parallel()
	base := map[string]string{envSlackBotToken: testBotToken, envSlackAppToken: testAppToken, envAPIKey: testAPIKey, envProject: "proj"}
	tests := []struct {
		name   string
		env    map[string]string
		dotenv string
		want   bot.AnalyticsLimits
		// deprecated are the words of the deprecation notes, "" for none.
		deprecated string
	}{
		{"defaults", nil, "", bot.AnalyticsLimits{Budget: 100, PerUser: 20, PerGuest: 5, DigestReserve: 10}, ""},
		{"the new settings", map[string]string{envAnalyticsBudget: "80", envAnalyticsUser: "30", envAnalyticsGuest: "3", envDigestReserve: "0"}, "",
			bot.AnalyticsLimits{Budget: 80, PerUser: 30, PerGuest: 3}, ""},
		{"the deprecated budget alone", map[string]string{envVisitorsBudget: "60"}, "", bot.AnalyticsLimits{Budget: 60, PerUser: 20, PerGuest: 5, DigestReserve: 10},
			"DOCSBOT_VISITORS_BUDGET (environment variable DOCSBOT_VISITORS_BUDGET) is deprecated: it is still read, but set DOCSBOT_ANALYTICS_BUDGET instead"},
		{"the deprecated budget in .env", nil, "DOCSBOT_VISITORS_BUDGET=70\n", bot.AnalyticsLimits{Budget: 70, PerUser: 20, PerGuest: 5, DigestReserve: 10},
			"DOCSBOT_VISITORS_BUDGET (DOCSBOT_VISITORS_BUDGET in "},
		{"both: the new wins", map[string]string{envVisitorsBudget: "60", envAnalyticsBudget: "90"}, "", bot.AnalyticsLimits{Budget: 90, PerUser: 20, PerGuest: 5, DigestReserve: 10},
			"is deprecated and not read: DOCSBOT_ANALYTICS_BUDGET is set too and wins; remove DOCSBOT_VISITORS_BUDGET"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{}
			for k, v := range base {
				env[k] = v
			}
			for k, v := range tt.env {
				env[k] = v
			}
			r, _, _ := testRunner(t, env, tt.dotenv)
			cfg, err := r.loadServeConfig(flagValues{})
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Bot.Analytics != tt.want {
				t.Errorf("analytics limits %+v, want %+v", cfg.Bot.Analytics, tt.want)
			}
			got := strings.Join(cfg.Deprecated, "\n")
			if (tt.deprecated == "") != (got == "") || !strings.Contains(got, tt.deprecated) {
				t.Errorf("deprecation notes %q, want %q", got, tt.deprecated)
			}
		})
	}
}

// TestAnalyticsSettingsProblems: a bad value is named by the variable it
// came from, and a reserve that leaves people nothing is refused.
func TestAnalyticsSettingsProblems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"bad deprecated budget", map[string]string{envVisitorsBudget: "lots"}, `DOCSBOT_VISITORS_BUDGET "lots" must be a whole number`},
		{"bad budget", map[string]string{envAnalyticsBudget: "0"}, `DOCSBOT_ANALYTICS_BUDGET "0" must be a whole number of requests per hour, 1 or more`},
		{"bad share", map[string]string{envAnalyticsUser: "-1"}, `DOCSBOT_ANALYTICS_PER_USER "-1" must be a whole number`},
		{"reserve of the whole budget", map[string]string{envAnalyticsBudget: "10", envDigestReserve: "10"},
			"DOCSBOT_ANALYTICS_DIGEST_RESERVE (10) leaves people none of the 10 analytics requests an hour of DOCSBOT_ANALYTICS_BUDGET"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{envSlackBotToken: testBotToken, envSlackAppToken: testAppToken, envAPIKey: testAPIKey, envProject: "proj"}
			for k, v := range tt.env {
				env[k] = v
			}
			r, _, _ := testRunner(t, env, "")
			_, err := r.loadServeConfig(flagValues{})
			var buf strings.Builder
			if code := cli.Report(&buf, err); code != cli.ExitUsage || !strings.Contains(buf.String(), tt.want) {
				t.Errorf("exit %d, message %q; want a usage error with %q", code, buf.String(), tt.want)
			}
		})
	}
}

// TestDoctorNotesTheDeprecatedBudget: doctor passes with a warning on the
// configuration that names the setting to use instead.
func TestDoctorNotesTheDeprecatedBudget(t *testing.T) {
	t.Parallel()
	db := sharedRedis.TakeDB(t)
	s := newDoctorSetup(t, db.URL)
	s.env[envVisitorsBudget] = "80"
	r, stdout, stderr := testRunner(t, s.env, "")
	if code := runCode(r, []string{"doctor"}); code != cli.ExitOK {
		t.Fatalf("exit code %d\n%s%s", code, stdout, stderr)
	}
	out := stdout.String()
	c := doctorChecks(t, out)["configuration"]
	if c.mark != "!" || !strings.Contains(c.text, "DOCSBOT_VISITORS_BUDGET (environment variable DOCSBOT_VISITORS_BUDGET) is deprecated: it is still read, but set DOCSBOT_ANALYTICS_BUDGET instead") ||
		!strings.Contains(c.text, "fix: rename the deprecated settings") {
		t.Errorf("configuration: %q %s, want a warning naming DOCSBOT_ANALYTICS_BUDGET", c.mark, c.text)
	}
	if !strings.HasSuffix(out, fmt.Sprintf("All %d checks passed, 1 warning.\n", len(doctorNames()))) {
		t.Errorf("doctor's summary:\n%s", out)
	}
}
