package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/home"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

const serveUsage = `docsbot serve [flags]

Runs the Slack bot: /docs-agent and /docs-visitors over Slack Socket Mode (no
public URL needed) or, with DOCSBOT_SLACK_MODE=http, by answering the signed
requests Slack posts to /slack/events, /slack/commands and /slack/interactive
on DOCSBOT_HTTP_ADDR (behind a TLS-terminating load balancer). Run as many
replicas as you like against one Redis.

Settings come from flags, then the environment, then ./.env; the docs API's
are listed by 'docsbot help'. The bot's own:
%s

GET /healthz, /readyz and /metrics are served on DOCSBOT_HTTP_ADDR (set it
empty to turn them off). On SIGTERM or SIGINT the bot stops
taking work, hands its polls back to the other replicas and exits 0.
`

// runServe runs the Slack bot until ctx ends (SIGINT or SIGTERM).
func (r *runner) runServe(ctx context.Context, args []string) error {
	var list strings.Builder
	settingsTable().Write(&list, false)
	fs := r.flagSet("serve", fmt.Sprintf(serveUsage, strings.TrimRight(list.String(), "\n")))
	flags := settingsTable().Flags(fs, false)
	if _, err := r.parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := r.loadServeConfig(flags())
	if err != nil {
		return err
	}
	log := bot.NewLogger(r.stderr, cfg.logFormat, cfg.logLevel)
	// The Redis client logs through a process-wide logger; send its lines
	// to ours so JSON logs stay JSON.
	store.SetClientLogger(log)
	reg := bot.NewRegistry()
	metrics := bot.NewMetrics(reg)
	cfg.bot.Logger, cfg.bot.Metrics = log, metrics

	api, err := newAPIClient(cfg.api,
		docsapi.WithHTTPClient(&http.Client{Transport: metrics.InstrumentAPI(http.DefaultTransport)}),
		docsapi.WithLogger(log))
	if err != nil {
		return err
	}
	st, err := openStore(ctx, cfg.redisURL, cfg.redisPrefix, store.WithLogger(log))
	if err != nil {
		return err
	}
	defer st.Close()

	client := slack.New(cfg.botToken, append([]slack.Option{slack.OptionAppLevelToken(cfg.appToken), slack.OptionAPIURL(cfg.slackAPIURL)},
		bot.SlackOptions(metrics)...)...)
	log.Info("docsbot starting", "version", mainVersion(), "slack_mode", cfg.bot.Mode, "slack_api", cfg.slackAPIURL,
		"redis", store.RedactURL(cfg.redisURL), "redis_topology", st.Topology(), "redis_prefix", cfg.redisPrefix, "docs_api", cfg.api.APIURL, "project", cfg.api.ProjectID)
	audit := st.AuditLog(cfg.audit)
	cfg.bot.Audit = audit
	b := bot.New(cfg.bot, client, st)
	b.Background(func(ctx context.Context) { trimAudit(ctx, audit, log) })
	jobs := agent.Register(b, cfg.agent, api, st)
	vis := visitors.Register(b, cfg.visitors, api, st)
	home.Register(b, home.Config{Project: cfg.api.ProjectID}, jobs, vis)
	if cfg.httpAddr != "" {
		ready := bot.Readiness{SlackConnected: b.Connected, PingRedis: st.Ping}
		if cfg.bot.Mode == bot.ModeHTTP {
			ready.SlackDown = "not serving Slack's requests"
		}
		h := bot.OpsHandler(reg, ready)
		if cfg.bot.Mode == bot.ModeHTTP {
			h = b.WithSlackHandler(h)
			log.Info("serving Slack's requests", "paths", []string{bot.PathEvents, bot.PathCommands, bot.PathInteractive})
		}
		stop, err := bot.ServeOps(ctx, cfg.httpAddr, h, log)
		if err != nil {
			fix := "pick a free address, or set " + envHTTPAddr + "= (empty) to turn the endpoint off"
			if cfg.bot.Mode == bot.ModeHTTP {
				fix = "pick a free address: in http mode Slack's requests are served there"
			}
			return &exitError{code: exitFailure, err: err, msg: "cannot listen on " + envHTTPAddr + " " + cfg.httpAddr + ": " + err.Error(), fix: fix}
		}
		defer stop()
	}
	err = b.Run(ctx)
	switch {
	case err == nil:
		log.Info("docsbot stopped")
		return nil
	case errors.Is(err, bot.ErrBotToken):
		return &exitError{code: exitFailure, err: err, msg: "Slack refused " + envSlackBotToken + " (" + slackReason(err) + ")",
			fix: bot.FixBotToken}
	case errors.Is(err, bot.ErrAppToken):
		return &exitError{code: exitFailure, err: err, msg: "Slack refused " + envSlackAppToken + " (" + slackReason(err) + ")",
			fix: bot.FixAppToken}
	}
	return &exitError{code: exitFailure, err: err, msg: "the bot stopped: " + err.Error()}
}

// slackReason is Slack's error code in err, such as invalid_auth.
func slackReason(err error) string {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		return se.Err
	}
	return "could not connect"
}

// auditTrimEvery is how often a replica trims the audit trail exactly; the
// appends in between drop the oldest records a stream node at a time.
const auditTrimEvery = time.Hour

// trimAudit removes the audit records older than the retention, now and
// then every auditTrimEvery, until ctx ends.
func trimAudit(ctx context.Context, audit *store.AuditLog, log *slog.Logger) {
	for {
		if n, err := audit.Trim(ctx); err != nil && ctx.Err() == nil {
			log.Warn("trimming the audit trail failed", "err", err)
		} else if n > 0 {
			log.Info("audit trail trimmed", "removed", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(auditTrimEvery):
		}
	}
}
