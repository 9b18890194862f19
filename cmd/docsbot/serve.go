package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/project"
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
// ops is the ops endpoint (bot.OpsHandler).
func listeners(cfg config.Serve, b *bot.Bot, ops http.Handler) []listener {
	httpMode := cfg.Bot.Mode == bot.ModeHTTP
	const opsWhat = "/healthz, /readyz and /metrics"
	slackWhat := "Slack's requests (" + strings.Join([]string{bot.PathEvents, bot.PathCommands, bot.PathInteractive}, ", ") + ")"
	slackFix := "pick a free address: in http mode Slack's requests are served there"
	var ls []listener
	switch {
	case cfg.OpsAddr != "":
		ls = append(ls, listener{env: config.EnvOpsAddr, addr: cfg.OpsAddr, what: opsWhat, h: ops,
			fix: "pick a free address for " + config.EnvOpsAddr + ", or leave it unset to serve the ops endpoint on " + config.EnvHTTPAddr})
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

// runServe runs the Slack bot until ctx ends (SIGINT or SIGTERM).
func (r *runner) runServe(ctx context.Context, args []string) error {
	var list strings.Builder
	config.Table().Write(&list, false)
	fs := r.flagSet("serve", fmt.Sprintf(serveUsage, strings.TrimRight(list.String(), "\n")))
	flags := config.Table().Flags(fs, false)
	if _, err := r.parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := r.loadServeConfig(flags())
	if err != nil {
		return err
	}
	profiles, err := pprofAddr(r.lookupEnv)
	if err != nil {
		return err
	}
	log := bot.NewLogger(r.stderr, cfg.LogFormat, cfg.LogLevel)
	// The Redis client logs through a process-wide logger; send its lines
	// to ours so JSON logs stay JSON.
	store.SetClientLogger(log)
	reg := bot.NewRegistry()
	metrics := bot.NewMetrics(reg)
	cfg.Bot.Logger, cfg.Bot.Metrics = log, metrics

	st, err := openStore(ctx, cfg.RedisURL, cfg.RedisPrefix, store.WithLogger(log))
	if err != nil {
		return err
	}
	defer st.Close()

	client := slack.New(cfg.BotToken, append([]slack.Option{slack.OptionAppLevelToken(cfg.AppToken), slack.OptionAPIURL(cfg.SlackAPIURL)},
		bot.SlackOptions(metrics)...)...)
	cfg.Bot.Audit = st.AuditLog(cfg.Audit)
	b, err := app.New(cfg.Config, app.Deps{Slack: client, Store: st,
		APIOptions: []docsapi.Option{docsapi.WithHTTPClient(&http.Client{Transport: metrics.InstrumentAPI(http.DefaultTransport)}), docsapi.WithLogger(log)}})
	if ce, ok := errors.AsType[*project.ClientError](err); ok {
		p, _ := cfg.Projects.Get(ce.Project)
		return explain(ce.Err, call{op: "connect", cfg: cfg.APIOf(p)})
	}
	if err != nil {
		return err
	}
	first := cfg.Projects.All()[0]
	log.Info("docsbot starting", "version", cli.MainVersion(), "slack_mode", cfg.Bot.Mode, "slack_api", cfg.SlackAPIURL,
		"redis", store.RedactURL(cfg.RedisURL), "redis_topology", st.Topology(), "redis_prefix", cfg.RedisPrefix, "docs_api", first.APIURL, "project", first.ID, "projects", cfg.Projects.Names())
	for _, d := range cfg.Deprecated {
		log.Warn(d)
	}
	if w := bot.OpenWarning(bot.OpenToEveryone(cfg.Bot)); w != "" {
		log.Warn(w)
	}
	if off, on := cfg.AnswersOff(); off != "" {
		log.Info(off + "; " + on)
	}
	ready := bot.Readiness{SlackConnected: b.Connected, PingRedis: st.Ping}
	if cfg.Bot.Mode == bot.ModeHTTP {
		ready.SlackDown = "not serving Slack's requests"
	}
	for _, l := range listeners(cfg, b, bot.OpsHandler(reg, ready)) {
		stop, err := bot.Listen(ctx, l.addr, l.h, log, l.what)
		if err != nil {
			return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "cannot listen on " + l.env + " " + l.addr + ": " + err.Error(), Fix: l.fix}
		}
		defer stop()
	}
	if addr := profiles; addr != "" {
		stop, err := bot.Listen(ctx, addr, pprofHandler(), log, "Go's profiles (/debug/pprof/)")
		if err != nil {
			return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "cannot listen on " + envPprofAddr + " " + addr + ": " + err.Error(), Fix: "pick a free loopback address for " + envPprofAddr + ", or leave it unset"}
		}
		defer stop()
	}
	err = b.Run(ctx)
	switch {
	case err == nil:
		log.Info("docsbot stopped")
		return nil
	case errors.Is(err, bot.ErrBotToken):
		return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "Slack refused " + config.EnvSlackBotToken + " (" + cmp.Or(bot.SlackCode(err), "could not connect") + ")",
			Fix: bot.FixBotToken}
	case errors.Is(err, bot.ErrAppToken):
		return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "Slack refused " + config.EnvSlackAppToken + " (" + cmp.Or(bot.SlackCode(err), "could not connect") + ")",
			Fix: bot.FixAppToken}
	}
	return &cli.Error{Code: cli.ExitFailure, Err: err, Msg: "the bot stopped: " + err.Error()}
}
