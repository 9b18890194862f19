package secret

import (
	"regexp"
	"strings"
	"unicode"
)

// The markers that stand where Redact took a secret out: visible, so that a
// reader knows something was there, and never themselves taken for one.
const (
	RedactedToken      = "[redacted token]"
	RedactedSecret     = "[redacted secret]"
	RedactedPrivateKey = "[redacted private key]"
	// RedactedUserInfo replaces a URL's user name and password.
	RedactedUserInfo = "[redacted]"
)

// Redact takes out of text what looks like a secret by its shape, for text
// that someone else wrote and docsbot shows or logs (a deployment's build
// logs, an error the docs API sent back): it knows no secret value, unlike
// Kinds.Scrub, and so catches the ones nobody told docsbot about.
//
// It replaces, each by a marker (RedactedToken, ...):
//   - private key PEM blocks (BEGIN ... PRIVATE KEY to END, or to the end of
//     text when the END is missing; an END whose BEGIN was cut off takes the
//     base64 lines before it);
//   - the user information of URLs (scheme://user:password@host);
//   - the value of an Authorization or Proxy-Authorization header, and the
//     token after Bearer;
//   - AWS secret access keys (40 characters after aws_secret_access_key,
//     secret_key and the like);
//   - docs platform keys (mint_…, mint_dsc_…), Slack tokens (xoxb-, xoxp-,
//     xoxa-, xoxe-, xoxr-, xoxs-, … and xoxe.xoxp-), app-level tokens
//     (xapp-), GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_) and
//     AWS access key ids (AKIA or ASIA and 16 more);
//   - the value of NAME=value and NAME: value where the name says it holds a
//     secret (secretName: SECRET, TOKEN, KEY, PASSWORD, PASSWD, CREDENTIAL,
//     AUTH, PRIVATE), keeping the name.
//
// Invariants (redact_test.go): it never panics, lets no secret of those
// shapes through wherever it sits in the text, and is idempotent:
// Redact(Redact(s)) == Redact(s). It errs on the side of taking out too
// much: a word that only looks like a secret is lost, never a secret.
func Redact(text string) string {
	for _, r := range redactions {
		text = r.apply(text)
	}
	return text
}

// redaction is one rule of Redact: a pattern, and what replaces a match
// (keep says to leave the match as it is).
type redaction struct {
	re      *regexp.Regexp
	replace func(m []string) (out string, keep bool)
}

// apply replaces every match of r in text. After a match it keeps, it looks
// again from where the match's last group (its value) begins, so that a
// name it let be (note=, Error:) hides no secret in what follows it.
func (r redaction) apply(text string) string {
	if !r.re.MatchString(text) {
		return text
	}
	var b strings.Builder
	last, p := 0, 0
	for p <= len(text) {
		idx := r.re.FindStringSubmatchIndex(text[p:])
		if idx == nil {
			break
		}
		m := make([]string, len(idx)/2)
		for i := range m {
			if idx[2*i] >= 0 {
				idx[2*i], idx[2*i+1] = idx[2*i]+p, idx[2*i+1]+p
				m[i] = text[idx[2*i]:idx[2*i+1]]
			}
		}
		start, end := idx[0], idx[1]
		out, keep := r.replace(m)
		if keep {
			next := idx[len(idx)-2]
			if next <= start {
				next = start + 1
			}
			p = next
			continue
		}
		b.WriteString(text[last:start])
		b.WriteString(out)
		last, p = end, end
		if end == start {
			p++
		}
	}
	b.WriteString(text[last:])
	return b.String()
}

// with replaces the whole match by marker.
func with(marker string) func([]string) (string, bool) {
	return func([]string) (string, bool) { return marker, false }
}

// markers matches a value that is only markers (and the spaces between):
// a value taken out already, which is kept so that Redact is idempotent.
var markers = regexp.MustCompile(`^(?:\[redacted[a-z ]*\]\s*)+$`)

// valueOf replaces the value group of m (the last) by marker, keeping the
// groups before it (a name and its separator); an empty value or one that is
// only markers is kept. A value in quotes keeps its quotes.
func valueOf(marker string) func([]string) (string, bool) {
	return func(m []string) (string, bool) {
		v := m[len(m)-1]
		inner := strings.TrimSpace(v)
		quote := ""
		for _, q := range []string{`\"`, `"`, `'`} {
			if len(inner) >= 2*len(q) && strings.HasPrefix(inner, q) && strings.HasSuffix(inner, q) {
				quote, inner = q, inner[len(q):len(inner)-len(q)]
				break
			}
		}
		if inner == "" || markers.MatchString(inner) {
			return "", true
		}
		return strings.Join(m[1:len(m)-1], "") + quote + marker + quote, false
	}
}

