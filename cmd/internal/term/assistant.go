package term

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/docsapi"
)

// AssistantRequest describes a failed call of a docs assistant
// (docsapi.Assistant: a search, as doctor makes), for ExplainAssistant.
type AssistantRequest struct {
	// DiscoveryURL, Key and Domain are the assistant's settings. The key
	// is never shown, at most its masked form.
	DiscoveryURL, Key, Domain string
	// KeyFrom says where the key came from, such as "environment variable
	// DOCS_ASSISTANT_KEY".
	KeyFrom string
	// Now is the time of the failure, for the time a retry is allowed.
	Now time.Time
	// Input names the caller's setting for key, domain and discoveryurl,
	// such as DOCS_ASSISTANT_KEY for key; nil keeps the field's name.
	Input func(field string) string
}

func (r AssistantRequest) name(field string) string {
	if r.Input != nil {
		return r.Input(field)
	}
	return field
}

// ExplainAssistant puts an error of a docs assistant in words, as Explain
// does for the docs API: by the error's kind, never by its text, and never
// with the key, at most its masked form. A refused key (401, 403) names the
// key's setting, an unknown domain (404: no search index for it) the
// domain's, and a failure to connect the discovery URL's.
func ExplainAssistant(err error, r AssistantRequest) Explanation {
	x := explainAssistant(err, r)
	x.Message = scrubKey(x.Message, r.Key)
	x.Fix = scrubKey(x.Fix, r.Key)
	return x
}

func explainAssistant(err error, r AssistantRequest) Explanation {
	ae, isAPI := errors.AsType[*docsapi.APIError](err)
	status := 0
	if isAPI {
		status = ae.StatusCode
	}
	url := r.name("discoveryurl") + " (" + r.DiscoveryURL + ")"
	var x Explanation
	switch ve, isValidation := errors.AsType[*docsapi.ValidationError](err); {
	case errors.Is(err, context.Canceled):
		x.Message = "interrupted"

	case errors.Is(err, context.DeadlineExceeded) && !isAPI:
		x.Message = "the discovery API did not answer in time"
		x.Fix = "try again; check " + url + " if it keeps happening"

	case isValidation:
		field, ok := map[string]string{"api key": "key", "assistant key": "key", "domain": "domain", "discovery url": "discoveryurl"}[ve.Field]
		if !ok {
			field = ve.Field
		}
		input := r.name(field)
		x.Message = fmt.Sprintf("invalid %s: %s", input, ve.Problem)
		x.Fix = "fix " + input

	case errors.Is(err, docsapi.ErrUnauthorized):
		x.Message = fmt.Sprintf("the discovery API refused the assistant key %s for docs site %s%s", maskKey(r.Key), r.Domain, statusText(status))
		x.Fix = "check " + r.name("key") + " (" + r.KeyFrom + ") and " + r.name("domain") +
			": create an assistant key (" + docsapi.AssistantKeyPrefix + "…) on the API keys page of your docs dashboard"

	case errors.Is(err, docsapi.ErrNotFound):
		x.Message = fmt.Sprintf("docs site %s has no search index at the discovery API%s", r.Domain, statusText(status))
		x.Fix = "check " + r.name("domain") + ": the last part of your dashboard's URL app.mintlify.com/ORG/DOMAIN, not the project id; and " + url

	case errors.Is(err, docsapi.ErrRateLimited):
		x.Message = "rate limited by the discovery API: try again later"
		if isAPI && ae.RetryAfter > 0 {
			at := r.Now.Add(ae.RetryAfter).UTC()
			x.Message = fmt.Sprintf("rate limited by the discovery API: try again in %s (at %s UTC)", humanize.RoundUp(ae.RetryAfter), at.Format("15:04"))
		}
		x.Fix = "search allows 10,000 requests an hour per organization, shared with other tools"

	case errors.Is(err, docsapi.ErrMalformedResponse) || errors.Is(err, docsapi.ErrInvalidRequest):
		x.Message = "the discovery API did not take or answer a plain search: " + apiCause(err)
		x.Fix = "check that " + url + " is the discovery API, not a proxy or another site"

	case status >= http.StatusInternalServerError:
		x.Message = "the discovery API failed: " + apiCause(err)
		x.Fix = "this is on the service side: try again in a moment"

	case isAPI:
		x.Message = "the discovery API answered with an error: " + apiCause(err)

	default:
		x.Message = "cannot reach the discovery API: " + apiCause(err)
		x.Fix = "check " + url + " and your network"
	}
	return x
}
