package main

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/redact"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/bot/visitors/digest"
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
	logFormat          string
	logLevel           slog.Level
	// problems lists what is wrong with the settings, the missing ones first.
	problems []problem
}

// loadServeConfig resolves every setting of the bot. It collects all missing
// and malformed settings, each named by its variable, so one run tells the
// operator everything to fix.
func (r *runner) loadServeConfig(flags flagValues) (serveConfig, error) {
	s, err := r.source(flags)
	if err != nil {
		return serveConfig{}, err
	}
	get := s.Value
	var c serveConfig
	var missing []string
	secrets := s.secrets()
	bad := func(name, format string, args ...any) {
		c.problems = append(c.problems, problem{vars: []string{name}, text: fmt.Sprintf(format, args...)})
	}

	c.botToken = get(envSlackBotToken)
	c.appToken = get(envSlackAppToken)
	switch {
	case c.botToken == "":
		missing = append(missing, envSlackBotToken)
	case !strings.HasPrefix(c.botToken, "xoxb-"):
		bad(envSlackBotToken, "%s is not a bot token: it must start with xoxb- (OAuth & Permissions page of your Slack app)", envSlackBotToken)
	}
	switch {
	case c.appToken == "":
		missing = append(missing, envSlackAppToken)
	case !strings.HasPrefix(c.appToken, "xapp-"):
		bad(envSlackAppToken, "%s is not an app-level token: it must start with xapp- (Basic Information page, App-Level Tokens, scope connections:write)", envSlackAppToken)
	}

	c.slackAPIURL = get(envSlackAPIURL)
	switch {
	case hasCredentials(c.slackAPIURL):
		bad(envSlackAPIURL, "%s must not contain credentials: Slack takes only the tokens in %s and %s", envSlackAPIURL, envSlackBotToken, envSlackAppToken)
	case !isHTTPURL(c.slackAPIURL):
		bad(envSlackAPIURL, "%s %s is not an http(s) URL", envSlackAPIURL, redact.QuoteURL(c.slackAPIURL, secrets...))
	case !strings.HasSuffix(c.slackAPIURL, "/"):
		c.slackAPIURL += "/"
	}

	c.redisURL = get(envRedisURL)
	c.redisPrefix = get(envRedisPrefix)
	if strings.ContainsAny(c.redisPrefix, " *?[]") {
		bad(envRedisPrefix, "%s %s must not contain spaces or * ? [ ]", envRedisPrefix, redact.Quote(c.redisPrefix, secrets...))
	}
	if u, err := url.Parse(c.redisURL); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss" && u.Scheme != "unix") {
		bad(envRedisURL, "%s must be a redis://, rediss:// or unix:// URL", envRedisURL)
	}

	c.agent.PollInterval = duration(get(envPollInterval), envPollInterval, bad, secrets)
	c.agent.PollMaxInterval = duration(get(envPollMaxInterval), envPollMaxInterval, bad, secrets)
	if c.agent.PollMaxInterval < c.agent.PollInterval {
		c.problems = append(c.problems, problem{vars: []string{envPollMaxInterval, envPollInterval},
			text: fmt.Sprintf("%s (%s) is shorter than %s (%s)", envPollMaxInterval, c.agent.PollMaxInterval, envPollInterval, c.agent.PollInterval)})
	}
	c.visitors.CacheTTL = duration(get(envVisitorsTTL), envVisitorsTTL, bad, secrets)
	if v := get(envVisitorsBudget); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			bad(envVisitorsBudget, "%s %s must be a whole number of requests per hour, 1 or more", envVisitorsBudget, redact.Quote(v, secrets...))
		}
		c.visitors.Budget = n
	}
	if sched, err := digest.Parse(get(envDigestTime)); err != nil {
		bad(envDigestTime, "%s %s is not a digest time: write `[weekday] HH:MM [zone]`, such as `Mon 09:00 Europe/Paris`", envDigestTime, redact.Quote(get(envDigestTime), secrets...))
	} else {
		c.visitors.Digest = sched
	}
	c.bot.AllowedUsers = slackIDs(get(envAllowedUsers), envAllowedUsers, "UW", bad, secrets)
	c.bot.AllowedChannels = slackIDs(get(envAllowedChannels), envAllowedChannels, "CGD", bad, secrets)

	c.httpAddr = get(envHTTPAddr)
	if c.httpAddr != "" {
		if _, _, err := net.SplitHostPort(c.httpAddr); err != nil {
			bad(envHTTPAddr, "%s %s is not a listen address such as :8080 or 127.0.0.1:8080 (empty disables it)", envHTTPAddr, redact.Quote(c.httpAddr, secrets...))
		}
	}

	c.logFormat = strings.ToLower(get(envLogFormat))
	if c.logFormat != "text" && c.logFormat != "json" {
		bad(envLogFormat, "%s %s must be text or json", envLogFormat, redact.Quote(c.logFormat, secrets...))
	}
	if lv := get(envLogLevel); lv != "" {
		if err := c.logLevel.UnmarshalText([]byte(lv)); err != nil {
			bad(envLogLevel, "%s %s must be debug, info, warn or error", envLogLevel, redact.Quote(lv, secrets...))
		}
	}

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

// duration parses a positive duration setting; a bad one is a problem, and
// gives the default.
func duration(v, name string, bad func(string, string, ...any), secrets []string) time.Duration {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		bad(name, "%s %s is not a positive duration such as 10s or 1m", name, redact.Quote(v, secrets...))
		d, _ = time.ParseDuration(defaultOf(name))
	}
	return d
}

// slackIDs parses a comma-separated list of Slack ids whose first letter is
// one of kinds (user ids start with U or W, channel ids with C, G or D).
func slackIDs(v, name, kinds string, bad func(string, string, ...any), secrets []string) []string {
	var out []string
	for part := range strings.SplitSeq(v, ",") {
		id := strings.TrimSpace(part)
		if id == "" {
			continue
		}
		if !bot.IsSlackID(id, kinds) {
			bad(name, "%s: %s is not a Slack id (ids look like %c0123ABCD; copy them from the profile or channel details)", name, redact.Quote(id, secrets...), kinds[0])
			continue
		}
		out = append(out, id)
	}
	return out
}
