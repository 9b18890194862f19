package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ops"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/slackcheck"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

const serveUsage = `docsbot serve [flags]

Runs the Slack bot: /docs-agent, /docs-visitors and, with a docs assistant
(DOCS_ASSISTANT_KEY and DOCS_DOMAIN, or per project in the projects file),
/docs-ask, over Slack Socket Mode (no public URL needed) or, with
DOCSBOT_SLACK_MODE=http, by answering the signed requests Slack posts to
/slack/events, /slack/commands and /slack/interactive on DOCSBOT_HTTP_ADDR
(behind a TLS-terminating load balancer). Run as many replicas as you like
against one Redis.

Settings come from flags, then the environment, then ./.env; the docs API's
are listed by 'docsbot help'. The bot's own:
%s

GET /healthz, /readyz and /metrics are served on DOCSBOT_HTTP_ADDR (set it
empty to turn them off), or on DOCSBOT_OPS_ADDR when it is set: then
DOCSBOT_HTTP_ADDR serves Slack's request URLs alone (http mode) or nothing
(socket mode), and the ops address none of them. On SIGTERM or SIGINT the bot stops
taking work, hands its polls back to the other replicas and exits 0.
`

// listener is one address `docsbot serve` listens on: its setting, what it
// serves (for the log) and the fix of an address that cannot be taken.
type listener struct {
	env, addr, what, fix string
	h                    http.Handler
}

// listeners are the addresses a replica serves: the ops endpoint (/healthz,
// /readyz, /metrics) and, in http mode, Slack's request URLs, together on
// DOCSBOT_HTTP_ADDR, or apart when DOCSBOT_OPS_ADDR is set (Slack's listener
// then answers nothing else, and the ops listener none of Slack's paths).
// ops is the ops endpoint (ops.Handler).
func listeners(cfg config.Serve, b *bot.Bot, ops http.Handler) []listener {
	httpMode := cfg.Bot.Mode == bot.ModeHTTP
	const opsWhat = "/healthz, /readyz and /metrics"
	slackWhat := "Slack's requests (" + strings.Join([]string{bot.PathEvents, bot.PathCommands, bot.PathInteractive}, ", ") + ")"
	slackFix := "pick a free address: in http mode Slack's requests are served there"
	var ls []listener
	switch {
	case cfg.OpsAddr != "":
		ls = append(ls, listener{env: config.EnvOpsAddr, addr: cfg.OpsAddr, what: opsWhat, h: ops,
			fix: "pick a free address for " + config.EnvOpsAddr + ", or set it empty to serve the ops endpoint on " + config.EnvHTTPAddr})
		if httpMode {
			ls = append(ls, listener{env: config.EnvHTTPAddr, addr: cfg.HTTPAddr, what: slackWhat, h: b.SlackHandler(), fix: slackFix})
		}
	case cfg.HTTPAddr != "" && httpMode:
		ls = append(ls, listener{env: config.EnvHTTPAddr, addr: cfg.HTTPAddr, what: opsWhat + " and " + slackWhat, h: bot.WithSlackHandler(b.SlackHandler(), ops), fix: slackFix})
	case cfg.HTTPAddr != "":
		ls = append(ls, listener{env: config.EnvHTTPAddr, addr: cfg.HTTPAddr, what: opsWhat, h: ops,
			fix: "pick a free address, or set " + config.EnvHTTPAddr + "= (empty) to turn the endpoint off"})
	}
	return ls
}

// runServe runs the Slack bot until ctx ends (SIGINT or SIGTERM). Nothing
// is started before the settings are read whole; the store is opened
// before the bot is built, the bot built before its addresses are taken,
// and whichever way it ends the addresses are let go before the store is
// closed.
func (r *runner) runServe(ctx context.Context, args []string) error {
	cfg, profiles, err := r.serveSettings(args)
	if err != nil {
		return err
	}
	log := ops.NewLogger(r.stderr, cfg.LogFormat, cfg.LogLevel)
	// The Redis client logs through a process-wide logger; send its lines
	// to ours so JSON logs stay JSON.
	store.SetClientLogger(log)
	reg := ops.NewRegistry()
	metrics := bot.NewMetrics(reg)
	cfg.Bot.Logger, cfg.Bot.Metrics = log, metrics

	st, err := openStore(ctx, cfg.RedisURL, cfg.RedisPrefix, store.WithLogger(log))
	if err != nil {
		return err
	}
	defer st.Close()

	cfg.Bot.Audit = st.AuditLog(cfg.Audit)
	b, err := newBot(cfg, st, metrics, log)
	if err != nil {
		return err
	}
	logStarting(log, cfg, st)
	ls := listeners(cfg, b, ops.Handler(reg, readiness(cfg, b, st)))
	if profiles != "" {
		ls = append(ls, listener{env: envPprofAddr, addr: profiles, what: "Go's profiles (/debug/pprof/)", h: pprofHandler(),
			fix: "pick a free loopback address for " + envPprofAddr + ", or leave it unset"})
	}
	stop, err := listen(ctx, ls, log)
	if err != nil {
		return err
	}
	defer stop()
	return runEnd(b.Run(ctx), log)
}

