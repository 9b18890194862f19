package slackcheck_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/slackcheck"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// scopes are names as declared scopes, saying what for only of the one
// named whyOf: why.
func scopes(names []string, whyOf ...string) []declare.Scope {
	out := make([]declare.Scope, len(names))
	for i, n := range names {
		out[i] = declare.Scope{Name: n}
		if len(whyOf) == 2 && n == whyOf[0] {
			out[i].Why = whyOf[1]
		}
	}
	return out
}

func TestCheckTokens(t *testing.T) {
	t.Parallel()
	const (
		botToken = "xoxb-1234567890-0987654321-checkBotTokenAbcd"
		appToken = "xapp-1-A0CHECK-1234567890-checkAppTokenWxyz"
		wrongBot = "xoxb-1234567890-0987654321-revokedBotTokenQrst"
		wrongApp = "xapp-1-A0CHECK-1234567890-revokedAppTokenMnop"
	)
	sl := slacktest.NewServer(slacktest.WithBotToken(botToken), slacktest.WithAppToken(appToken),
		slacktest.WithTeam("T0CHECK", "check-team"), slacktest.WithBot("U0CHECK", "B0CHECK"), slacktest.WithAppID("A0CHECK"))
	t.Cleanup(sl.Close)
	// A token installed before the manifest asked for im:write and reactions:write.
	lacking := slices.DeleteFunc(slacktest.DefaultScopes(), func(s string) bool { return s == "im:write" || s == "reactions:write" })
	old := slacktest.NewServer(slacktest.WithBotToken(botToken), slacktest.WithScopes(lacking...))
	t.Cleanup(old.Close)
	// A token with two scopes more than docsbot uses.
	wide := slacktest.NewServer(slacktest.WithBotToken(botToken), slacktest.WithScopes(append(slacktest.DefaultScopes(), "channels:manage", "admin")...))
	t.Cleanup(wide.Close)
	tests := []struct {
		name   string
		check  func() slackcheck.Check
		ok     bool
		want   []string
		secret string
	}{
		{"bot token works", func() slackcheck.Check {
			return slackcheck.BotToken(t.Context(), botToken, sl.APIURL, scopes(slacktest.DefaultScopes()))
		}, true,
			[]string{bot.SecretKinds().Mask(botToken) + " works: bot @", "(U0CHECK) in team check-team (T0CHECK) at " + sl.APIURL, fmt.Sprintf("with the %d scopes docsbot uses", len(slacktest.DefaultScopes()))}, botToken},
		{"bot token lacks scopes", func() slackcheck.Check {
			return slackcheck.BotToken(t.Context(), botToken, old.APIURL, scopes(slacktest.DefaultScopes(), "im:write", "direct messages"))
		}, false,
			[]string{bot.SecretKinds().Mask(botToken) + " works: bot @", "but it lacks scopes docsbot uses: im:write, reactions:write (im:write: direct messages)", slackcheck.FixScopes}, botToken},
		{"bot token with more scopes than needed", func() slackcheck.Check {
			return slackcheck.BotToken(t.Context(), botToken, wide.APIURL, scopes(slacktest.DefaultScopes()))
		}, true,
			[]string{fmt.Sprintf("with the %d scopes docsbot uses", len(slacktest.DefaultScopes())), "it also has scopes docsbot does not use (admin, channels:manage)"}, botToken},
		{"app token works", func() slackcheck.Check { return slackcheck.AppToken(t.Context(), appToken, sl.APIURL) }, true,
			[]string{bot.SecretKinds().Mask(appToken) + " works: Socket Mode is on for app A0CHECK"}, appToken},
		{"bot token refused", func() slackcheck.Check { return slackcheck.BotToken(t.Context(), wrongBot, sl.APIURL, nil) }, false,
			[]string{bot.SecretKinds().Mask(wrongBot) + " refused (invalid_auth)", slackcheck.FixBotToken}, wrongBot},
		{"app token refused", func() slackcheck.Check { return slackcheck.AppToken(t.Context(), wrongApp, sl.APIURL) }, false,
			[]string{bot.SecretKinds().Mask(wrongApp) + " refused (invalid_auth)", slackcheck.FixAppToken}, wrongApp},
		{"Slack unreachable", func() slackcheck.Check {
			return slackcheck.BotToken(t.Context(), botToken, "http://127.0.0.1:1/api/", nil)
		}, false,
			[]string{"could not be checked: cannot reach Slack", "check SLACK_API_URL (http://127.0.0.1:1/api/)"}, botToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.check()
			if c.OK != tt.ok {
				t.Errorf("OK = %v, want %v: %+v", c.OK, tt.ok, c)
			}
			text := c.Line + "\n" + c.Fix
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("check does not say %q:\n%s", w, text)
				}
			}
			if strings.Contains(text, tt.secret) {
				t.Errorf("check shows the token:\n%s", text)
			}
		})
	}
}
