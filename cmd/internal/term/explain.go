package term

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/secret"
)

// Operations an APIRequest names; Explain words its fixes by them.
const (
	OpCreate   = "create"
	OpMessage  = "message"
	OpGet      = "get"
	OpWatch    = "watch"
	OpVisitors = "visitors"

	// The reports of docsbot health, each one or more analytics calls.
	OpSearches  = "searches"
	OpFeedback  = "feedback"
	OpQuestions = "questions"
	OpViews     = "views"
)

// isAnalyticsOp reports an operation on the analytics endpoints, which
// share the organization's budget and take a date range, not a job.
func isAnalyticsOp(op string) bool {
	switch op {
	case OpVisitors, OpSearches, OpFeedback, OpQuestions, OpViews:
		return true
	}
	return false
}

// APIRequest describes a failed call of the docs API client, for Explain.
type APIRequest struct {
	// Op is the operation, one of the Op constants (or another word).
	Op string
	// JobID is the job the call was about, "" for none.
	JobID string
	// BaseURL, APIKey and ProjectID are the client's settings. The key is
	// never shown, at most its masked form.
	BaseURL, APIKey, ProjectID string
	// KeyFrom says where the key came from, such as "environment variable
	// DOCS_API_KEY".
	KeyFrom string
	// Now is the time of the failure, for the time a retry is allowed.
	Now time.Time
	// Input names the caller's input for a request field or setting, such
	// as "--prompt" for "prompt" or DOCS_API_KEY for "apikey"; nil keeps the
	// field's name. Explain asks for prompt, job, from, to, interval, apikey,
	// projectid, baseurl, branch, status id and the Field of a
	// ValidationError.
	Input func(field string) string
	// LookUp is the command that shows a job, such as "docsbot jobs get",
	// for the fix of a request whose outcome is unknown.
	LookUp string
}

func (r APIRequest) name(field string) string {
	if r.Input != nil {
		return r.Input(field)
	}
	return field
}

// Explanation is a failed call in words for the person who made it: what
// happened, and what to do about it ("" when there is nothing to do).
type Explanation struct {
	Message, Fix string
}

// Explain puts an error of the docs API client in words: the one place
// where API errors become text for a person at a terminal. It decides by
// the error's kind (docsapi's sentinels, *docsapi.APIError,
// *docsapi.ValidationError), never by its text, and never shows the API
// key, at most its masked form.
func Explain(err error, r APIRequest) Explanation {
	x := explain(err, r)
	x.Message = scrubKey(x.Message, r.APIKey)
	x.Fix = scrubKey(x.Fix, r.APIKey)
	return x
}

// explain is Explain before the key is scrubbed: a deployment's own
// failures first (explainDeploy), then the error's kind in a fixed order,
// the first that matches deciding. The call's own failures (no answer,
// interrupted, out of time, invalid input) come before the API's answers,
// which are matched by sentinel or status alike; an error of no known kind
// is a network failure.
func explain(err error, r APIRequest) Explanation {
	if isDeployOp(r.Op) {
		if x, ok := explainDeploy(err, r); ok {
			return x
		}
	}
	ae, isAPI := errors.AsType[*docsapi.APIError](err)
	status := 0
	if isAPI {
		status = ae.StatusCode
	}
	var x Explanation
	switch ve, isValidation := errors.AsType[*docsapi.ValidationError](err); {
	case errors.Is(err, docsapi.ErrOutcomeUnknown):
		x.Message = fmt.Sprintf("no answer from the docs API for the %s request: %s", r.Op, apiCause(err))
		lookUp := strings.TrimSpace(r.LookUp + " " + r.JobID)
		x.Fix = "the request may have reached the API: check `" + lookUp + "` / your dashboard before retrying"

	case errors.Is(err, context.Canceled):
		x.Message = "interrupted"

	case errors.Is(err, context.DeadlineExceeded) && !isAPI:
		x.Message = "the docs API did not answer in time"
		x.Fix = "try again; check " + r.name("baseurl") + " (" + r.BaseURL + ") if it keeps happening"

	case isValidation:
		input := r.name(ve.Field)
		x.Message = fmt.Sprintf("invalid %s: %s", input, ve.Problem)
		x.Fix = "fix " + input + " and run the command again"

	case errors.Is(err, docsapi.ErrUnauthorized) || status == http.StatusUnauthorized || status == http.StatusForbidden:
		x.Message = fmt.Sprintf("the docs API refused the API key %s for project %s%s", maskKey(r.APIKey), r.ProjectID, statusText(status))
		x.Fix = "check " + r.name("apikey") + " (" + r.KeyFrom + ") and " + r.name("projectid") +
			": create an admin API key on the API keys page of your docs dashboard and export " + r.name("apikey") + "=" + docsapi.KeyPrefix + "..."

	case errors.Is(err, docsapi.ErrNotFound) || status == http.StatusNotFound:
		x = notFound(r, status)

	case errors.Is(err, docsapi.ErrRateLimited) || status == http.StatusTooManyRequests:
		var after time.Duration
		if isAPI {
			after = ae.RetryAfter
		}
		x = rateLimited(r, after)

	case errors.Is(err, docsapi.ErrInvalidRequest) || status == http.StatusBadRequest:
		x = rejected(err, r)

	case errors.Is(err, docsapi.ErrMalformedResponse):
		x.Message = "the docs API sent an answer docsbot cannot read: " + apiCause(err)
		x.Fix = "check that " + r.name("baseurl") + " (" + r.BaseURL + ") is the docs API, not a proxy or another site"

	case status >= 500:
		x.Message = "the docs API failed: " + apiCause(err)
		x.Fix = "this is on the service side: try again in a moment"

	case isAPI:
		x.Message = "the docs API answered with an error: " + apiCause(err)

	default:
		x.Message = "cannot reach the docs API: " + apiCause(err)
		x.Fix = "check " + r.name("baseurl") + " (" + r.BaseURL + ") and your network"
	}
	return x
}