// valueRE is a value after a name and its separator: in quotes (escaped
// quotes too, as in JSON inside a string), or a run of anything but spaces in
// which a marker counts as one piece.
const valueRE = `(\\"[^"\r\n]*?\\"|"[^"\r\n]*"|'[^'\r\n]*'|(?:\[redacted[a-z ]*\]|\S)+)`

// pemEnd is the line that ends a private key PEM block.
const pemEnd = `-----END[ A-Z0-9]*PRIVATE KEY[ A-Z]*-----`

// redactions are Redact's rules, in order: the ones that take out a whole
// stretch of text first, so that a later rule never sees half a secret.
var redactions = []redaction{
	// A private key, to its END or to the end of the text.
	{regexp.MustCompile(`(?s)-----BEGIN[ A-Z0-9]*PRIVATE KEY[ A-Z]*-----.*?(?:` + pemEnd + `|\z)`), with(RedactedPrivateKey)},
	// An END whose BEGIN is gone, with the base64 lines before it.
	{regexp.MustCompile(`(?m)(?:^[A-Za-z0-9+/=]{16,}\r?\n)*` + pemEnd), with(RedactedPrivateKey)},
	// A URL's user information, up to its last @ before the host.
	{regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)([^\s/?#]*)@`), func(m []string) (string, bool) {
		if m[2] == "" || m[2] == RedactedUserInfo {
			return "", true
		}
		return m[1] + RedactedUserInfo + "@", false
	}},
	// An Authorization header's value, to the end of its line.
	{regexp.MustCompile(`(?i)(\b(?:proxy-)?authorization(?:\\?["'])?[ \t]*[:=][ \t]*)([^\r\n]*)`), valueOf(RedactedSecret)},
	// A bearer token.
	{regexp.MustCompile(`(?i)(\bbearer[ \t]+)([A-Za-z0-9._~+/=-]{8,})`), valueOf(RedactedToken)},
	// An AWS secret access key after its name; before the tokens, so that
	// none of its 40 characters is taken for an access key id first.
	{regexp.MustCompile(`(?i)(\b(?:aws_?)?secret_?(?:access_?)?key(?:\\?["'])?[ \t]*[:=]?[ \t]*(?:\\?["'])?)([A-Za-z0-9/+=]{40,})`), valueOf(RedactedSecret)},
	// Tokens known by their prefix, wherever they are.
	{regexp.MustCompile(`mint_[A-Za-z0-9_-]{8,}` +
		`|xox[a-zA-Z](?:\.xox[a-zA-Z])?-[A-Za-z0-9-]{6,}` +
		`|xapp-[A-Za-z0-9-]{6,}` +
		`|gh[pousr]_[A-Za-z0-9]{16,}` +
		`|github_pat_[A-Za-z0-9_]{16,}` +
		`|(?:AKIA|ASIA)[A-Z0-9]{16}`), with(RedactedToken)},
	// NAME=value, NAME: value, "name": "value" when the name says secret.
	{regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.-]*)((?:\\?["'])?[ \t]*[:=][ \t]*)` + valueRE), func(m []string) (string, bool) {
		if !secretName(m[1]) {
			return "", true
		}
		return valueOf(RedactedSecret)(m)
	}},
}

// The words that make a name a secret's: in a name in capitals (an
// environment variable's) anywhere (upperWords); in any other name as one of
// its parts, split at punctuation and where a lower-case letter meets a
// capital (apiKey, client_secret, X-Auth-Token), a plural s allowed
// (partWords).
var (
	upperWords = []string{"SECRET", "TOKEN", "KEY", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "PRIVATE"}
	partWords  = []string{"secret", "token", "key", "password", "passwd", "pwd", "passphrase", "credential", "auth", "private", "apikey"}
)

// secretName reports whether a setting or field named name holds a secret.
func secretName(name string) bool {
	if strings.ToUpper(name) == name {
		for _, w := range upperWords {
			if strings.Contains(name, w) {
				return true
			}
		}
	}
	for _, part := range nameParts(name) {
		part = strings.ToLower(part)
		for _, w := range partWords {
			if part == w || part == w+"s" {
				return true
			}
		}
	}
	return false
}

// nameParts splits a name at anything but letters and digits, and where a
// lower-case letter or digit is followed by a capital.
func nameParts(name string) []string {
	var parts []string
	start := -1
	prev := rune(0)
	for i, r := range name {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case !word:
			if start >= 0 {
				parts = append(parts, name[start:i])
				start = -1
			}
		case start < 0:
			start = i
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			parts = append(parts, name[start:i])
			start = i
		}
		prev = r
	}
	if start >= 0 {
		parts = append(parts, name[start:])
	}
	return parts
}
