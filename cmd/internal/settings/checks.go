package settings

import (
	"errors"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Check is the check of a setting's values (Setting.Check): the words that
// follow the variable's name, "" for a good value. quote shows a value as a
// message may, masked when it holds a secret.
type Check = func(v string, quote func(string) string) string

// Must is the check of a value that ok accepts; its problem quotes the value.
func Must(ok func(string) bool, problem string) Check {
	return func(v string, quote func(string) string) string {
		if ok(v) {
			return ""
		}
		return " " + quote(v) + " " + problem
	}
}

// Prefixed is the check of a token that starts with prefix; its problem
// never quotes the value.
func Prefixed(prefix, problem string) Check {
	return func(v string, _ func(string) string) string {
		if strings.HasPrefix(v, prefix) {
			return ""
		}
		return problem
	}
}

// OneOf is the check of a value that is one of values, in any case.
func OneOf(values ...string) Check { return OneOfVar(nil, values...) }

// Var is the check of a value that parse accepts, which stores what parse
// makes of it in *p (unless p is nil), as flag.Var stores a flag's value: a
// program that reads the setting from *p parses its value once, by the
// check, and a value it cannot use is the setting's problem, never a
// silent zero. The problem quotes the value.
func Var[T any](p *T, parse func(string) (T, error), problem string) Check {
	return func(v string, quote func(string) string) string {
		x, err := parse(v)
		if err != nil {
			return " " + quote(v) + " " + problem
		}
		if p != nil {
			*p = x
		}
		return ""
	}
}

// DurationVar checks a positive duration such as 10s and stores it in *p.
func DurationVar(p *time.Duration) Check {
	return Var(p, func(v string) (time.Duration, error) {
		d, err := time.ParseDuration(v)
		if err == nil && d <= 0 {
			err = errors.New("not positive")
		}
		return d, err
	}, "is not a positive duration such as 10s or 1m")
}

// Duration checks a positive duration such as 10s.
func Duration(v string, q func(string) string) string { return DurationVar(nil)(v, q) }

// BoolVar checks true or false (strconv.ParseBool) and stores it in *p.
func BoolVar(p *bool) Check { return Var(p, strconv.ParseBool, "must be true or false") }

// Bool checks true or false (strconv.ParseBool).
func Bool(v string, q func(string) string) string { return BoolVar(nil)(v, q) }

// OneOfVar checks a value that is one of values, in any case, and stores
// that one of values in *p.
func OneOfVar[T ~string](p *T, values ...T) Check {
	words := make([]string, len(values))
	for i, a := range values {
		words[i] = string(a)
	}
	return Var(p, func(v string) (T, error) {
		for _, a := range values {
			if strings.EqualFold(v, string(a)) {
				return a, nil
			}
		}
		return "", errors.New("none of them")
	}, "must be "+strings.Join(words[:len(words)-1], ", ")+" or "+words[len(words)-1])
}

// ListenAddr checks a listen address such as :8080.
func ListenAddr(v string, q func(string) string) string {
	ok := func(v string) bool { _, _, err := net.SplitHostPort(v); return err == nil }
	return Must(ok, "is not a listen address such as :8080 or 127.0.0.1:8080 (empty disables it)")(v, q)
}

// LoopbackAddr checks the listen address of something meant for this
// machine alone (Go's profiles): its host must be a loopback address
// (127.0.0.1, ::1) or localhost. An empty host (":6060") or a wildcard
// (0.0.0.0, ::) listens on every interface and is refused, as is any other
// host; the problem says why and what to write.
func LoopbackAddr(v string, q func(string) string) string {
	host, port, err := net.SplitHostPort(v)
	if err != nil || port == "" {
		return " " + q(v) + " is not a listen address such as 127.0.0.1:6060"
	}
	fix := ": it serves docsbot's internals and must listen on this machine only; write 127.0.0.1:" + port + " (or [::1]:" + port + ", localhost:" + port + ")"
	if strings.EqualFold(host, "localhost") {
		return ""
	}
	ip := net.ParseIP(host)
	switch {
	case ip != nil && ip.IsLoopback():
		return ""
	case host == "" || (ip != nil && ip.IsUnspecified()):
		return " " + q(v) + " listens on every network interface, where other machines reach it" + fix
	}
	return " " + q(v) + " is not a loopback address, so other machines may reach it" + fix
}

// LogLevelVar checks a log/slog level (debug, info, warn or error) and
// stores it in *p.
func LogLevelVar(p *slog.Level) Check {
	return Var(p, func(v string) (slog.Level, error) {
		var l slog.Level
		return l, l.UnmarshalText([]byte(v))
	}, "must be debug, info, warn or error")
}

// LogLevel checks a log/slog level: debug, info, warn or error.
func LogLevel(v string, q func(string) string) string { return LogLevelVar(nil)(v, q) }

// HTTPURL checks an http(s) URL without credentials; credentials is the
// problem of one that carries them.
func HTTPURL(credentials string) Check {
	return func(v string, quote func(string) string) string {
		if HasCredentials(v) {
			return credentials
		}
		return Must(IsHTTPURL, "is not an http(s) URL")(v, quote)
	}
}

// IDsVar checks a comma-separated list of ids that isID accepts, naming
// every one that it does not (env is the variable, like names the ids'
// shape), and stores the ids in *p (unless p is nil).
func IDsVar(p *[]string, env, like string, isID func(string) bool) Check {
	return func(v string, quote func(string) string) string {
		var bad []string
		for _, id := range List(v, isID, false) {
			bad = append(bad, ": "+quote(id)+" is not a Slack id (ids look like "+like+"; copy them from the profile or channel details)")
		}
		if len(bad) > 0 {
			return strings.Join(bad, "; "+env)
		}
		if p != nil {
			*p = List(v, isID, true)
		}
		return ""
	}
}

// IDs checks a comma-separated list of ids that isID accepts, naming every
// one that it does not; env is the variable, like names the ids' shape.
func IDs(env, like string, isID func(string) bool) Check { return IDsVar(nil, env, like, isID) }

// List returns the items of a comma-separated list that isID accepts, or,
// when good is false, the ones it does not.
func List(v string, isID func(string) bool, good bool) []string {
	var out []string
	for part := range strings.SplitSeq(v, ",") {
		if id := strings.TrimSpace(part); id != "" && isID(id) == good {
			out = append(out, id)
		}
	}
	return out
}

// IsDuration reports whether v is a positive duration.
func IsDuration(v string) bool {
	d, err := time.ParseDuration(v)
	return err == nil && d > 0
}

// IsHTTPURL reports whether raw is an absolute http(s) URL.
func IsHTTPURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// HasCredentials reports whether a URL carries user:password@.
func HasCredentials(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.User != nil
}

// URLPassword is the password in a URL, or "".
func URLPassword(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}
