package store

import (
	"errors"
	"fmt"

	"github.com/docsbot/docsbot/docsapi/secret"
)

// redacted is the Redis URL without its credentials (secret.RedactURL), for
// the errors of Open and Check, which must never carry them.
type redacted struct{ secret.RedactedURL }

// redactURL removes the user information (user name and password) from raw.
func redactURL(raw string) redacted { return redacted{secret.RedactURL(raw)} }

// clean classifies err and, when its message holds a credential of the URL,
// replaces it by its scrubbed message (keeping the kind of failure), so
// that no unwrapping can reveal the credential.
func (r redacted) clean(err error) error {
	err = classify(err)
	msg := err.Error()
	scrubbed := r.Scrub(msg)
	if scrubbed == msg {
		return err
	}
	if k, ok := errors.AsType[*kindError](err); ok {
		return &kindError{kind: k.kind, err: errors.New(r.Scrub(k.err.Error()))}
	}
	return errors.New(scrubbed)
}

// wrap returns "context: err", err cleaned.
func (r redacted) wrap(context string, err error) error {
	return fmt.Errorf("%s: %w", context, r.clean(err))
}

// RedactURL returns the Redis URL raw with its user name and password
// replaced, fit for logs and messages.
func RedactURL(raw string) string { return secret.RedactURL(raw).URL }
