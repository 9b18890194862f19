// Package secret is docsbot's one way of keeping secrets out of what a
// person or a log reads: a secret shows its kind and its last four
// characters (mint_…abcd), never more; known secret values are replaced by
// that form wherever they occur in a text; a URL shows no credentials.
//
// It knows no kind of secret itself. Kinds are prefixes the caller names,
// taken from those who know them: docsapi.KeyPrefix for the docs API key,
// bot/slackid for Slack's tokens, joined by bot.SecretKinds. So docsapi and
// store, which may import it, know nothing of Slack through it; it lives
// under docsapi only because docsbot keeps its top-level layout, and
// imports nothing of docsbot.
package secret

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Kinds are the prefixes that name a kind of secret, such as "mint_": a
// value that starts with one shows it when masked, and a value that holds
// one is a secret.
type Kinds []string

// Mask shows a secret as its kind and its last four characters
// (mint_…abcd), enough to tell secrets apart without revealing one. A short
// secret (under 16 characters after its kind) shows only its kind; a secret
// of no kind in k shows "…" and its last four characters.
func (k Kinds) Mask(s string) string {
	prefix := ""
	for _, kind := range k {
		if strings.HasPrefix(s, kind) {
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

// MaskOr is Mask, or "(none)" for no secret.
func (k Kinds) MaskOr(s string) string {
	if s == "" {
		return "(none)"
	}
	return k.Mask(s)
}

// Scrub replaces every copy of each secret in s by its masked form, longest
// secret first so that no piece of a longer one survives.
func (k Kinds) Scrub(s string, secrets ...string) string {
	secrets = slices.Clone(secrets)
	slices.SortFunc(secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, k.Mask(sec))
		}
	}
	return s
}

// Looks reports whether a value holds a secret: a kind of k, or one of the
// known secret values.
func (k Kinds) Looks(v string, secrets ...string) bool {
	for _, kind := range k {
		if strings.Contains(v, kind) {
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
func (k Kinds) Quote(v string, secrets ...string) string {
	if k.Looks(v, secrets...) {
		return k.Mask(v)
	}
	return strconv.Quote(v)
}

// QuoteURL is Quote for a URL: one that may carry credentials (user:password@)
// is masked too.
func (k Kinds) QuoteURL(v string, secrets ...string) string {
	if strings.Contains(v, "@") {
		return k.Mask(v)
	}
	return k.Quote(v, secrets...)
}

// RedactedURL is a URL with its credentials replaced by REDACTED, and the
// strings of those credentials that must never appear in a message.
type RedactedURL struct {
	// URL is the URL with its user information (user name and password)
	// replaced, fit for logs and messages.
	URL string
	// Secrets are the user information and the password, as written and
	// unescaped. The user name alone is not among them: it is no secret,
	// and a short one would blank out unrelated words.
	Secrets []string
}

// RedactURL removes the user information from raw. It works on the text, so
// it also covers URLs that do not parse.
func RedactURL(raw string) RedactedURL {
	start := 0
	if i := strings.Index(raw, "://"); i >= 0 {
		start = i + len("://")
	}
	at := strings.LastIndex(raw, "@")
	if at < start {
		return RedactedURL{URL: raw}
	}
	info := raw[start:at]
	r := RedactedURL{URL: raw[:start] + "REDACTED" + raw[at:]}
	add := func(s string) {
		if s != "" {
			r.Secrets = append(r.Secrets, s)
		}
	}
	add(info)
	if dec, err := url.PathUnescape(info); err == nil {
		add(dec)
	}
	if _, pass, ok := strings.Cut(info, ":"); ok {
		add(pass)
		if dec, err := url.PathUnescape(pass); err == nil {
			add(dec)
		}
	}
	return r
}

// Scrub replaces every credential of the URL in msg by REDACTED.
func (r RedactedURL) Scrub(msg string) string {
	for _, s := range r.Secrets {
		msg = strings.ReplaceAll(msg, s, "REDACTED")
	}
	return msg
}
