package main

import (
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/visitors/digest"
)

// The checks of the settings table's values (settings.Setting.Check): each
// returns the words that follow the variable's name, "" for a good value.

// prefixed checks that a token starts with prefix.
func prefixed(prefix, problem string) func(string, func(string) string) string {
	return func(v string, _ func(string) string) string {
		if strings.HasPrefix(v, prefix) {
			return ""
		}
		return problem
	}
}

func checkSlackAPIURL(v string, quote func(string) string) string {
	switch {
	case hasCredentials(v):
		return " must not contain credentials: Slack takes only the tokens in " + envSlackBotToken + " and " + envSlackAppToken
	case !isHTTPURL(v):
		return " " + quote(v) + " is not an http(s) URL"
	}
	return ""
}

func checkRedisURL(v string, _ func(string) string) string {
	if u, err := url.Parse(v); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss" && u.Scheme != "unix") {
		return " must be a redis://, rediss:// or unix:// URL"
	}
	return ""
}

func checkRedisPrefix(v string, quote func(string) string) string {
	if strings.ContainsAny(v, " *?[]") {
		return " " + quote(v) + " must not contain spaces or * ? [ ]"
	}
	return ""
}

func checkDuration(v string, quote func(string) string) string {
	if d, err := time.ParseDuration(v); err != nil || d <= 0 {
		return " " + quote(v) + " is not a positive duration such as 10s or 1m"
	}
	return ""
}

func checkBudget(v string, quote func(string) string) string {
	if n, err := strconv.Atoi(v); err != nil || n < 1 {
		return " " + quote(v) + " must be a whole number of requests per hour, 1 or more"
	}
	return ""
}

func checkListenAddr(v string, quote func(string) string) string {
	if _, _, err := net.SplitHostPort(v); err != nil {
		return " " + quote(v) + " is not a listen address such as :8080 or 127.0.0.1:8080 (empty disables it)"
	}
	return ""
}

func checkLogFormat(v string, quote func(string) string) string {
	if v = strings.ToLower(v); v != "text" && v != "json" {
		return " " + quote(v) + " must be text or json"
	}
	return ""
}

func checkLogLevel(v string, quote func(string) string) string {
	var lv slog.Level
	if lv.UnmarshalText([]byte(v)) != nil {
		return " " + quote(v) + " must be debug, info, warn or error"
	}
	return ""
}

func checkDigestTime(v string, quote func(string) string) string {
	if _, err := digest.Parse(v); err != nil {
		return " " + quote(v) + " is not a digest time: write `[weekday] HH:MM [zone]`, such as `Mon 09:00 Europe/Paris`"
	}
	return ""
}

// checkSlackIDs checks a comma-separated list of Slack ids whose first
// letter is one of kinds (user ids start with U or W, channel ids with C, G
// or D), naming every one that is not an id.
func checkSlackIDs(env, kinds string) func(string, func(string) string) string {
	return func(v string, quote func(string) string) string {
		var bad []string
		for _, id := range slackIDs(v, kinds, false) {
			bad = append(bad, ": "+quote(id)+" is not a Slack id (ids look like "+kinds[:1]+"0123ABCD; copy them from the profile or channel details)")
		}
		return strings.Join(bad, "; "+env)
	}
}

// slackIDs returns the ids of a comma-separated list that are Slack ids of
// kinds, or, when good is false, the ones that are not.
func slackIDs(v, kinds string, good bool) []string {
	var out []string
	for part := range strings.SplitSeq(v, ",") {
		if id := strings.TrimSpace(part); id != "" && bot.IsSlackID(id, kinds) == good {
			out = append(out, id)
		}
	}
	return out
}

// durationOf parses a duration setting, or its default when it is not one
// (its check names the problem).
func durationOf(s source, env string) time.Duration {
	d, err := time.ParseDuration(s.Value(env))
	if err != nil || d <= 0 {
		d, _ = time.ParseDuration(defaultOf(env))
	}
	return d
}
