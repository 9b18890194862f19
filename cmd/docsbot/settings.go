package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/visitors"
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
	envRedisURL        = "REDIS_URL"
	envRedisPrefix     = "DOCSBOT_REDIS_PREFIX"
	envPollInterval    = "DOCSBOT_POLL_INTERVAL"
	envPollMaxInterval = "DOCSBOT_POLL_MAX_INTERVAL"
	envAllowedUsers    = "DOCSBOT_ALLOWED_USERS"
	envAllowedChannels = "DOCSBOT_ALLOWED_CHANNELS"
	envVisitorsTTL     = "DOCSBOT_VISITORS_CACHE_TTL"
	envVisitorsBudget  = "DOCSBOT_VISITORS_BUDGET"
	envHTTPAddr        = "DOCSBOT_HTTP_ADDR"
	envLogFormat       = "DOCSBOT_LOG_FORMAT"
	envLogLevel        = "DOCSBOT_LOG_LEVEL"
)

// setting is one row of the settings table: the one place where a setting's
// variable, flag, default and meaning are written. Flag help, the usage
// texts, the flags themselves (settingFlags), where a value is looked for
// (source.get), doctor's list of secrets, and the tests that keep the README's
// table and deploy/.env.example complete all read it.
type setting struct {
	env  string
	flag string // "" when the setting is no flag (the Slack tokens)
	// def is the default, as typed; "" for none.
	def string
	// none says what no value means, for the help ("required", "everyone").
	none string
	// emptyOff means that the setting given empty turns its feature off,
	// rather than leaving the default.
	emptyOff bool
	secret   bool
	// api marks the settings of every subcommand that calls the docs API;
	// the others are the bot's (serve, doctor).
	api bool
	doc string
}

// settings returns the table, in the order the help and the README list it.
func settings() []setting {
	return []setting{
		{env: envAPIURL, flag: "api-url", def: "https://api.mintlify.com", api: true, doc: "Base URL of the docs platform API"},
		{env: envAPIKey, flag: "api-key", none: "required", secret: true, api: true, doc: "Admin API key (`mint_…`) from the API keys page of the dashboard"},
		{env: envProject, flag: "project", none: "required", api: true, doc: "Project id from the same page"},
		{env: envSlackBotToken, none: "required for the bot", secret: true, doc: "Bot token, `xoxb-…`"},
		{env: envSlackAppToken, none: "required for the bot", secret: true, doc: "App-level token with `connections:write`, `xapp-…`"},
		{env: envSlackAPIURL, flag: "slack-api-url", def: "https://slack.com/api/", doc: "Slack Web API base (GovSlack, tests)"},
		{env: envRedisURL, flag: "redis-url", def: "redis://localhost:6379/0", doc: "Redis; `rediss://` and `unix://` work too, and Sentinel with `?addr=…&master_name=…`"},
		{env: envRedisPrefix, flag: "redis-prefix", def: store.DefaultPrefix, doc: "Prefix of every Redis key; `{docsbot}:` keeps them in one Cluster hash slot"},
		{env: envPollInterval, flag: "poll-interval", def: shortDuration(agent.DefaultPollInterval), doc: "Delay before a job's first poll"},
		{env: envPollMaxInterval, flag: "poll-max-interval", def: shortDuration(agent.DefaultPollMaxInterval), doc: "Cap of the poll backoff"},
		{env: envAllowedUsers, flag: "allowed-users", none: "everyone", doc: "Comma-separated Slack user ids allowed to use the bot"},
		{env: envAllowedChannels, flag: "allowed-channels", none: "everywhere", doc: "Comma-separated Slack channel ids where the bot works"},
		{env: envVisitorsTTL, flag: "visitors-cache-ttl", def: shortDuration(visitors.DefaultCacheTTL), doc: "How long a `/docs-visitors` result is reused, by every replica"},
		{env: envVisitorsBudget, def: strconv.Itoa(visitors.DefaultBudget), doc: "Analytics requests per hour that all replicas together may make"},
		{env: envHTTPAddr, flag: "http-addr", def: ":8080", emptyOff: true, doc: "Address of `/healthz`, `/readyz` and `/metrics`; empty turns them off"},
		{env: envLogFormat, flag: "log-format", def: "text", doc: "`text` or `json`"},
		{env: envLogLevel, flag: "log-level", def: "info", doc: "`debug`, `info`, `warn` or `error`"},
	}
}

// settingOf returns the row of the variable env; it panics on a name that is
// not in the table, a mistake of this package.
func settingOf(env string) setting {
	for _, s := range settings() {
		if s.env == env {
			return s
		}
	}
	panic("docsbot: no setting " + env)
}

// defaultOf is the default of the variable env, "" for none.
func defaultOf(env string) string { return settingOf(env).def }

// flagHelp is the help of a setting's flag: its meaning, then where the
// value comes from when the flag is not given.
func flagHelp(env string) string {
	s := settingOf(env)
	doc := strings.ReplaceAll(s.doc, "`", "")
	switch {
	case s.def != "":
		return fmt.Sprintf("%s (default $%s, else %s)", doc, s.env, s.def)
	case s.none != "":
		return fmt.Sprintf("%s (default $%s, else %s)", doc, s.env, s.none)
	}
	return fmt.Sprintf("%s (default $%s)", doc, s.env)
}

// secretSettings names the settings that hold secrets.
func secretSettings() []string {
	var out []string
	for _, s := range settings() {
		if s.secret {
			out = append(out, s.env)
		}
	}
	return out
}

// writeSettings lists the settings of the api or of the bot for a usage
// text: variable, meaning, default and flag.
func writeSettings(w io.Writer, api bool) {
	for _, s := range settings() {
		if s.api != api {
			continue
		}
		extra := []string{}
		switch {
		case s.def != "":
			extra = append(extra, "default "+s.def)
		case s.none != "":
			extra = append(extra, s.none)
		}
		if s.flag != "" {
			extra = append(extra, "flag --"+s.flag)
		}
		fmt.Fprintf(w, "  %-27s %s (%s)\n", s.env, strings.ReplaceAll(s.doc, "`", ""), strings.Join(extra, "; "))
	}
}

// shortDuration writes d as a person types it: 1m rather than 1m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
