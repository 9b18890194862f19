package main

import (
	"strconv"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/bot/visitors/digest"
	"github.com/docsbot/docsbot/cmd/internal/settings"
	"github.com/docsbot/docsbot/store"
)

// The settings of docsbot. Operators and the deploy files rely on these
// names.
const (
	envAPIURL          = "DOCS_API_URL"
	envAPIKey          = "DOCS_API_KEY"
	envProject         = "DOCS_PROJECT_ID"
	envSlackBotToken   = "SLACK_BOT_TOKEN"
	envSlackAppToken   = "SLACK_APP_TOKEN"
	envSlackAPIURL     = "SLACK_API_URL"
	envSlackMode       = "DOCSBOT_SLACK_MODE"
	envSigningSecret   = "SLACK_SIGNING_SECRET"
	envRedisURL        = "REDIS_URL"
	envRedisPrefix     = "DOCSBOT_REDIS_PREFIX"
	envPollInterval    = "DOCSBOT_POLL_INTERVAL"
	envPollMaxInterval = "DOCSBOT_POLL_MAX_INTERVAL"
	envAllowedUsers    = "DOCSBOT_ALLOWED_USERS"
	envAllowedChannels = "DOCSBOT_ALLOWED_CHANNELS"
	envEditors         = "DOCSBOT_EDITORS"
	envAuditText       = "DOCSBOT_AUDIT_TEXT"
	envAuditRetention  = "DOCSBOT_AUDIT_RETENTION"
	envVisitorsTTL     = "DOCSBOT_VISITORS_CACHE_TTL"
	envVisitorsBudget  = "DOCSBOT_VISITORS_BUDGET"
	envDigestTime      = "DOCSBOT_DIGEST_TIME"
	envHTTPAddr        = "DOCSBOT_HTTP_ADDR"
	envLogFormat       = "DOCSBOT_LOG_FORMAT"
	envLogLevel        = "DOCSBOT_LOG_LEVEL"
)

// settingsTable is the one table of docsbot's settings, in the order the
// help and the README list them. The flags, their help, the usage lists and
// where a value is looked for (settings.Source) all come from it, and the
// tests keep the README's table and deploy/.env.example in step with it.
// Common marks the docs API's settings, which every subcommand that calls
// the API takes; the others are the bot's (serve, doctor).
func settingsTable() settings.Table {
	return settings.Table{
		{Env: envAPIURL, Flag: "api-url", Default: "https://api.mintlify.com", Common: true, Doc: "Base URL of the docs platform API"},
		{Env: envAPIKey, Flag: "api-key", None: "required", Secret: true, Common: true, Doc: "Admin API key (`mint_…`) from the API keys page of the dashboard"},
		{Env: envProject, Flag: "project", None: "required", Common: true, Doc: "Project id from the same page"},
		{Env: envSlackBotToken, None: "required for the bot", Secret: true, Doc: "Bot token, `xoxb-…`",
			Check: prefixed("xoxb-", " is not a bot token: it must start with xoxb- (OAuth & Permissions page of your Slack app)")},
		{Env: envSlackAppToken, None: "required in socket mode", Secret: true, Doc: "App-level token with `connections:write`, `xapp-…`",
			Check: prefixed("xapp-", " is not an app-level token: it must start with xapp- (Basic Information page, App-Level Tokens, scope connections:write)")},
		{Env: envSlackMode, Flag: "slack-mode", Default: string(bot.ModeSocket), Doc: "How Slack reaches the bot: `socket` (Socket Mode, no public URL) or `http` (Slack posts to `/slack/events`, `/slack/commands` and `/slack/interactive` on `DOCSBOT_HTTP_ADDR`)", Check: checkSlackMode},
		{Env: envSigningSecret, None: "required in http mode", Secret: true, Doc: "Signing secret (Basic Information page) that every request from Slack is checked with in http mode"},
		{Env: envSlackAPIURL, Flag: "slack-api-url", Default: "https://slack.com/api/", Doc: "Slack Web API base (GovSlack, tests)", Check: checkSlackAPIURL},
		{Env: envRedisURL, Flag: "redis-url", Default: "redis://localhost:6379/0", Doc: "Redis; `rediss://` and `unix://` work too, Sentinel with `?addr=…&master_name=…`, and Cluster with several nodes `redis://n1:6379?addr=n2:6379&addr=n3:6379`", Check: checkRedisURL},
		{Env: envRedisPrefix, Flag: "redis-prefix", Default: store.DefaultPrefix, Doc: "Prefix of every Redis key. No hash tag is needed on a Cluster: docsbot tags its keys itself, in 16 shards that spread over the primaries (a prefix with braces, such as `{docsbot}:`, puts every key in one slot)", Check: checkRedisPrefix},
		{Env: envPollInterval, Flag: "poll-interval", Default: settings.ShortDuration(agent.DefaultPollInterval), Doc: "Delay before a job's first poll", Check: checkDuration},
		{Env: envPollMaxInterval, Flag: "poll-max-interval", Default: settings.ShortDuration(agent.DefaultPollMaxInterval), Doc: "Cap of the poll backoff", Check: checkDuration},
		{Env: envAllowedUsers, Flag: "allowed-users", None: "everyone", Doc: "Comma-separated Slack user ids allowed to use the bot", Check: checkSlackIDs(envAllowedUsers, "UW")},
		{Env: envAllowedChannels, Flag: "allowed-channels", None: "everywhere", Doc: "Comma-separated Slack channel ids where the bot works", Check: checkSlackIDs(envAllowedChannels, "CGD")},
		{Env: envEditors, Flag: "editors", None: "everyone", Doc: "Comma-separated Slack user ids and user group ids (`S…`) who may start jobs and send follow-ups; the others may only look", Check: checkSlackIDs(envEditors, "UWS")},
		{Env: envAuditText, Flag: "audit-text", Default: "false", Doc: "`true` keeps the instructions' text in the audit trail, not only their SHA-256 and length", Check: checkBool},
		{Env: envAuditRetention, Flag: "audit-retention", Default: settings.ShortDuration(store.DefaultAuditRetention), Doc: "How long the audit trail keeps a record (`2160h` is 90 days)", Check: checkDuration},
		{Env: envVisitorsTTL, Flag: "visitors-cache-ttl", Default: settings.ShortDuration(visitors.DefaultCacheTTL), Doc: "How long a `/docs-visitors` result is reused, by every replica", Check: checkDuration},
		{Env: envVisitorsBudget, Default: strconv.Itoa(visitors.DefaultBudget), Doc: "Analytics requests per hour that all replicas together may make", Check: checkBudget},
		{Env: envDigestTime, Default: digest.DefaultTime, Doc: "When `/docs-visitors digest` posts: `[weekday] HH:MM [zone]`, the weekday for weekly digests, the zone an IANA name", Check: checkDigestTime},
		{Env: envHTTPAddr, Flag: "http-addr", Default: ":8080", EmptyOff: true, Doc: "Address of `/healthz`, `/readyz` and `/metrics`, and of Slack's request URLs in http mode; empty turns them off (socket mode only)", Check: checkListenAddr},
		{Env: envLogFormat, Flag: "log-format", Default: "text", Doc: "`text` or `json`", Check: checkLogFormat},
		{Env: envLogLevel, Flag: "log-level", Default: "info", Doc: "`debug`, `info`, `warn` or `error`", Check: checkLogLevel},
	}
}

// defaultOf is the default of the variable env, "" for none.
func defaultOf(env string) string { return settingsTable().Of(env).Default }
