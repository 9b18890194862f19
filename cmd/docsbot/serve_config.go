package main

import (
	"cmp"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/redact"
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

// serveFlags are the flags of serve: the non-secret settings. Secrets come
// only from the environment or .env.
type serveFlags struct {
	api                                apiFlags
	slackAPIURL, redisURL, redisPrefix string
	pollInterval, pollMax, visitorsTTL string
	allowedUsers, allowedChans         string
	logFormat, logLevel                string
	httpAddr                           string
	httpAddrSet                        bool
}

func (f *serveFlags) register(fs *flag.FlagSet) {
	f.api.register(fs)
	for _, x := range []struct {
		env string
		to  *string
	}{
		{envSlackAPIURL, &f.slackAPIURL}, {envRedisURL, &f.redisURL}, {envRedisPrefix, &f.redisPrefix}, {envPollInterval, &f.pollInterval},
		{envPollMaxInterval, &f.pollMax}, {envVisitorsTTL, &f.visitorsTTL}, {envAllowedUsers, &f.allowedUsers},
		{envAllowedChannels, &f.allowedChans}, {envLogFormat, &f.logFormat}, {envLogLevel, &f.logLevel},
	} {
		fs.StringVar(x.to, settingOf(x.env).flag, "", flagHelp(x.env))
	}
	fs.Func(settingOf(envHTTPAddr).flag, flagHelp(envHTTPAddr), func(v string) error {
		f.httpAddr, f.httpAddrSet = v, true
		return nil
	})
}

// loadServeConfig resolves every setting of the bot. It collects all missing
// and malformed settings, each named by its variable, so one run tells the
// operator everything to fix.
func (r *runner) loadServeConfig(f serveFlags) (serveConfig, error) {
	env, err := r.dotenv()
	if err != nil {
		return serveConfig{}, err
	}
	get := func(flagValue, name string) string {
		if v := strings.TrimSpace(flagValue); v != "" {
			return v
		}
		v, _ := r.lookup(env, name)
		return v
	}
	var c serveConfig
	var missing []string
	secrets := r.knownSecrets(env, f.api.apiKey, f.redisURL)
	bad := func(name, format string, args ...any) {
		c.problems = append(c.problems, problem{vars: []string{name}, text: fmt.Sprintf(format, args...)})
	}

	c.botToken = get("", envSlackBotToken)
	c.appToken = get("", envSlackAppToken)
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

	c.slackAPIURL = cmp.Or(get(f.slackAPIURL, envSlackAPIURL), defaultOf(envSlackAPIURL))
	if hasCredentials(c.slackAPIURL) {
		bad(envSlackAPIURL, "%s must not contain credentials: Slack takes only the tokens in %s and %s", envSlackAPIURL, envSlackBotToken, envSlackAppToken)
	} else if u, err := url.Parse(c.slackAPIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad(envSlackAPIURL, "%s %s is not an http(s) URL", envSlackAPIURL, redact.QuoteURL(c.slackAPIURL, secrets...))
	} else if !strings.HasSuffix(c.slackAPIURL, "/") {
		c.slackAPIURL += "/"
	}

	c.redisURL = cmp.Or(get(f.redisURL, envRedisURL), defaultOf(envRedisURL))
	c.redisPrefix = cmp.Or(get(f.redisPrefix, envRedisPrefix), defaultOf(envRedisPrefix))
	if strings.ContainsAny(c.redisPrefix, " *?[]") {
		bad(envRedisPrefix, "%s %s must not contain spaces or * ? [ ]", envRedisPrefix, redact.Quote(c.redisPrefix, secrets...))
	}
	if u, err := url.Parse(c.redisURL); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss" && u.Scheme != "unix") {
		bad(envRedisURL, "%s must be a redis://, rediss:// or unix:// URL", envRedisURL)
	}

	c.agent.PollInterval = duration(get(f.pollInterval, envPollInterval), envPollInterval, agent.DefaultPollInterval, bad, secrets)
	c.agent.PollMaxInterval = duration(get(f.pollMax, envPollMaxInterval), envPollMaxInterval, agent.DefaultPollMaxInterval, bad, secrets)
	if c.agent.PollMaxInterval < c.agent.PollInterval {
		c.problems = append(c.problems, problem{vars: []string{envPollMaxInterval, envPollInterval},
			text: fmt.Sprintf("%s (%s) is shorter than %s (%s)", envPollMaxInterval, c.agent.PollMaxInterval, envPollInterval, c.agent.PollInterval)})
	}
	c.visitors.CacheTTL = duration(get(f.visitorsTTL, envVisitorsTTL), envVisitorsTTL, visitors.DefaultCacheTTL, bad, secrets)
	if v := get("", envVisitorsBudget); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			bad(envVisitorsBudget, "%s %s must be a whole number of requests per hour, 1 or more", envVisitorsBudget, redact.Quote(v, secrets...))
		}
		c.visitors.Budget = n
	}
	c.bot.AllowedUsers = slackIDs(get(f.allowedUsers, envAllowedUsers), envAllowedUsers, "UW", bad, secrets)
	c.bot.AllowedChannels = slackIDs(get(f.allowedChans, envAllowedChannels), envAllowedChannels, "CGD", bad, secrets)

	c.httpAddr = defaultOf(envHTTPAddr)
	if f.httpAddrSet {
		c.httpAddr = strings.TrimSpace(f.httpAddr)
	} else if v, ok := r.setting(env, envHTTPAddr); ok {
		c.httpAddr = v
	}
	if c.httpAddr != "" {
		if _, _, err := net.SplitHostPort(c.httpAddr); err != nil {
			bad(envHTTPAddr, "%s %s is not a listen address such as :8080 or 127.0.0.1:8080 (empty disables it)", envHTTPAddr, redact.Quote(c.httpAddr, secrets...))
		}
	}

	c.logFormat = strings.ToLower(cmp.Or(get(f.logFormat, envLogFormat), defaultOf(envLogFormat)))
	if c.logFormat != "text" && c.logFormat != "json" {
		bad(envLogFormat, "%s %s must be text or json", envLogFormat, redact.Quote(c.logFormat, secrets...))
	}
	if lv := get(f.logLevel, envLogLevel); lv != "" {
		if err := c.logLevel.UnmarshalText([]byte(lv)); err != nil {
			bad(envLogLevel, "%s %s must be debug, info, warn or error", envLogLevel, redact.Quote(lv, secrets...))
		}
	}

	api, apiProblems := r.apiSettings(env, f.api, secrets)
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

// setting looks name up like lookup, but tells a variable set to "" apart
// from one not set at all (DOCSBOT_HTTP_ADDR= disables the endpoint).
func (r *runner) setting(env map[string]string, name string) (string, bool) {
	if r.lookupEnv != nil {
		if v, ok := r.lookupEnv(name); ok {
			return strings.TrimSpace(v), true
		}
	} else if v := r.getenv(name); v != "" {
		return strings.TrimSpace(v), true
	}
	v, ok := env[name]
	return strings.TrimSpace(v), ok
}

// duration parses a positive duration setting, or returns def when unset.
func duration(v, name string, def time.Duration, bad func(string, string, ...any), secrets []string) time.Duration {
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		bad(name, "%s %s is not a positive duration such as 10s or 1m", name, redact.Quote(v, secrets...))
		return def
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
