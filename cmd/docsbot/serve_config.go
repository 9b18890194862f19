package main

import (
	"fmt"
	"log/slog"

	"strconv"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/redact"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/bot/visitors/digest"
	"github.com/docsbot/docsbot/store"
)

// serveConfig is everything `docsbot serve` runs with.
type serveConfig struct {
	api                config
	botToken, appToken string
	slackAPIURL        string
	redisURL           string
	redisPrefix        string
	httpAddr           string
	bot                bot.Config
	agent              agent.Config
	visitors           visitors.Config
	audit              store.AuditOptions
	logFormat          string
	logLevel           slog.Level
	// problems lists what is wrong with the settings, the missing ones first.
	problems []problem
}

// loadServeConfig resolves every setting of the bot. The table's checks
// (settings_check.go) collect every malformed setting, each named by its
// variable, and the missing ones come first, so one run tells the operator
// everything to fix.
func (r *runner) loadServeConfig(flags flagValues) (serveConfig, error) {
	s, err := r.source(flags)
	if err != nil {
		return serveConfig{}, err
	}
	get := s.Value
	var c serveConfig
	var missing []string
	secrets := s.secrets()
	for _, p := range s.Problems(func(v string) string { return redact.Quote(v, secrets...) }) {
		c.problems = append(c.problems, problem{vars: []string{p.Env}, text: p.Text})
	}

	c.botToken, c.appToken = get(envSlackBotToken), get(envSlackAppToken)
	c.bot.Mode, c.bot.SigningSecret = bot.Mode(strings.ToLower(get(envSlackMode))), get(envSigningSecret)
	required := []string{envSlackBotToken, envSlackAppToken}
	if c.bot.Mode == bot.ModeHTTP {
		required = []string{envSlackBotToken, envSigningSecret}
	}
	for _, env := range required {
		if get(env) == "" {
			missing = append(missing, env)
		}
	}
	c.slackAPIURL = get(envSlackAPIURL)
	if !strings.HasSuffix(c.slackAPIURL, "/") {
		c.slackAPIURL += "/"
	}
	c.redisURL, c.redisPrefix = get(envRedisURL), get(envRedisPrefix)
	c.agent.PollInterval, c.agent.PollMaxInterval = durationOf(s, envPollInterval), durationOf(s, envPollMaxInterval)
	if c.agent.PollMaxInterval < c.agent.PollInterval {
		c.problems = append(c.problems, problem{vars: []string{envPollMaxInterval, envPollInterval},
			text: fmt.Sprintf("%s (%s) is shorter than %s (%s)", envPollMaxInterval, c.agent.PollMaxInterval, envPollInterval, c.agent.PollInterval)})
	}
	c.visitors.CacheTTL = durationOf(s, envVisitorsTTL)
	c.visitors.Budget, _ = strconv.Atoi(get(envVisitorsBudget))
	c.visitors.Digest, _ = digest.Parse(get(envDigestTime))
	c.bot.AllowedUsers = slackIDs(get(envAllowedUsers), "UW", true)
	c.bot.AllowedChannels = slackIDs(get(envAllowedChannels), "CGD", true)
	c.bot.Editors, _ = roles.ParseEditors(slackIDs(get(envEditors), "UWS", true)) // checked by the table
	c.audit = auditOptions(s)
	c.httpAddr = get(envHTTPAddr)
	if c.httpAddr == "" && c.bot.Mode == bot.ModeHTTP {
		c.problems = append(c.problems, problem{vars: []string{envHTTPAddr},
			text: envHTTPAddr + " is empty, but in http mode Slack's requests are served there: set an address such as :8080"})
	}
	c.logFormat = strings.ToLower(get(envLogFormat))
	_ = c.logLevel.UnmarshalText([]byte(get(envLogLevel))) // checked by the table

	api, apiProblems := r.apiSettings(s, secrets)
	c.api = api
	for _, p := range apiProblems {
		switch {
		case p.missing:
			missing = append(missing, p.vars...)
		case p.fix != "":
			p.text, p.fix = p.text+"\n"+p.fix, ""
			fallthrough
		default:
			c.problems = append(c.problems, p)
		}
	}
	if len(missing) > 0 {
		c.problems = append([]problem{{vars: missing, text: "missing " + strings.Join(missing, ", ")}}, c.problems...)
	}
	if len(c.problems) > 0 {
		texts := make([]string, len(c.problems))
		for i := range c.problems {
			c.problems[i].text = redact.Scrub(c.problems[i].text, secrets...)
			texts[i] = c.problems[i].text
		}
		return c, &exitError{
			code: exitUsage,
			msg:  "the Slack bot is not configured: " + strings.Join(texts, "; "),
			fix:  "set them in the environment or in " + r.dotenvPath() + " (see deploy/.env.example); the README shows how to create the Slack app and its tokens",
		}
	}
	return c, nil
}

// auditOptions are the audit trail's settings (DOCSBOT_AUDIT_TEXT,
// DOCSBOT_AUDIT_RETENTION), checked by the table; `docsbot serve` and
// `docsbot audit` share them.
func auditOptions(s source) store.AuditOptions {
	keep, _ := strconv.ParseBool(s.Value(envAuditText))
	return store.AuditOptions{KeepText: keep, Retention: durationOf(s, envAuditRetention)}
}
