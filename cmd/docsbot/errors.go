package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/docsbot/docsbot/docsapi"
)

// Exit codes of the docsbot process.
const (
	exitOK          = 0   // success, or help that was asked for
	exitFailure     = 1   // the docs API failed or refused, or a job failed
	exitUsage       = 2   // bad flags, arguments or configuration
	exitInterrupted = 130 // Ctrl-C or SIGTERM
)

// exitError is an error as the user sees it: what happened, what to do about
// it, and the exit code.
type exitError struct {
	code int
	msg  string
	fix  string
	// err is the cause, kept for errors.Is and errors.As; its text is not shown.
	err error
	// quiet means the problem was shown already (the flag package prints its own).
	quiet bool
}

func (e *exitError) Error() string {
	if e.fix == "" {
		return e.msg
	}
	return e.msg + "\n" + e.fix
}

func (e *exitError) Unwrap() error { return e.err }

// usageError is a problem with the command line or the configuration.
func usageError(msg, fix string) error {
	return &exitError{code: exitUsage, msg: msg, fix: fix}
}

// report prints err on w as "docsbot: <message>" with any further lines
// indented below it, and returns the exit code for it.
func report(w io.Writer, err error) int {
	code := exitFailure
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		code = ee.code
		if ee.quiet {
			return code
		}
	case errors.Is(err, context.Canceled):
		code = exitInterrupted
	}
	lines := strings.Split(strings.TrimRight(err.Error(), "\n"), "\n")
	fmt.Fprintf(w, "docsbot: %s\n", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "  %s\n", l)
	}
	return code
}

// call names the operation that failed, for explain.
type call struct {
	op    string // "create", "message", "get", "watch" or "visitors"
	cfg   config
	jobID string
	now   time.Time
}

func (c call) onJob() bool { return c.op != "visitors" }

// explain turns an error from the docs API client into what the user reads and
// the exit code. It is the one place where API errors become text. The API key
// never appears in its output: at most its masked form does.
func explain(err error, c call) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	e := explainAPI(err, c)
	e.msg = scrubSecrets(e.msg, c.cfg.APIKey)
	e.fix = scrubSecrets(e.fix, c.cfg.APIKey)
	return e
}

