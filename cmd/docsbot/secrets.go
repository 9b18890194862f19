package main

import (
	"net/url"
	"strings"
)

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
