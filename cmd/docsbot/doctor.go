package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/home"
	"github.com/docsbot/docsbot/bot/redact"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/cmd/internal/checkup"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

const doctorUsage = `docsbot doctor [flags]

Checks the settings of the Slack bot and, with real calls, every service it
depends on, then prints one line per check and the fix for each failure:

  configuration     every setting of 'docsbot serve' is present and well formed
  Slack bot token   auth.test with SLACK_BOT_TOKEN, and that the token has
                    every scope docsbot uses (the manifest's); a missing
                    one is named, with the fix: reinstall the app
  Slack app token   apps.connections.open with SLACK_APP_TOKEN (Socket Mode);
                    no connection is opened
  Signing secret    instead, in http mode (DOCSBOT_SLACK_MODE=http): that
                    SLACK_SIGNING_SECRET looks like one; Slack's requests on
                    DOCSBOT_HTTP_ADDR are checked with it
  docs API          DOCS_API_KEY and DOCS_PROJECT_ID read one row of today's
                    unique visitors. This costs one request of the analytics
                    budget (100 an hour for the whole organization).
  Redis             PING, then SET, GET and DEL of one key under docsbot:
                    that expires by itself; and, when Redis allows CONFIG GET,
                    that a memory limit never evicts docsbot's keys

Settings are read as by 'docsbot serve': flags, then the environment, then
./.env. Secrets are shown masked (xoxb-…abcd). The exit code is 0 when every
check passed and 1 otherwise.
`

// doctorTimeout is the default time limit of each check.
const doctorTimeout = 10 * time.Second

// runDoctor checks the configuration and every dependency of the bot.
func (r *runner) runDoctor(ctx context.Context, args []string) error {
	fs := r.flagSet("doctor", doctorUsage)
	flags := settingsTable().Flags(fs, false)
	timeout := fs.Duration("timeout", doctorTimeout, "time limit of each check")
	pos, err := r.parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError(fmt.Sprintf("doctor takes no arguments, got %q", pos[0]), "run 'docsbot doctor' alone; 'docsbot help doctor' lists its flags")
	}
	if *timeout <= 0 {
		return usageError("--timeout must be positive", "for example --timeout 10s")
	}

	fmt.Fprintln(r.stdout, "docsbot doctor")
	cfg, cfgErr := r.loadServeConfig(flags())
	results := append([]checkup.Result{r.configCheck(cfg, cfgErr)}, checkup.Run(ctx, r.dependencies(cfg, cfgErr), *timeout)...)
	checkup.Print(r.stdout, results)
	if ctx.Err() != nil {
		return &exitError{code: exitInterrupted, msg: "interrupted", err: ctx.Err()}
	}
	if !checkup.AllPassed(results) {
		return &exitError{code: exitFailure, quiet: true, msg: "docsbot doctor found problems"}
	}
	return nil
}

// configCheck turns the outcome of loadServeConfig into the first check.
func (r *runner) configCheck(cfg serveConfig, err error) checkup.Result {
	const name = "configuration"
	if err == nil {
		where := ".env: " + r.dotenvPath()
		if _, statErr := os.Stat(r.dotenvPath()); errors.Is(statErr, fs.ErrNotExist) {
			where = "environment only, no " + r.dotenvPath()
		}
		return checkup.Of(name, true, "all settings present ("+where+")", "")
	}
	res := checkup.Result{Name: name, State: checkup.Failed}
	var ee *exitError
	if errors.As(err, &ee) {
		res.Fix = ee.fix
	}
	var lines []string
	for _, p := range cfg.problems {
		lines = append(lines, p.text)
	}
	if len(lines) == 0 { // the settings could not be read at all
		if ee != nil {
			lines = []string{ee.msg}
		} else {
			lines = []string{err.Error()}
		}
	}
	for _, l := range lines {
		res.Lines = append(res.Lines, strings.Split(strings.TrimRight(l, "\n"), "\n")...)
	}
	return res
}