func explainAPI(err error, c call) *exitError {
	var (
		ae *docsapi.APIError
		ve *docsapi.ValidationError
	)
	isAPI := errors.As(err, &ae)
	status := 0
	if isAPI {
		status = ae.StatusCode
	}
	canceled := errors.Is(err, context.Canceled)
	e := &exitError{code: exitFailure, err: err}

	switch {
	case errors.Is(err, docsapi.ErrOutcomeUnknown):
		if canceled {
			e.code = exitInterrupted
		}
		e.msg = fmt.Sprintf("no answer from the docs API for the %s request: %s", c.op, cause(err))
		e.fix = "the request may have reached the API: check `docsbot jobs get` / your dashboard before retrying"
		if c.jobID != "" {
			e.fix = fmt.Sprintf("the request may have reached the API: check `docsbot jobs get %s` / your dashboard before retrying", c.jobID)
		}

	case canceled:
		e.code = exitInterrupted
		e.msg = "interrupted"

	case errors.Is(err, context.DeadlineExceeded) && !isAPI:
		e.msg = "the docs API did not answer in time"
		e.fix = "try again; check DOCS_API_URL (" + c.cfg.APIURL + ") if it keeps happening"

	case errors.As(err, &ve):
		e.code = exitUsage
		flagName := flagFor(ve.Field)
		e.msg = fmt.Sprintf("invalid %s: %s", flagName, ve.Problem)
		e.fix = "fix " + flagName + " and run the command again"

	case errors.Is(err, docsapi.ErrUnauthorized) || status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.msg = fmt.Sprintf("the docs API refused the API key %s for project %s%s", maskKey(c.cfg.APIKey), c.cfg.ProjectID, statusText(status))
		e.fix = "check DOCS_API_KEY (" + c.cfg.keyFrom + ") and DOCS_PROJECT_ID: create an admin API key on the API keys page of your docs dashboard and export DOCS_API_KEY=mint_..."

	case errors.Is(err, docsapi.ErrNotFound) || status == http.StatusNotFound:
		if c.onJob() && c.jobID != "" {
			e.msg = fmt.Sprintf("job %s not found in project %s", c.jobID, c.cfg.ProjectID)
			e.fix = "check the job ID, and that DOCS_PROJECT_ID is the project the job was started in"
		} else {
			e.msg = fmt.Sprintf("project %s not found by the docs API%s", c.cfg.ProjectID, statusText(status))
			e.fix = "check DOCS_PROJECT_ID (copy it from the API keys page of your docs dashboard) and DOCS_API_URL"
		}

	case errors.Is(err, docsapi.ErrRateLimited) || status == http.StatusTooManyRequests:
		var after time.Duration
		if isAPI {
			after = ae.RetryAfter
		}
		if after > 0 {
			at := c.now.Add(after).UTC()
			e.msg = fmt.Sprintf("rate limited by the docs API: try again in %s (at %s UTC)", roundUp(after), at.Format("15:04"))
		} else {
			e.msg = "rate limited by the docs API: try again later"
		}
		switch c.op {
		case "visitors":
			e.fix = "analytics allow 100 requests per hour for the whole organization"
		case "create", "message":
			e.fix = "the API allows 100 " + c.op + " requests per project per hour"
		default:
			e.fix = "poll less often: raise --interval"
		}

	case errors.Is(err, docsapi.ErrInvalidRequest) || status == http.StatusBadRequest:
		e.msg = "the docs API rejected the request: " + cause(err)
		switch c.op {
		case "visitors":
			e.fix = "check --from and --to (YYYY-MM-DD or ISO 8601; --to is exclusive)"
		case "create", "message":
			e.fix = "check --prompt"
		default:
			e.fix = "check the job ID"
		}

	case errors.Is(err, docsapi.ErrMalformedResponse):
		e.msg = "the docs API sent an answer docsbot cannot read: " + cause(err)
		e.fix = "check that DOCS_API_URL (" + c.cfg.APIURL + ") is the docs API, not a proxy or another site"

	case status >= 500:
		e.msg = "the docs API failed: " + cause(err)
		e.fix = "this is on the service side: try again in a moment"

	case isAPI:
		e.msg = "the docs API answered with an error: " + cause(err)

	default:
		e.msg = "cannot reach the docs API: " + cause(err)
		e.fix = "check DOCS_API_URL (" + c.cfg.APIURL + ") and your network"
	}
	return e
}

// cause is the short text of an API error: its message, details and status.
func cause(err error) string {
	var ae *docsapi.APIError
	if !errors.As(err, &ae) {
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

// flagFor names the flag or argument that sets a client request field.
func flagFor(field string) string {
	switch strings.ReplaceAll(strings.ToLower(field), " ", "") {
	case "prompt":
		return "--prompt"
	case "id", "jobid", "job":
		return "job ID"
	case "from", "datefrom", "fromdate":
		return "--from"
	case "to", "dateto", "todate":
		return "--to"
	case "apikey", "key":
		return "DOCS_API_KEY"
	case "projectid", "project":
		return "DOCS_PROJECT_ID"
	case "baseurl", "url":
		return "DOCS_API_URL"
	}
	return field
}

// roundUp rounds d up to whole seconds, for retry hints.
func roundUp(d time.Duration) time.Duration {
	return (d + time.Second - 1).Truncate(time.Second)
}

// maskKey is the masked API key (see maskSecret), or "(none)" when there is
// no key.
func maskKey(key string) string {
	if key == "" {
		return "(none)"
	}
	return maskSecret(key)
}
