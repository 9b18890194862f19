// Package slackcheck is doctor's checks of Slack with real calls: the bot
// token and its scopes, the app-level token, the signing secret; each
// outcome worded, secrets masked, with what to do.
package slackcheck

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/humanize"
)

// What to do about a token Slack refuses, for `docsbot doctor` and `serve`.
const (
	FixBotToken = "copy the Bot User OAuth Token (xoxb-...) from the OAuth & Permissions page of the Slack app into " +
		"SLACK_BOT_TOKEN, and reinstall the app if it was revoked"
	FixAppToken = "create an app-level token with the connections:write scope on the Basic Information page of the Slack app, " +
		"put it in SLACK_APP_TOKEN, and turn Socket Mode on"
	FixSigningSecret = "copy the Signing Secret from the Basic Information page of the Slack app (App Credentials) into SLACK_SIGNING_SECRET"
)

// Check is the outcome of a check of Slack with real calls: what was found
// and, when it failed, what to do. Line never holds a secret, at most its
// masked form.
type Check struct {
	OK        bool
	Line, Fix string
}

// FixScopes is what to do when the bot token lacks scopes docsbot uses.
const FixScopes = "add the missing scopes to the Slack app (deploy/slack-app-manifest.yaml lists every scope docsbot uses: " +
	"paste it on the app's App Manifest page, or add them under OAuth & Permissions), then reinstall the app to the " +
	"workspace (OAuth & Permissions -> Reinstall) so that the bot token gets them"

// BotToken calls auth.test with the bot token at the Slack Web API
// apiURL, and checks that the token has every scope in need (Slack lists a
// token's scopes in the X-OAuth-Scopes header of its answers); a scope
// missing is named with what docsbot needs it for (declare.Scope.Why).
// secrets are scrubbed from what Slack or the network said.
func BotToken(ctx context.Context, botToken, apiURL string, scopes []declare.Scope, secrets ...string) Check {
	need := make([]string, len(scopes))
	for i, s := range scopes {
		need[i] = s.Name
	}
	masked := bot.SecretKinds().Mask(botToken)
	client := slack.New(botToken, slack.OptionAPIURL(apiURL))
	resp, err := client.AuthTestContext(ctx)
	if err != nil {
		return slackFailure(ctx, err, masked, apiURL, FixBotToken, append(secrets, botToken))
	}
	works := fmt.Sprintf("%s works: bot @%s (%s) in team %s (%s)%s",
		masked, resp.User, resp.UserID, resp.Team, resp.TeamID, viaURL(apiURL))
	if resp.Header.Values("X-OAuth-Scopes") == nil {
		return Check{OK: true, Line: works + "; its scopes were not checked: Slack did not list them"}
	}
	missing := MissingScopes(resp.Header.Get("X-OAuth-Scopes"), need)
	if len(missing) > 0 {
		return Check{Line: works + ", but it lacks scopes docsbot uses: " + strings.Join(missing, ", ") + whatFor(missing, scopes), Fix: FixScopes}
	}
	line := fmt.Sprintf("%s, with the %d scopes docsbot uses", works, len(need))
	if extra := ExtraScopes(resp.Header.Get("X-OAuth-Scopes"), need); len(extra) > 0 {
		line += "; it also has scopes docsbot does not use (" + strings.Join(extra, ", ") +
			"): remove them from the Slack app and reinstall it, so the token can do no more than docsbot needs"
	}
	return Check{OK: true, Line: line}
}

