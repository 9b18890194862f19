package main

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// secretKinds are the prefixes of the secrets docsbot handles: Slack tokens
// and the docs API key. A value holding one is a secret in the wrong place.
func secretKinds() []string {
	return []string{"xoxb-", "xoxp-", "xoxa-", "xoxe", "xoxr-", "xoxs-", "xapp-", "mint_"}
}

// maskSecret shows a secret's kind and its last four characters (xoxb-…abcd),
// enough to tell secrets apart without revealing one; a short secret shows
// only its kind. It is the one masking helper of the command.
func maskSecret(s string) string {
	prefix := ""
	for _, k := range secretKinds() {
		if strings.HasPrefix(s, k) {
			prefix = s[:strings.IndexAny(s+"-", "-_")+1]
			break
		}
	}
	rest := s[len(prefix):]
	if len(rest) < 16 {
		return prefix + "…"
	}
	return prefix + "…" + rest[len(rest)-4:]
}

// scrubSecrets replaces every copy of each secret in s by its masked form,
// longest secret first so that no piece of a longer one survives.
func scrubSecrets(s string, secrets ...string) string {
	secrets = slices.Clone(secrets)
	slices.SortFunc(secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, maskSecret(sec))
		}
	}
	return s
}

// looksSecret reports whether a setting's value holds a secret: a Slack token
// or an API key by its prefix, or one of the known secret values.
func looksSecret(v string, secrets ...string) bool {
	for _, k := range secretKinds() {
		if strings.Contains(v, k) {
			return true
		}
	}
	for _, sec := range secrets {
		if sec != "" && strings.Contains(v, sec) {
			return true
		}
	}
	return false
}

// showValue is a setting's value as a problem quotes it: in quotes, or masked
// when it looks like a secret.
func showValue(v string, secrets ...string) string {
	if looksSecret(v, secrets...) {
		return maskSecret(v)
	}
	return strconv.Quote(v)
}

// showURL is showValue for a URL setting: a value that may carry credentials
// (user:password@) is masked too.
func showURL(v string, secrets ...string) string {
	if strings.Contains(v, "@") {
		return maskSecret(v)
	}
	return showValue(v, secrets...)
}

// hasCredentials reports whether a URL setting carries user:password@.
func hasCredentials(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.User != nil
}

// redisPassword is the password in a Redis URL, or "".
func redisPassword(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}

// knownSecrets are the secret values among the settings: the Slack tokens,
// the docs API key and the Redis password, from the flags given (apiKeyFlag,
// redisURLFlag), the environment or the .env map env. Problems with the
// settings are scrubbed of them.
func (r *runner) knownSecrets(env map[string]string, apiKeyFlag, redisURLFlag string) []string {
	get := func(flagValue, name string) string {
		if v := strings.TrimSpace(flagValue); v != "" {
			return v
		}
		v, _ := r.lookup(env, name)
		return v
	}
	var out []string
	for _, s := range []string{
		get("", envSlackBotToken),
		get("", envSlackAppToken),
		get(apiKeyFlag, envAPIKey),
		redisPassword(get(redisURLFlag, envRedisURL)),
	} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
