package store

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// redacted is a connection URL with its credentials removed, and the
// credential strings that must never appear in a message.
type redacted struct {
	url     string
	secrets []string
}

// redactURL removes the user information (user name and password) from raw.
// It works on the text, so it also covers URLs that do not parse.
func redactURL(raw string) redacted {
	start := 0
	if i := strings.Index(raw, "://"); i >= 0 {
		start = i + len("://")
	}
	at := strings.LastIndex(raw, "@")
	if at < start {
		return redacted{url: raw}
	}
	info := raw[start:at]
	r := redacted{url: raw[:start] + "REDACTED" + raw[at:]}
	add := func(s string) {
		if s != "" {
			r.secrets = append(r.secrets, s)
		}
	}
	add(info)
	if dec, err := url.PathUnescape(info); err == nil {
		add(dec)
	}
	// The user name alone is not replaced in messages: it is no secret, and
	// a short one would blank out unrelated words.
	if _, pass, ok := strings.Cut(info, ":"); ok {
		add(pass)
		if dec, err := url.PathUnescape(pass); err == nil {
			add(dec)
		}
	}
	return r
}

// scrub replaces every secret in msg.
func (r redacted) scrub(msg string) string {
	for _, s := range r.secrets {
		msg = strings.ReplaceAll(msg, s, "REDACTED")
	}
	return msg
}

// clean classifies err and, when its message holds a secret, replaces it by
// its scrubbed message (keeping the kind of failure), so that no unwrapping
// can reveal the secret.
func (r redacted) clean(err error) error {
	err = classify(err)
	msg := err.Error()
	scrubbed := r.scrub(msg)
	if scrubbed == msg {
		return err
	}
	if k, ok := errors.AsType[*kindError](err); ok {
		return &kindError{kind: k.kind, err: errors.New(r.scrub(k.err.Error()))}
	}
	return errors.New(scrubbed)
}

// wrap returns "context: err", err cleaned.
func (r redacted) wrap(context string, err error) error {
	return fmt.Errorf("%s: %w", context, r.clean(err))
}

// RedactURL returns the Redis URL raw with its user name and password
// replaced, fit for logs and messages.
func RedactURL(raw string) string { return redactURL(raw).url }
