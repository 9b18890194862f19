package term

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/secret"
)

// Operations on deployments, for Explain. JobID of the APIRequest holds the
// status ID of OpDeployStatus and OpDeployWatch.
const (
	OpDeploy       = "deploy"
	OpPreview      = "preview"
	OpDeployStatus = "deploy status"
	OpDeployWatch  = "deploy watch"
)

// MaxLogLines is how many of a deployment's last log lines the table view
// shows; JSON has them all.
const MaxLogLines = 20

func isDeployOp(op string) bool {
	return op == OpDeploy || op == OpPreview || op == OpDeployStatus || op == OpDeployWatch
}

// explainDeploy words the failures particular to deployments; ok is false
// for those Explain words alike for every operation.
func explainDeploy(err error, r APIRequest) (x Explanation, ok bool) {
	ae, isAPI := errors.AsType[*docsapi.APIError](err)
	status := 0
	if isAPI {
		status = ae.StatusCode
	}
	what := "deployment"
	if r.Op == OpPreview {
		what = "preview"
	}
	switch {
	case errors.Is(err, docsapi.ErrOutcomeUnknown):
		x.Message = fmt.Sprintf("no answer from the docs API for the %s request: %s", what, apiCause(err))
		x.Fix = "the " + what + " may have been started: check the deployments in your docs dashboard before trying again"

	case errors.Is(err, docsapi.ErrPreviewsNotAllowed):
		x.Message = "the docs API refused the preview: " + apiCause(err)
		x.Fix = "preview deployments need a plan that includes them; if yours does, check that " + r.name("apikey") +
			" (" + r.KeyFrom + ") is an admin key with the write scope, allowed from this address"

	case r.Op == OpDeploy && status == http.StatusForbidden:
		// The key may read but not write: scopes are per method.
		x.Message = fmt.Sprintf("the docs API refused to deploy project %s with the API key %s%s", r.ProjectID, maskKey(r.APIKey), statusText(status))
		x.Fix = "deploying needs an admin key with the write scope, allowed from this address: check " + r.name("apikey") + " (" + r.KeyFrom + ")"

	case (errors.Is(err, docsapi.ErrNotFound) || status == http.StatusNotFound) && r.JobID != "" && (r.Op == OpDeployStatus || r.Op == OpDeployWatch):
		x.Message = fmt.Sprintf("deployment %s not found", Printable(r.JobID))
		x.Fix = "check the " + r.name("status id") + ": docsbot deploy prints it when it starts a deployment"

	case errors.Is(err, docsapi.ErrRateLimited) || status == http.StatusTooManyRequests:
		var after time.Duration
		if isAPI {
			after = ae.RetryAfter
		}
		if after > 0 {
			x.Message = fmt.Sprintf("rate limited by the docs API: try again in %s (at %s UTC)", humanize.RoundUp(after), r.Now.Add(after).UTC().Format("15:04:05"))
		} else {
			x.Message = "rate limited by the docs API: try again later"
		}
		switch r.Op {
		case OpDeploy:
			x.Fix = "the API allows 10 deployments per 10 seconds for the whole organization (automations triggered by API count too)"
		case OpPreview:
			x.Fix = "the API allows 5 previews per minute for the whole organization"
		default:
			x.Fix = "poll less often: raise " + r.name("interval")
		}

	case errors.Is(err, docsapi.ErrInvalidRequest) || status == http.StatusBadRequest:
		x.Message = "the docs API rejected the " + what + ": " + apiCause(err)
		switch r.Op {
		case OpPreview:
			x.Fix = "check the " + r.name("branch") + ": it must exist in the docs repository"
		case OpDeploy:
			x.Fix = "check the project's deployment branch and Git settings in your docs dashboard"
		default:
			x.Fix = "check the " + r.name("status id")
		}

	default:
		return Explanation{}, false
	}
	return x, true
}

// WriteDeployStarted shows a deployment or preview that was just started:
// in JSON, or lines that say how to follow it.
func WriteDeployStarted(w io.Writer, d *docsapi.Deployment, format, what string) error {
	if format == "json" {
		return WriteJSON(w, d)
	}
	id := Printable(d.StatusID)
	fmt.Fprintf(w, "Started %s %s\n", what, id)
	if d.PreviewURL != "" {
		fmt.Fprintf(w, "preview: %s\n", Printable(d.PreviewURL))
	}
	_, err := fmt.Fprintf(w, "follow it: docsbot deploy status %s --wait\n", id)
	return err
}

// DeployStateText is a deployment's state as a person reads it; a state
// docsbot does not know is said so.
func DeployStateText(s docsapi.DeployState) string {
	switch {
	case s == "":
		return "not given"
	case !s.Known():
		return Printable(string(s)) + " (not a documented state; treated as still running)"
	}
	return strings.ReplaceAll(string(s), "_", " ")
}

// WriteDeployStatus writes the human view of a deployment: its state, what
// it builds, when, and its last log lines.
func WriteDeployStatus(w io.Writer, st *docsapi.DeployStatus) error {
	rows := [][]string{
		{"id", orDash(st.ID)},
		{"status", DeployStateText(st.Status)},
	}
	if st.Summary != "" {
		rows = append(rows, []string{"summary", st.Summary})
	}
	if st.Subdomain != "" {
		rows = append(rows, []string{"site", st.Subdomain})
	}
	c := st.Commit
	if c.SHA != "" || c.Ref != "" || c.Message != "" {
		commit := shortSHA(c.SHA)
		if c.Ref != "" {
			commit = strings.TrimSpace(commit + " on " + c.Ref)
		}
		if msg, _, _ := strings.Cut(c.Message, "\n"); msg != "" {
			commit += ": " + msg
		}
		rows = append(rows, []string{"commit", commit})
	}
	if f := c.FilesChanged; len(f.Added)+len(f.Modified)+len(f.Removed) > 0 {
		rows = append(rows, []string{"files", fmt.Sprintf("%d added, %d modified, %d removed", len(f.Added), len(f.Modified), len(f.Removed))})
	}
	if a := st.Author; a != nil && a.Name != "" {
		rows = append(rows, []string{"author", a.Name})
	}
	if st.Source != "" {
		rows = append(rows, []string{"source", st.Source})
	}
	if !st.CreatedAt.IsZero() {
		rows = append(rows, []string{"created", Time(st.CreatedAt)})
	}
	if !st.EndedAt.IsZero() {
		ended := Time(st.EndedAt)
		if !st.CreatedAt.IsZero() && !st.EndedAt.Before(st.CreatedAt) {
			ended += " (took " + Elapsed(st.EndedAt.Sub(st.CreatedAt)) + ")"
		}
		rows = append(rows, []string{"ended", ended})
	}
	if err := WriteTable(w, []bool{false, false}, rows); err != nil {
		return err
	}
	return WriteDeployLogs(w, st.Logs, MaxLogLines)
}

// WriteDeployLogs writes the last max log lines under a heading, saying how
// many earlier ones were left out; nothing when there are none.
func WriteDeployLogs(w io.Writer, logs []string, max int) error {
	if len(logs) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nlogs:")
	if n := len(logs) - max; n > 0 {
		fmt.Fprintf(w, "  … %s earlier lines (--format json shows them all)\n", strconv.Itoa(n))
		logs = logs[n:]
	}
	for _, l := range logs {
		if _, err := fmt.Fprintln(w, "  "+Printable(secret.Redact(l))); err != nil {
			return err
		}
	}
	return nil
}

func shortSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}
