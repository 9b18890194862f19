package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/install"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/settings"
	"github.com/docsbot/docsbot/bot/slackcheck"
	"github.com/docsbot/docsbot/cmd/internal/checkup"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

const doctorUsage = `docsbot doctor [flags]

Checks the settings of the Slack bot and, with real calls, every service it
depends on, then prints one line per check and the fix for each failure:

  configuration     every setting of 'docsbot serve' is present and well formed;
                    a deprecated setting is a warning that names the new one
  Slack bot token   auth.test with SLACK_BOT_TOKEN, and that the token has
                    every scope docsbot uses (the manifest's); a missing
                    one is named with what it is for (files:read: the files
                    people attach), and the fix: reinstall the app
  Slack app token   apps.connections.open with SLACK_APP_TOKEN (Socket Mode);
                    no connection is opened
  Signing secret    instead, in http mode (DOCSBOT_SLACK_MODE=http): that
                    SLACK_SIGNING_SECRET looks like one; Slack's requests on
                    DOCSBOT_HTTP_ADDR are checked with it
  docs API          DOCS_API_KEY and DOCS_PROJECT_ID read one row of today's
                    unique visitors. This costs one request of the analytics
                    budget (100 an hour for the whole organization). With
                    DOCSBOT_PROJECTS_FILE, one check per project ("project
                    NAME"), each with the key the file points to.
  Assistant         DOCS_ASSISTANT_KEY and DOCS_DOMAIN search the docs once
                    through DOCS_DISCOVERY_URL (a search costs no credits);
                    with the projects file, one check per project that has
                    an assistant ("assistant NAME"). Without any, the line
                    says that the answers from the docs (/docs-ask) are off
                    and which settings turn them on.
  Settings in Slack lists what a workspace's admins may set from docsbot's
                    Home (Settings), each over the variable named, in that
                    workspace alone; the rest stays in the environment
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
	flags := config.Table().Flags(fs, false)
	timeout := fs.Duration("timeout", doctorTimeout, "time limit of each check")
	pos, err := r.parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usage(fmt.Sprintf("doctor takes no arguments, got %q", pos[0]), "run 'docsbot doctor' alone; 'docsbot help doctor' lists its flags")
	}
	if *timeout <= 0 {
		return cli.Usage("--timeout must be positive", "for example --timeout 10s")
	}

	fmt.Fprintln(r.stdout, "docsbot doctor")
	cfg, cfgErr := r.loadServeConfig(flags())
	results := append([]checkup.Result{r.configCheck(cfg, cfgErr)}, checkup.Run(ctx, r.dependencies(cfg, cfgErr), *timeout)...)
	checkup.Print(r.stdout, results)
	if ctx.Err() != nil {
		return &cli.Error{Code: cli.ExitInterrupted, Msg: "interrupted", Err: ctx.Err()}
	}
	if !checkup.AllPassed(results) {
		return &cli.Error{Code: cli.ExitFailure, Quiet: true, Msg: "docsbot doctor found problems"}
	}
	return nil
}

// configCheck turns the outcome of loadServeConfig into the first check.
func (r *runner) configCheck(cfg config.Serve, err error) checkup.Result {
	const name = "configuration"
	if err == nil {
		where := ".env: " + r.env().DotenvPath()
		if _, statErr := os.Stat(r.env().DotenvPath()); errors.Is(statErr, fs.ErrNotExist) {
			where = "environment only, no " + r.env().DotenvPath()
		}
		line := "all settings present (" + where + ")"
		if len(cfg.Deprecated) > 0 {
			return checkup.Result{Name: name, State: checkup.Warned, Lines: append([]string{line}, cfg.Deprecated...),
				Fix: "rename the deprecated settings to the ones named; the README's configuration table lists them"}
		}
		return checkup.Of(name, true, line, "")
	}
	lines, fix := cfg.Describe(err)
	return checkup.Result{Name: name, State: checkup.Failed, Lines: lines, Fix: fix}
}

// dependencies lists the service checks in the order they are printed; one
// whose settings are wrong is blocked.
func (r *runner) dependencies(cfg config.Serve, cfgErr error) []checkup.Check {
	return slices.Concat(slackChecks(cfg, cfgErr), []checkup.Check{
		slackModeCheck(cfg, cfgErr),
		editorsCheck(cfg, cfgErr),
		slackSettingsCheck()},
		r.docsAPIChecks(cfg, cfgErr),
		r.assistantChecks(cfg, cfgErr),
		[]checkup.Check{{Name: "Redis", Blocked: cfg.Blocked(cfgErr, config.EnvRedisURL), Run: func(ctx context.Context) checkup.Result {
			rep, err := store.Check(ctx, cfg.RedisURL, cfg.RedisPrefix)
			v := store.Judge(cfg.RedisURL, rep, err)
			return checkup.Of("Redis", v.OK, v.Line, v.Fix)
		}}})
}

// docsAPIChecks are the checks of the docs API: one of today's settings
// ("docs API"), or one per project of the projects file ("project NAME").
func (r *runner) docsAPIChecks(cfg config.Serve, cfgErr error) []checkup.Check {
	needs := []string{config.EnvAPIKey, config.EnvProject, config.EnvAPIURL}
	if cfg.Projects == nil || !cfg.Projects.Implicit() {
		needs = []string{config.EnvProjectsFile, config.EnvAPIURL}
	}
	if cfg.Projects == nil {
		return []checkup.Check{{Name: "docs API", Blocked: cfg.Blocked(cfgErr, needs...)}}
	}
	if cfg.Projects.Len() == 0 {
		return []checkup.Check{{Name: "docs API", Blocked: cfg.Blocked(cfgErr, config.EnvSecretsKey), Run: func(context.Context) checkup.Result {
			return checkup.Result{Name: "docs API", State: checkup.Passed, Lines: []string{firstRunLine}}
		}}}
	}
	var checks []checkup.Check
	for _, p := range cfg.Projects.All() {
		name := "project " + p.Name
		if p.Implicit {
			name = "docs API"
		}
		checks = append(checks, checkup.Check{Name: name, Blocked: cfg.Blocked(cfgErr, needs...), Run: func(ctx context.Context) checkup.Result {
			return r.checkDocsAPI(ctx, name, cfg.APIOf(p))
		}})
	}
	return checks
}

// assistantChecks are the checks of the docs assistants that answer from
// the docs: one per project that has one ("Assistant" for today's settings,
// "assistant NAME" for a project of the projects file), or, when none has,
// one that passes and says that the answers are off and what turns them on.
func (r *runner) assistantChecks(cfg config.Serve, cfgErr error) []checkup.Check {
	const name = "Assistant"
	needs := []string{config.EnvAssistantKey, config.EnvDomain, config.EnvDiscoveryURL}
	if cfg.Projects == nil || !cfg.Projects.Implicit() {
		needs = append(needs, config.EnvProjectsFile)
	}
	if cfg.Projects == nil {
		return []checkup.Check{{Name: name, Blocked: cfg.Blocked(cfgErr, needs...)}}
	}
	if cfg.Projects.Len() == 0 {
		return nil // docs connected from Slack bring their assistant (docsAPIChecks)
	}
	var checks []checkup.Check
	for _, p := range cfg.Projects.All() {
		if !p.Assistant.Set() {
			continue
		}
		name := "assistant " + p.Name
		if p.Implicit {
			name = "Assistant"
		}
		checks = append(checks, checkup.Check{Name: name, Blocked: cfg.Blocked(cfgErr, needs...), Run: func(ctx context.Context) checkup.Result {
			return r.checkAssistant(ctx, name, p)
		}})
	}
	if len(checks) > 0 {
		return checks
	}
	return []checkup.Check{{Name: name, Blocked: cfg.Blocked(cfgErr, needs...), Run: func(context.Context) checkup.Result {
		off, on := cfg.AnswersOff()
		return checkup.Result{Name: name, State: checkup.Passed, Lines: []string{off, on}}
	}}}
}

// checkAssistant tries the assistant of project p with one search, not
// retried (it costs no credits); the check is called name.
func (r *runner) checkAssistant(ctx context.Context, name string, p project.Project) checkup.Result {
	a := p.Assistant
	discovery := cmp.Or(a.DiscoveryURL, docsapi.DefaultDiscoveryURL)
	assistant, err := docsapi.NewAssistant(a.Key.Reveal(), a.Domain, docsapi.WithDiscoveryURL(discovery),
		docsapi.WithRetryPolicy(docsapi.RetryPolicy{MaxAttempts: 1}))
	if err == nil {
		_, err = assistant.Search(ctx, docsapi.SearchParams{Query: "getting started", PageSize: 1})
	}
	if err != nil {
		x := term.ExplainAssistant(err, term.AssistantRequest{DiscoveryURL: discovery, Key: a.Key.Reveal(), Domain: a.Domain,
			KeyFrom: a.KeyFrom, Now: r.now(), Input: config.AssistantInput(p)})
		return checkup.Of(name, false, x.Message, x.Fix)
	}
	from := ""
	if !p.Implicit {
		from = " (" + a.KeyFrom + ")"
	}
	return checkup.Of(name, true, fmt.Sprintf("%s%s can search docs site %s at %s", bot.SecretKinds().MaskOr(a.Key.Reveal()), from, a.Domain, discovery), "")
}

// slackChecks check how docsbot reaches Slack: the bot token, or in
// install mode the app's client id and secret and the install page (a
// docsbot not running yet behind DOCSBOT_PUBLIC_URL is a warning).
func slackChecks(cfg config.Serve, cfgErr error) []checkup.Check {
	if !cfg.Bot.InstallMode {
		return []checkup.Check{{Name: "Slack bot token", Blocked: cfg.Blocked(cfgErr, config.EnvSlackBotToken, config.EnvSlackAPIURL), Run: func(ctx context.Context) checkup.Result {
			c := slackcheck.BotToken(ctx, cfg.BotToken, cfg.SlackAPIURL, slackScopes(), cfg.AppToken)
			return checkup.Of("Slack bot token", c.OK, c.Line, c.Fix)
		}}}
	}
	return []checkup.Check{
		{Name: "Slack app credentials", Blocked: cfg.Blocked(cfgErr, config.EnvClientID, config.EnvClientSecret, config.EnvSlackAPIURL), Run: func(ctx context.Context) checkup.Result {
			c := slackcheck.ClientCredentials(ctx, cfg.SlackAPIURL, cfg.Install.ClientID, cfg.Install.ClientSecret)
			return checkup.Of("Slack app credentials", c.OK, c.Line, c.Fix)
		}},
		{Name: "Install page", Blocked: cfg.Blocked(cfgErr, config.EnvPublicURL), Run: func(ctx context.Context) checkup.Result {
			c := slackcheck.InstallPage(ctx, cfg.Install.PublicURL, install.PathInstall, install.PathRedirect)
			r := checkup.Of("Install page", c.OK, c.Line, c.Fix)
			if !c.OK {
				r.State = checkup.Warned
			}
			return r
		}},
	}
}

// slackModeCheck is the check of what the Slack mode needs: the app-level
// token in socket mode, the signing secret in http mode.
func slackModeCheck(cfg config.Serve, cfgErr error) checkup.Check {
	if cfg.Bot.Mode == bot.ModeHTTP {
		return checkup.Check{Name: "Signing secret", Blocked: cfg.Blocked(cfgErr, config.EnvSigningSecret, config.EnvSlackMode, config.EnvHTTPAddr), Run: func(context.Context) checkup.Result {
			c := slackcheck.SigningSecret(cfg.Bot.SigningSecret, cfg.HTTPAddr)
			return checkup.Of("Signing secret", c.OK, c.Line, c.Fix)
		}}
	}
	return checkup.Check{Name: "Slack app token", Blocked: cfg.Blocked(cfgErr, config.EnvSlackAppToken, config.EnvSlackAPIURL, config.EnvSlackMode), Run: func(ctx context.Context) checkup.Result {
		c := slackcheck.AppToken(ctx, cfg.AppToken, cfg.SlackAPIURL, cfg.BotToken)
		return checkup.Of("Slack app token", c.OK, c.Line, c.Fix)
	}}
}

// slackScopes are the bot scopes docsbot uses, each with what for: those
// the core and every feature declare, events included (app.Declarations),
// which the Slack app manifests are made of.
func slackScopes() []declare.Scope { return app.Declarations().Scopes() }

// checkDocsAPI tries a project's key and id with one request
// (Client.Check); the check is called name.
func (r *runner) checkDocsAPI(ctx context.Context, name string, api config.API) checkup.Result {
	client, err := newAPIClient(api)
	if err == nil {
		err = client.Check(ctx, r.now())
	}
	if ee, ok := errors.AsType[*cli.Error](explain(err, call{op: term.OpVisitors, cfg: api, now: r.now()})); ok {
		if errors.Is(err, docsapi.ErrInvalidRequest) {
			ee.Fix = "check " + api.Input("baseurl") + " (" + api.APIURL + "): the service did not accept a plain visitors query"
		}
		return checkup.Of(name, false, ee.Msg, ee.Fix)
	}
	from := ""
	if api.Project != "" {
		from = " (" + api.KeyFrom + ")"
	}
	return checkup.Of(name, true, fmt.Sprintf("%s%s can read project %s at %s", bot.SecretKinds().MaskOr(api.APIKey), from, api.ProjectID, api.APIURL), "")
}

// editorsCheck warns when nobody is named an editor somewhere, so that
// everyone in the workspace can open pull requests through docsbot.
func editorsCheck(cfg config.Serve, cfgErr error) checkup.Check {
	const name = "Editors"
	return checkup.Check{Name: name, Blocked: cfg.Blocked(cfgErr, config.EnvEditors, config.EnvProjectsFile), Run: func(context.Context) checkup.Result {
		w := bot.OpenWarning(bot.OpenToEveryone(cfg.Bot))
		if cfg.Projects != nil && cfg.Projects.Len() == 0 && cfg.Bot.Editors.Empty() {
			return checkup.Result{Name: name, State: checkup.Warned, Lines: []string{"nobody is named an editor, so everyone in the workspace can start docs agent jobs (and open pull requests) in the docs connected from Slack"},
				Fix: "set DOCSBOT_EDITORS to the people or user groups who may start jobs"}
		}
		if w == "" {
			return checkup.Of(name, true, "every docs project names its editors", "")
		}
		return checkup.Result{Name: name, State: checkup.Warned, Lines: []string{w},
			Fix: "set DOCSBOT_EDITORS to the people or user groups who may start jobs, or editors per project in the projects file"}
	}}
}

// firstRunLine is what doctor says of the docs when docsbot starts without
// any (config's first run): they are connected from Slack.
const firstRunLine = "no docs project is set here: a workspace's admins connect its docs from the Settings of docsbot's Home (DOCSBOT_SECRETS_KEY is set)"

// slackSettingsCheck lists the settings a workspace's admins may set from
// docsbot's Home (settings.Table): each goes over its variable in that
// workspace alone, and what the table leaves out stays here.
func slackSettingsCheck() checkup.Check {
	const name = "Settings in Slack"
	return checkup.Check{Name: name, Run: func(context.Context) checkup.Result {
		lines := []string{"a workspace's admins may set these from docsbot's Home, over the environment in that workspace:"}
		for _, st := range settings.Table() {
			per := ""
			if st.PerChannel {
				per = ", per channel"
			}
			lines = append(lines, fmt.Sprintf("%s (%s%s)", st.Env, st.Label, per))
		}
		return checkup.Result{Name: name, State: checkup.Passed, Lines: append(lines, "never in Slack: "+strings.ReplaceAll(settings.NeverInSlack, "`", ""))}
	}}
}
