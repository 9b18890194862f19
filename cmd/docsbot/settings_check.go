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
type check = func(v string, quote func(string) string) string

// must is the check of a value that ok accepts; its problem quotes the value.
func must(ok func(string) bool, problem string) check {
	return func(v string, quote func(string) string) string {
		if ok(v) {
			return ""
		}
		return " " + quote(v) + " " + problem
	}
}

// prefixed is the check of a token that starts with prefix; its problem
// never quotes the value.
func prefixed(prefix, problem string) check {
	return func(v string, _ func(string) string) string {
		if strings.HasPrefix(v, prefix) {
			return ""
		}
		return problem
	}
}

func checkSlackAPIURL(v string, quote func(string) string) string {
	if hasCredentials(v) {
		return " must not contain credentials: Slack takes only the tokens in " + envSlackBotToken + " and " + envSlackAppToken
	}
	return must(isHTTPURL, "is not an http(s) URL")(v, quote)
}

// checkSlackMode accepts socket or http, in any case.
func checkSlackMode(v string, q func(string) string) string {
	ok := func(v string) bool {
		m := bot.Mode(strings.ToLower(v))
		return m == bot.ModeSocket || m == bot.ModeHTTP
	}
	return must(ok, "must be socket or http")(v, q)
}

func checkRedisURL(v string, _ func(string) string) string {
	if u, err := url.Parse(v); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss" && u.Scheme != "unix") {
		return " must be a redis://, rediss:// or unix:// URL"
	}
	return ""
}

func checkDuration(v string, q func(string) string) string {
	return must(isDuration, "is not a positive duration such as 10s or 1m")(v, q)
}

func checkRedisPrefix(v string, q func(string) string) string {
	return must(func(v string) bool { return !strings.ContainsAny(v, " *?[]") }, "must not contain spaces or * ? [ ]")(v, q)
}

func checkBudget(v string, q func(string) string) string {
	ok := func(v string) bool { n, err := strconv.Atoi(v); return err == nil && n >= 1 }
	return must(ok, "must be a whole number of requests per hour, 1 or more")(v, q)
}

func checkBool(v string, q func(string) string) string {
	ok := func(v string) bool { _, err := strconv.ParseBool(v); return err == nil }
	return must(ok, "must be true or false")(v, q)
}

func checkListenAddr(v string, q func(string) string) string {
	ok := func(v string) bool { _, _, err := net.SplitHostPort(v); return err == nil }
	return must(ok, "is not a listen address such as :8080 or 127.0.0.1:8080 (empty disables it)")(v, q)
}

func checkLogLevel(v string, q func(string) string) string {
	ok := func(v string) bool { return new(slog.Level).UnmarshalText([]byte(v)) == nil }
	return must(ok, "must be debug, info, warn or error")(v, q)
}

func checkDigestTime(v string, q func(string) string) string {
	ok := func(v string) bool { _, err := digest.Parse(v); return err == nil }
	return must(ok, "is not a digest time: write `[weekday] HH:MM [zone]`, such as `Mon 09:00 Europe/Paris`")(v, q)
}

// checkLogFormat quotes the value as it is used, in lower case.
func checkLogFormat(v string, quote func(string) string) string {
	return must(func(v string) bool { return v == "text" || v == "json" }, "must be text or json")(strings.ToLower(v), quote)
}

// checkSlackIDs checks a comma-separated list of Slack ids whose first
// letter is one of kinds (user ids start with U or W, channel ids with C, G
// or D), naming every one that is not an id.
func checkSlackIDs(env, kinds string) check {
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

func isDuration(v string) bool {
	d, err := time.ParseDuration(v)
	return err == nil && d > 0
}

// durationOf parses a duration setting, or its default when it is not one
// (its check names the problem).
func durationOf(s source, env string) time.Duration {
	v := s.Value(env)
	if !isDuration(v) {
		v = defaultOf(env)
	}
	d, _ := time.ParseDuration(v)
	return d
}