// whatFor says what docsbot needs each of the scopes missing for, as
// scopes declare it: " (name: why; ...)", "" when none says.
func whatFor(missing []string, scopes []declare.Scope) string {
	var out []string
	for _, name := range missing {
		if i := slices.IndexFunc(scopes, func(s declare.Scope) bool { return s.Name == name }); i >= 0 && scopes[i].Why != "" {
			out = append(out, name+": "+scopes[i].Why)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, "; ") + ")"
}

// ExtraScopes returns the scopes of granted (a comma-separated list, as
// X-OAuth-Scopes gives it) that need lacks, sorted, each once.
func ExtraScopes(granted string, need []string) []string {
	var extra []string
	for _, s := range strings.Split(granted, ",") {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(need, s) {
			extra = append(extra, s)
		}
	}
	slices.Sort(extra)
	return slices.Compact(extra)
}

// MissingScopes returns the scopes of need that granted (a comma-separated
// list, as X-OAuth-Scopes gives it) lacks, sorted, each once.
func MissingScopes(granted string, need []string) []string {
	have := map[string]bool{}
	for _, s := range strings.Split(granted, ",") {
		have[strings.TrimSpace(s)] = true
	}
	var missing []string
	for _, s := range need {
		if !have[s] {
			missing = append(missing, s)
		}
	}
	slices.Sort(missing)
	return slices.Compact(missing)
}

// AppToken asks apps.connections.open for a Socket Mode URL with the
// app-level token. The URL is not dialled, so no connection is opened.
func AppToken(ctx context.Context, appToken, apiURL string, secrets ...string) Check {
	masked := bot.SecretKinds().Mask(appToken)
	client := slack.New("", slack.OptionAPIURL(apiURL), slack.OptionAppLevelToken(appToken))
	_, wsURL, err := client.StartSocketModeContext(ctx)
	if err != nil {
		return slackFailure(ctx, err, masked, apiURL, FixAppToken, append(secrets, appToken))
	}
	app := ""
	if u, err := url.Parse(wsURL); err == nil && u.Query().Get("app_id") != "" {
		app = " for app " + u.Query().Get("app_id")
	}
	return Check{OK: true, Line: fmt.Sprintf("%s works: Socket Mode is on%s (connection URL issued, not opened)%s", masked, app, viaURL(apiURL))}
}

// SigningSecret checks what can be checked of HTTP mode's signing
// secret before Slack sends a request: that it looks like one (32
// hexadecimal characters), not like a token pasted in the wrong place. addr
// is where Slack's requests are served.
func SigningSecret(secret, addr string) Check {
	masked := bot.SecretKinds().Mask(secret)
	if len(secret) != 32 || strings.Trim(strings.ToLower(secret), "0123456789abcdef") != "" {
		return Check{Line: masked + " does not look like a signing secret (32 hexadecimal characters)", Fix: FixSigningSecret}
	}
	return Check{OK: true, Line: fmt.Sprintf("%s set: Slack's requests to %s, %s and %s on %s are checked with it",
		masked, bot.PathEvents, bot.PathCommands, bot.PathInteractive, addr)}
}

// viaURL names a Slack API base that is not the default one.
func viaURL(apiURL string) string {
	if apiURL == slack.APIURL {
		return ""
	}
	return " at " + apiURL
}

// slackFailure explains a failed Slack call: what happened, and what to do,
// with tokenFix for a refused token.
func slackFailure(ctx context.Context, err error, masked, apiURL, tokenFix string, secrets []string) Check {
	var line, fix string
	var (
		se slack.SlackErrorResponse
		rl *slack.RateLimitedError
		sc slack.StatusCodeError
	)
	switch {
	case errors.As(err, &se):
		line, fix = "refused ("+se.Err+")", tokenFix
		if se.Err == "missing_scope" && se.Needed != "" {
			line = "refused (missing_scope: needs " + se.Needed + ")"
		}
	case errors.As(err, &rl):
		line = fmt.Sprintf("could not be checked: Slack is rate limiting this app, try again in %s",
			humanize.RoundUp(rl.RetryAfter))
		fix = "wait, then run docsbot doctor again"
	case errors.As(err, &sc):
		line, fix = "could not be checked: Slack answered "+sc.Status, "this is on Slack's side: try again in a moment (status.slack.com)"
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		line = "could not be checked: no answer from Slack" + viaURL(apiURL) + " in time"
		fix = "check SLACK_API_URL (" + apiURL + "), proxies and that outbound HTTPS is allowed"
	default:
		line = "could not be checked: cannot reach Slack: " + err.Error()
		fix = "check SLACK_API_URL (" + apiURL + "), DNS, proxies and that outbound HTTPS is allowed"
	}
	return Check{Line: masked + " " + bot.SecretKinds().Scrub(line, secrets...), Fix: fix}
}