// serveSettings are serve's settings from args, the environment and ./.env,
// and the address of Go's profiles ("" for none); on an error (of usage or
// of a setting) nothing has been started.
func (r *runner) serveSettings(args []string) (cfg config.Serve, profiles string, err error) {
	var list strings.Builder
	config.Table().Write(&list, false)
	fs := r.flagSet("serve", fmt.Sprintf(serveUsage, strings.TrimRight(list.String(), "\n")))
	flags := config.Table().Flags(fs, false)
	if _, err := r.parseFlags(fs, args); err != nil {
		return config.Serve{}, "", err
	}
	if cfg, err = r.loadServeConfig(flags()); err != nil {
		return config.Serve{}, "", err
	}
	if profiles, err = pprofAddr(r.lookupEnv); err != nil {
		return config.Serve{}, "", err
	}
	return cfg, profiles, nil
}

// newBot is the replica's bot over st, its Slack and docs API calls
// counted by metrics. A project whose docs API client cannot be made is
// explained as a failed connect with that project's API settings.
func newBot(cfg config.Serve, st *store.Store, metrics *bot.Metrics, log *slog.Logger) (*bot.Bot, error) {
	slackOpts := append([]slack.Option{slack.OptionAPIURL(cfg.SlackAPIURL)}, bot.SlackOptions(metrics)...)
	client := slack.New(cfg.BotToken, append([]slack.Option{slack.OptionAppLevelToken(cfg.AppToken)}, slackOpts...)...)
	b, err := app.New(cfg.Config, app.Deps{Slack: client, Store: st, SlackOptions: slackOpts,
		APIOptions: []docsapi.Option{docsapi.WithHTTPClient(&http.Client{Transport: metrics.InstrumentAPI(http.DefaultTransport)}), docsapi.WithLogger(log)}})
	if ce, ok := errors.AsType[*project.ClientError](err); ok {
		p, _ := cfg.Projects.Get(ce.Project)
		return nil, explain(ce.Err, call{op: "connect", cfg: cfg.APIOf(p)})
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// logStarting logs the replica's start (its version, Slack mode, Redis
// without its password, the first project's API and the projects served),
// then a warning for each deprecated setting given and for projects open
// to everyone, and a note when answers are off.
func logStarting(log *slog.Logger, cfg config.Serve, st *store.Store) {
	var first project.Project
	if all := cfg.Projects.All(); len(all) > 0 {
		first = all[0]
	}
	log.Info("docsbot starting", "version", cli.MainVersion(), "slack_mode", cfg.Bot.Mode, "slack_api", cfg.SlackAPIURL,
		"redis", store.RedactURL(cfg.RedisURL), "redis_topology", st.Topology(), "redis_prefix", cfg.RedisPrefix, "docs_api", first.APIURL, "project", first.ID, "projects", cfg.Projects.Names())
	if cfg.Projects.Len() == 0 {
		log.Info(firstRunLine)
	}
	for _, d := range cfg.Deprecated {
		log.Warn(d)
	}
	if w := bot.OpenWarning(bot.OpenToEveryone(cfg.Bot)); w != "" {
		log.Warn(w)
	}
	if cfg.Bot.InstallMode && len(cfg.Install.Teams) == 0 {
		log.Warn("install by link is open to any workspace that has the link: set " + config.EnvTeams + " to the workspaces and organisations that may add docsbot")
	}
	if off, on := cfg.AnswersOff(); off != "" && cfg.Projects.Len() > 0 {
		log.Info(off + "; " + on)
	}
}

// readiness is what /readyz checks: Slack connected and Redis answering;
// in http mode Slack's side is down while its requests are not served.
func readiness(cfg config.Serve, b *bot.Bot, st *store.Store) ops.Readiness {
	ready := ops.Readiness{SlackConnected: b.Connected, PingRedis: st.Ping}
	if cfg.Bot.Mode == bot.ModeHTTP {
		ready.SlackDown = "not serving Slack's requests"
	}
	return ready
}

// listen takes the addresses of ls in order, each served until stop, which
// lets them go in the reverse order. When an address cannot be taken,
// those already taken are let go and the error names its setting and fix.
func listen(ctx context.Context, ls []listener, log *slog.Logger) (stop func(), err error) {
	var stops []func()
	stop = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	for _, l := range ls {
		s, err := ops.Listen(ctx, l.addr, l.h, log, l.what)
		if err != nil {
			stop()
			return nil, &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "cannot listen on " + l.env + " " + l.addr + ": " + err.Error(), Fix: l.fix}
		}
		stops = append(stops, s)
	}
	return stop, nil
}

// runEnd is the command's outcome for the end of the bot's run: nil (the
// stop logged) when it ended without error, as when ctx ended; a token
// Slack refused named with its fix; any other error as the bot's stop.
func runEnd(err error, log *slog.Logger) error {
	switch {
	case err == nil:
		log.Info("docsbot stopped")
		return nil
	case errors.Is(err, bot.ErrBotToken):
		return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "Slack refused " + config.EnvSlackBotToken + " (" + cmp.Or(bot.SlackCode(err), "could not connect") + ")",
			Fix: slackcheck.FixBotToken}
	case errors.Is(err, bot.ErrAppToken):
		return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "Slack refused " + config.EnvSlackAppToken + " (" + cmp.Or(bot.SlackCode(err), "could not connect") + ")",
			Fix: slackcheck.FixAppToken}
	}
	return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "the bot stopped: " + err.Error()}
}
