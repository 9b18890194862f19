package bot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi"
)

// Error is an error whose Message may be shown to a Slack user as it is. Other
// errors are turned into words by Describe; their detail is only logged.
type Error struct {
	// Message is escaped mrkdwn, safe to post.
	Message string
	// Err is the cause, for logs.
	Err error
}

// Error returns the message with its cause, for logs.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// serverMessageMax bounds the docs API's own words quoted to a person.
const serverMessageMax = 500

// Describe is the one place that turns any error into what a Slack user reads.
// Every branch is plain words saying what happened and what to do; text from
// the API is escaped; secrets never reach it because no error carries them.
func Describe(err error) string {
	if err == nil {
		return ""
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Message
	}
	if e, ok := errors.AsType[*docsapi.ValidationError](err); ok {
		return fmt.Sprintf("The %s is not valid: %s.", mrkdwn.Escape(e.Field), mrkdwn.Escape(e.Problem))
	}
	if errors.Is(err, docsapi.ErrOutcomeUnknown) {
		return "docsbot cannot tell whether the docs API acted on this: " + APIAnswer(err) + ". " +
			"Check the agent jobs in your docs dashboard before trying again."
	}
	if e, ok := errors.AsType[*docsapi.APIError](err); ok {
		return describeAPI(e)
	}
	if errors.Is(err, docsapi.ErrMalformedResponse) {
		return "The docs API sent an answer docsbot could not read. Try again in a few minutes; if it keeps happening, ask whoever runs docsbot to check its logs."
	}
	if e, ok := errors.AsType[*slack.RateLimitedError](err); ok {
		return "Slack is rate limiting docsbot. Try again " + humanize.In(e.RetryAfter, time.Now()) + "."
	}
	if e, ok := errors.AsType[slack.SlackErrorResponse](err); ok {
		return describeSlack(e.Err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "That took too long and was stopped. Try again in a minute."
	}
	if _, ok := errors.AsType[*docsapi.TransportError](err); ok {
		return "docsbot could not reach the docs API. Try again in a few minutes."
	}
	if _, ok := errors.AsType[net.Error](err); ok {
		return "docsbot could not reach Slack or the docs API just now. Try again in a minute."
	}
	return "Something went wrong inside docsbot. It has been logged; try again in a minute."
}

func describeAPI(e *docsapi.APIError) string {
	server := ""
	if e.Message != "" {
		server = ": " + mrkdwn.Escape(mrkdwn.Cut(e.Message, serverMessageMax))
	}
	switch {
	case e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden:
		return "The docs API rejected docsbot's API key. Ask whoever runs docsbot to check `DOCS_API_KEY` and `DOCS_PROJECT_ID`."
	case e.StatusCode == http.StatusTooManyRequests:
		return "The docs API's rate limit is reached. Try again " + humanize.In(e.RetryAfter, time.Now()) + "."
	case e.StatusCode == http.StatusNotFound:
		return "The docs API does not know this job (HTTP 404)" + server + "."
	case e.StatusCode >= 500:
		return "The docs API is having trouble: it answered " + e.Status() + ". Try again in a few minutes."
	case e.StatusCode >= 400:
		return "The docs API refused the request: it answered " + e.Status() + server + "."
	}
	return "The docs API answered unexpectedly: " + e.Status() + "."
}

// APIAnswer says, in a few words, what the docs API did with a request that
// failed: "the docs API answered 500 Internal Server Error", "the docs API
// did not answer in time". It is the cause Describe names when a request's
// outcome is unknown; a feature that words an unknown outcome itself (a job
// start offering retry) uses the same words.
func APIAnswer(err error) string {
	if e, ok := errors.AsType[*docsapi.APIError](err); ok {
		return "the docs API answered " + e.Status()
	}
	if errors.Is(err, docsapi.ErrMalformedResponse) {
		return "the docs API sent an answer docsbot could not read"
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "the docs API did not answer in time"
	}
	return "the connection to the docs API broke before it answered"
}

func describeSlack(code string) string {
	switch code {
	case "not_in_channel", "channel_not_found":
		return "I can't post in this channel yet. Invite me with `/invite @docsbot` (or add the app in the channel's settings), then try again."
	case "is_archived":
		return "This channel is archived, so I can't post in it."
	case "msg_too_long", "invalid_blocks":
		return "The message was too long for Slack. Try a shorter instruction."
	case "invalid_auth", "token_revoked", "account_inactive", "not_authed":
		return "Slack rejected docsbot's token. Ask whoever runs docsbot to reinstall the app."
	}
	return "Slack refused the request (" + mrkdwn.Escape(code) + "). Try again in a minute."
}

// SlackCode returns Slack's error code of err ("not_in_channel"), or "".
func SlackCode(err error) string {
	if e, ok := errors.AsType[slack.SlackErrorResponse](err); ok {
		return e.Err
	}
	return ""
}

// permanentAuthError reports Slack's answers that mean a token will never work.
func permanentAuthError(err error) bool {
	switch SlackCode(err) {
	case "invalid_auth", "token_revoked", "account_inactive", "not_authed", "not_allowed_token_type", "token_expired":
		return true
	}
	return false
}

// TransientSlack is the one classification of a failed Slack call: it
// reports whether the call may work if tried again. A network failure, a
// timeout, a rate limit and Slack's own trouble (HTTP 5xx, or the answers
// internal_error, fatal_error, service_unavailable, request_timeout) may
// pass. Any other answer Slack gave (not_in_channel, invalid_blocks,
// invalid_auth) is final: the same call will be refused again.
func TransientSlack(err error) bool {
	if _, ok := errors.AsType[*slack.RateLimitedError](err); ok {
		return true
	}
	if e, ok := errors.AsType[slack.SlackErrorResponse](err); ok {
		switch e.Err {
		case "internal_error", "fatal_error", "service_unavailable", "request_timeout", "ratelimited":
			return true
		}
		return false
	}
	if se, ok := errors.AsType[slack.StatusCodeError](err); ok {
		return se.Code >= 500 || se.Code == 429
	}
	return true
}
