package bot

import (
	"errors"
	"io"
	"net/http"

	"github.com/slack-go/slack"
)

// MaxRequestBody is the largest request body HTTP mode reads; Slack's
// requests are a few kilobytes. A larger one is refused with 413.
const MaxRequestBody = 1 << 20

// verifiedBody reads the body of a request Slack says it sent and checks its
// signature with the signing secret (slack-go's SecretsVerifier:
// HMAC-SHA256 over "v0:timestamp:body", timestamps more than 5 minutes off
// refused, compared in constant time). The timestamp is checked before the
// body is read. On failure it answers the request (401, 413 or 400) and
// returns false; what it logs never holds the secret or a signature.
func (b *Bot) verifiedBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	sv, err := slack.NewSecretsVerifier(r.Header, b.cfg.SigningSecret)
	if err != nil {
		b.refuse(w, r, err)
		return nil, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestBody))
	if err != nil {
		if _, tooBig := errors.AsType[*http.MaxBytesError](err); tooBig {
			b.log.Warn("slack request refused: body too large", "path", r.URL.Path, "limit_bytes", MaxRequestBody)
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return nil, false
		}
		http.Error(w, "cannot read the request body", http.StatusBadRequest)
		return nil, false
	}
	_, _ = sv.Write(body)
	if err := sv.Ensure(); err != nil {
		b.refuse(w, r, err)
		return nil, false
	}
	return body, true
}

// refuse answers 401 to a request that is not signed by Slack, and logs why
// in words of its own: never the secret, nor a signature that could be
// replayed.
func (b *Bot) refuse(w http.ResponseWriter, r *http.Request, err error) {
	reason := "bad signature"
	switch {
	case errors.Is(err, slack.ErrMissingHeaders):
		reason = "not signed (no X-Slack-Signature or X-Slack-Request-Timestamp)"
	case errors.Is(err, slack.ErrExpiredTimestamp):
		reason = "timestamp more than 5 minutes off (a replay, or this host's clock is wrong)"
	}
	b.log.Warn("slack request refused", "path", r.URL.Path, "reason", reason)
	http.Error(w, "request not signed by Slack", http.StatusUnauthorized)
}