// notFound words a 404: the job, when the call was about one (the analytics
// take none), else the project, the settings that name it being the fix.
func notFound(r APIRequest, status int) Explanation {
	if !isAnalyticsOp(r.Op) && r.JobID != "" {
		return Explanation{
			Message: fmt.Sprintf("job %s not found in project %s", r.JobID, r.ProjectID),
			Fix:     "check the " + r.name("job") + ", and that " + r.name("projectid") + " is the project the job was started in",
		}
	}
	return Explanation{
		Message: fmt.Sprintf("project %s not found by the docs API%s", r.ProjectID, statusText(status)),
		Fix:     "check " + r.name("projectid") + " (copy it from the API keys page of your docs dashboard) and " + r.name("baseurl"),
	}
}

// rateLimited words a 429: when a retry is allowed (after, from r.Now; later
// when after is 0), and the budget the operation spends as the fix.
func rateLimited(r APIRequest, after time.Duration) Explanation {
	var x Explanation
	if after > 0 {
		at := r.Now.Add(after).UTC()
		x.Message = fmt.Sprintf("rate limited by the docs API: try again in %s (at %s UTC)", humanize.RoundUp(after), at.Format("15:04"))
	} else {
		x.Message = "rate limited by the docs API: try again later"
	}
	switch {
	case isAnalyticsOp(r.Op):
		x.Fix = "analytics allow 100 requests per hour for the whole organization"
	case r.Op == OpCreate || r.Op == OpMessage:
		x.Fix = "the API allows 100 " + r.Op + " requests per project per hour"
	default:
		x.Fix = "poll less often: raise " + r.name("interval")
	}
	return x
}

// rejected words a 400: the API's reason, and as the fix the input of the
// operation the request was made of (the dates, the prompt or the job).
func rejected(err error, r APIRequest) Explanation {
	x := Explanation{Message: "the docs API rejected the request: " + apiCause(err)}
	switch {
	case isAnalyticsOp(r.Op):
		x.Fix = "check " + r.name("from") + " and " + r.name("to") + " (YYYY-MM-DD or ISO 8601; " + r.name("to") + " is exclusive)"
	case r.Op == OpCreate || r.Op == OpMessage:
		x.Fix = "check " + r.name("prompt")
	default:
		x.Fix = "check the " + r.name("job")
	}
	return x
}

// apiCause is the short text of an error of the docs API client: for an
// *docsapi.APIError its message, details and status, such as "job not found
// (404 Not Found)".
func apiCause(err error) string {
	ae, ok := errors.AsType[*docsapi.APIError](err)
	if !ok {
		return err.Error()
	}
	msg := ae.Message
	if msg == "" {
		msg = "no message"
	}
	if len(ae.Details) > 0 {
		msg += " (" + strings.Join(ae.Details, "; ") + ")"
	}
	return msg + statusText(ae.StatusCode)
}

// statusText is " (404 Not Found)" for a status code, or "" for none.
func statusText(code int) string {
	if code == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d %s)", code, http.StatusText(code))
}

// maskKey is the API key as a message shows it: masked, or "(none)".
func maskKey(key string) string { return secret.Kinds{docsapi.KeyPrefix}.MaskOr(key) }

// scrubKey replaces every copy of the API key in s by its masked form.
func scrubKey(s, key string) string { return secret.Kinds{docsapi.KeyPrefix}.Scrub(s, key) }
