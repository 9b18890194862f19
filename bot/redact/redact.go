// Package redact masks the secrets docsbot handles (Slack tokens, the docs
// API key, the Redis password) wherever a value may reach a person or a log:
// a secret shows its kind and its last four characters, never more.
//
// It lives under bot because it knows Slack's token kinds, which docsapi and
// store must not; the bot, the projects file and the command import it. The
// docs API client masks its own key with docsapi.Mask, the one masking
// shape, which Mask here calls with every kind.
package redact

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/docsbot/docsbot/docsapi"
)

// Kinds are the prefixes of the secrets docsbot handles: Slack tokens and
// the docs API key. A value holding one is a secret in the wrong place. It
// is the one list: the settings checks, doctor and the projects file ask it.
func Kinds() []string {
	return []string{"xoxb-", "xoxp-", "xoxa-", "xoxe", "xoxr-", "xoxs-", "xapp-", docsapi.KeyPrefix}
}

// Mask shows a secret's kind and its last four characters (xoxb-…abcd),
// enough to tell secrets apart without revealing one; a short secret shows
// only its kind. It is docsapi.Mask with every kind in Kinds.
func Mask(s string) string { return docsapi.Mask(s, Kinds()...) }

// MaskOr is Mask, or "(none)" for no secret.
func MaskOr(s string) string {
	if s == "" {
		return "(none)"
	}
	return Mask(s)
}

// Scrub replaces every copy of each secret in s by its masked form, longest
// secret first so that no piece of a longer one survives.
func Scrub(s string, secrets ...string) string {
	secrets = slices.Clone(secrets)
	slices.SortFunc(secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, Mask(sec))
		}
	}
	return s
}

// Looks reports whether a value holds a secret: a Slack token or an API key
// by its prefix, or one of the known secret values.
func Looks(v string, secrets ...string) bool {
	for _, k := range Kinds() {
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

// Quote is a value as a message quotes it: in quotes, or masked when it
// looks like a secret.
func Quote(v string, secrets ...string) string {
	if Looks(v, secrets...) {
		return Mask(v)
	}
	return strconv.Quote(v)
}

// QuoteURL is Quote for a URL: one that may carry credentials (user:password@)
// is masked too.
func QuoteURL(v string, secrets ...string) string {
	if strings.Contains(v, "@") {
		return Mask(v)
	}
	return Quote(v, secrets...)
}