// blockedBy says why a check that needs the variables needs cannot run, or ""
// when it can.
func blockedBy(cfg serveConfig, cfgErr error, needs ...string) string {
	if cfgErr != nil && len(cfg.problems) == 0 {
		return "the settings could not be read"
	}
	var bad []string
	for _, name := range needs {
		if slices.ContainsFunc(cfg.problems, func(p problem) bool { return slices.Contains(p.vars, name) }) {
			bad = append(bad, name)
		}
	}
	if len(bad) > 0 {
		return "fix " + strings.Join(bad, " and ") + " first"
	}
	return ""
}

// dependencies lists the service checks in the order they are printed; one
// whose settings are wrong is blocked.
func (r *runner) dependencies(cfg serveConfig, cfgErr error) []checkup.Check {
	return []checkup.Check{
		{Name: "Slack bot token", Blocked: blockedBy(cfg, cfgErr, envSlackBotToken, envSlackAPIURL), Run: func(ctx context.Context) checkup.Result {
			c := bot.CheckBotToken(ctx, cfg.botToken, cfg.slackAPIURL, slackScopes(), cfg.appToken)
			return checkup.Of("Slack bot token", c.OK, c.Line, c.Fix)
		}},
		slackModeCheck(cfg, cfgErr),
		{Name: "docs API", Blocked: blockedBy(cfg, cfgErr, envAPIKey, envProject, envAPIURL), Run: func(ctx context.Context) checkup.Result {
			return r.checkDocsAPI(ctx, cfg)
		}},
		{Name: "Redis", Blocked: blockedBy(cfg, cfgErr, envRedisURL), Run: func(ctx context.Context) checkup.Result {
			rep, err := store.Check(ctx, cfg.redisURL, cfg.redisPrefix)
			v := store.Judge(cfg.redisURL, rep, err)
			return checkup.Of("Redis", v.OK, v.Line, v.Fix)
		}},
	}
}

// slackModeCheck is the check of what the Slack mode needs: the app-level
// token in socket mode, the signing secret in http mode.
func slackModeCheck(cfg serveConfig, cfgErr error) checkup.Check {
	if cfg.bot.Mode == bot.ModeHTTP {
		return checkup.Check{Name: "Signing secret", Blocked: blockedBy(cfg, cfgErr, envSigningSecret, envSlackMode, envHTTPAddr), Run: func(context.Context) checkup.Result {
			c := bot.CheckSigningSecret(cfg.bot.SigningSecret, cfg.httpAddr)
			return checkup.Of("Signing secret", c.OK, c.Line, c.Fix)
		}}
	}
	return checkup.Check{Name: "Slack app token", Blocked: blockedBy(cfg, cfgErr, envSlackAppToken, envSlackAPIURL, envSlackMode), Run: func(ctx context.Context) checkup.Result {
		c := bot.CheckAppToken(ctx, cfg.appToken, cfg.slackAPIURL, cfg.botToken)
		return checkup.Of("Slack app token", c.OK, c.Line, c.Fix)
	}}
}

// slackScopes are the bot scopes docsbot uses: the core's and every
// feature's, events included. deploy/slack-app-manifest.yaml declares the
// same (bot/manifest_test.go).
func slackScopes() []string {
	scopes := slices.Concat(bot.Scopes(), agent.Scopes(), visitors.Scopes(), home.Scopes())
	for _, ev := range agent.MessageEvents() {
		scopes = append(scopes, ev.Scope)
	}
	slices.Sort(scopes)
	return slices.Compact(scopes)
}

// checkDocsAPI tries the key and the project with one request (Client.Check).
func (r *runner) checkDocsAPI(ctx context.Context, cfg serveConfig) checkup.Result {
	client, err := newAPIClient(cfg.api)
	if err == nil {
		err = client.Check(ctx, r.now())
	}
	if ee, ok := errors.AsType[*exitError](explain(err, call{op: docsapi.OpVisitors, cfg: cfg.api, now: r.now()})); ok {
		if errors.Is(err, docsapi.ErrInvalidRequest) {
			ee.fix = "check " + envAPIURL + " (" + cfg.api.APIURL + "): the service did not accept a plain visitors query"
		}
		return checkup.Of("docs API", false, ee.msg, ee.fix)
	}
	return checkup.Of("docs API", true, fmt.Sprintf("%s can read project %s at %s", redact.MaskOr(cfg.api.APIKey), cfg.api.ProjectID, cfg.api.APIURL), "")
}
