package docsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrPreviewsNotAllowed matches a 403 answer to [Client.Preview]: the
// service documents it as the plan lacking preview deployments. Such an
// error also matches [ErrUnauthorized], as every 403 does, and is an
// [*APIError] for errors.As.
//
// Assumed, not documented: the service may also answer 403 to a key without
// the write scope or from an address outside the key's allowlist, and the
// client cannot tell these apart; the APIError's Message carries the
// server's own words.
var ErrPreviewsNotAllowed = errors.New("docsapi: previews not allowed on this plan")

// MaxBranchLength is the longest branch name [Client.Preview] sends, in bytes.
const MaxBranchLength = 255

// Deploy queues a deployment of the project's deployment branch
// (POST /v1/project/update/{projectId}) and returns its status id; follow it
// with [Client.DeployStatus].
//
// The request is not repeated after it may have reached the server: an error
// wrapping [ErrOutcomeUnknown] means a deployment may have been queued
// although no id was returned. A 429 (the service allows 10 deployments per
// 10 seconds per organization) is retried within the client's policy and
// otherwise returned matching [ErrRateLimited], with RetryAfter set when the
// server sent one.
func (c *Client) Deploy(ctx context.Context) (*Deployment, error) {
	return c.deployCall(ctx, &call{method: http.MethodPost, path: "/v1/project/update/" + url.PathEscape(c.projectID)})
}

// Preview creates the preview deployment of branch, or redeploys it
// (POST /v1/project/preview/{projectId}, body {"branch": ...}), and returns
// its status id and address.
//
// A branch the service refuses gives an error matching [ErrInvalidRequest];
// a plan without previews one matching [ErrPreviewsNotAllowed]. As with
// [Client.Deploy], an error wrapping [ErrOutcomeUnknown] means the preview may
// have been started. The service allows 5 previews per minute per
// organization.
func (c *Client) Preview(ctx context.Context, branch string) (*Deployment, error) {
	if err := checkBranch(branch); err != nil {
		return nil, err
	}
	d, err := c.deployCall(ctx, &call{method: http.MethodPost, path: "/v1/project/preview/" + url.PathEscape(c.projectID), body: branchBody(branch)})
	var ae *APIError
	if err != nil && errors.As(err, &ae) && ae.StatusCode == http.StatusForbidden {
		return nil, &previewsNotAllowedError{api: ae}
	}
	return d, err
}

// DeployStatus returns the state of the deployment or preview statusID
// (GET /v1/project/update-status/{statusId}). An unknown id gives an error
// matching [ErrNotFound]. Poll until the status is Done.
func (c *Client) DeployStatus(ctx context.Context, statusID string) (*DeployStatus, error) {
	if err := checkPathID("status id", statusID); err != nil {
		return nil, err
	}
	cl := &call{method: http.MethodGet, path: "/v1/project/update-status/" + url.PathEscape(statusID), maxBody: maxBodyDefault}
	res, err := c.do(ctx, cl)
	if err != nil {
		return nil, err
	}
	st, err := decodeDeployStatus(res.body)
	if err != nil {
		return nil, c.malformed(cl, res.status, res.body, err)
	}
	if st.ID == "" {
		// Assumed: the service names the status it was asked for; an answer
		// without "_id" is taken to be that one.
		st.ID = statusID
	}
	return st, nil
}

// previewsNotAllowedError is a 403 answer to a preview.
type previewsNotAllowedError struct{ api *APIError }

func (e *previewsNotAllowedError) Error() string { return e.api.Error() }

func (e *previewsNotAllowedError) Unwrap() []error { return []error{ErrPreviewsNotAllowed, e.api} }

func branchBody(branch string) []byte {
	b, _ := json.Marshal(struct {
		Branch string `json:"branch"`
	}{branch})
	return b
}

func (c *Client) deployCall(ctx context.Context, cl *call) (*Deployment, error) {
	cl.maxBody = maxBodyDefault
	res, err := c.do(ctx, cl)
	if err != nil {
		return nil, err
	}
	d, err := decodeDeployment(res.body)
	if err != nil {
		// A POST: malformed wraps ErrOutcomeUnknown, as the server acted.
		return nil, c.malformed(cl, res.status, res.body, err)
	}
	return d, nil
}

// decodeDeployment reads {"statusId": ..., "previewUrl": ...}. Assumed, for
// tolerance: an answer naming the id "_id" or "id" instead is read too. An
// answer without any id is an error, since nothing could be followed.
func decodeDeployment(b []byte) (*Deployment, error) {
	var w struct {
		StatusID   looseString `json:"statusId"`
		UnderID    looseString `json:"_id"`
		ID         looseString `json:"id"`
		PreviewURL looseString `json:"previewUrl"`
	}
	if err := decodeObject(b, &w); err != nil {
		return nil, err
	}
	d := &Deployment{StatusID: firstNonEmpty(string(w.StatusID), string(w.UnderID), string(w.ID)), PreviewURL: string(w.PreviewURL)}
	if d.StatusID == "" {
		return nil, errors.New("answer has no statusId")
	}
	return d, nil
}

// decodeDeployStatus reads an update-status document tolerantly: every field
// may be missing or null; a number where a string was expected is kept as
// its text; counts such as githubUserId may be written 12.0; a state the
// client does not know is kept; a timestamp in an unexpected form is left
// zero. Only a body that is not a JSON object is an error.
func decodeDeployStatus(b []byte) (*DeployStatus, error) {
	var w struct {
		UnderID   looseString     `json:"_id"`
		ID        looseString     `json:"id"`
		ProjectID looseString     `json:"projectId"`
		Status    looseString     `json:"status"`
		CreatedAt looseTime       `json:"createdAt"`
		EndedAt   looseTime       `json:"endedAt"`
		Summary   looseString     `json:"summary"`
		Logs      looseStrings    `json:"logs"`
		Subdomain looseString     `json:"subdomain"`
		Author    json.RawMessage `json:"author"`
		Commit    json.RawMessage `json:"commit"`
		Source    looseString     `json:"source"`
	}
	if err := decodeObject(b, &w); err != nil {
		return nil, err
	}
	st := &DeployStatus{
		ID:        firstNonEmpty(string(w.UnderID), string(w.ID)),
		ProjectID: string(w.ProjectID),
		Status:    DeployState(strings.TrimSpace(string(w.Status))),
		Summary:   string(w.Summary),
		Logs:      []string(w.Logs),
		Subdomain: string(w.Subdomain),
		Source:    string(w.Source),
	}
	if w.CreatedAt.t != nil {
		st.CreatedAt = *w.CreatedAt.t
	}
	if w.EndedAt.t != nil {
		st.EndedAt = *w.EndedAt.t
	}
	var a struct {
		Name         looseString `json:"name"`
		AvatarURL    looseString `json:"avatarUrl"`
		GitHubUserID looseInt    `json:"githubUserId"`
	}
	if isObject(w.Author) && json.Unmarshal(w.Author, &a) == nil {
		st.Author = &DeployAuthor{Name: string(a.Name), AvatarURL: string(a.AvatarURL), GitHubUserID: int64(a.GitHubUserID)}
	}
	var cm struct {
		SHA          looseString     `json:"sha"`
		Ref          looseString     `json:"ref"`
		Message      looseString     `json:"message"`
		FilesChanged json.RawMessage `json:"filesChanged"`
	}
	if isObject(w.Commit) && json.Unmarshal(w.Commit, &cm) == nil {
		st.Commit = DeployCommit{SHA: string(cm.SHA), Ref: string(cm.Ref), Message: string(cm.Message)}
		var fc struct {
			Added    looseStrings `json:"added"`
			Modified looseStrings `json:"modified"`
			Removed  looseStrings `json:"removed"`
		}
		if isObject(cm.FilesChanged) && json.Unmarshal(cm.FilesChanged, &fc) == nil {
			st.Commit.FilesChanged = FilesChanged{Added: fc.Added, Modified: fc.Modified, Removed: fc.Removed}
		}
	}
	return st, nil
}

// decodeObject decodes b into v, refusing anything but a JSON object.
func decodeObject(b []byte, v any) error {
	if !isObject(b) {
		return errors.New("answer is not a JSON object")
	}
	return json.Unmarshal(b, v)
}

func isObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{'
}

func isNull(b []byte) bool { return string(bytes.TrimSpace(b)) == "null" }

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// looseString decodes a JSON string; a number or boolean gives its text, and
// null, an object or an array give "".
type looseString string

func (ls *looseString) UnmarshalJSON(b []byte) error {
	*ls = ""
	var s string
	if json.Unmarshal(b, &s) == nil {
		*ls = looseString(s)
		return nil
	}
	t := string(bytes.TrimSpace(b))
	if t == "true" || t == "false" {
		*ls = looseString(t)
		return nil
	}
	var n json.Number
	if json.Unmarshal(b, &n) == nil {
		*ls = looseString(n.String())
	}
	return nil
}

// looseStrings decodes a list of strings. A single string is a list of one;
// an entry that is an object gives its "message" or "text", any other entry
// its JSON text; null or anything else gives nil.
type looseStrings []string

func (ls *looseStrings) UnmarshalJSON(b []byte) error {
	*ls = nil
	if isNull(b) {
		return nil
	}
	var one string
	if json.Unmarshal(b, &one) == nil {
		*ls = looseStrings{one}
		return nil
	}
	var raw []json.RawMessage
	if json.Unmarshal(b, &raw) != nil {
		return nil
	}
	out := make([]string, 0, len(raw))
	for _, r := range raw {
		if isNull(r) {
			continue
		}
		var s string
		if json.Unmarshal(r, &s) == nil {
			out = append(out, s)
			continue
		}
		var obj struct {
			Message string `json:"message"`
			Text    string `json:"text"`
		}
		if isObject(r) && json.Unmarshal(r, &obj) == nil && (obj.Message != "" || obj.Text != "") {
			out = append(out, firstNonEmpty(obj.Message, obj.Text))
			continue
		}
		out = append(out, string(bytes.TrimSpace(r)))
	}
	*ls = out
	return nil
}

// looseInt decodes any JSON number, such as 12, 12.0 or 1.2e3 (rounded), or
// a string holding one; anything else, or a number out of range, gives 0.
type looseInt int64

func (li *looseInt) UnmarshalJSON(b []byte) error {
	*li = 0
	t := strings.TrimSpace(string(b))
	var s string
	if json.Unmarshal(b, &s) == nil {
		t = strings.TrimSpace(s)
	}
	if n, err := strconv.ParseInt(t, 10, 64); err == nil {
		*li = looseInt(n)
		return nil
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f >= 1<<63 || f < -(1<<63) {
		return nil
	}
	*li = looseInt(math.Round(f))
	return nil
}

// checkBranch rejects a branch name git would refuse (as git check-ref-format
// --branch judges it, roughly), which the service would answer 400 anyway.
func checkBranch(branch string) error {
	bad := func(problem string) error { return &ValidationError{Field: "branch", Problem: problem} }
	switch {
	case strings.TrimSpace(branch) == "":
		return bad("must not be empty")
	case len(branch) > MaxBranchLength:
		return bad(fmt.Sprintf("must be at most %d bytes long", MaxBranchLength))
	case !utf8.ValidString(branch):
		return bad("must be valid UTF-8")
	case branch == "@":
		return bad(`must not be "@"`)
	case strings.HasPrefix(branch, "-"):
		return bad(`must not start with "-"`)
	case strings.HasPrefix(branch, "/") || strings.HasSuffix(branch, "/"):
		return bad(`must not start or end with "/"`)
	case strings.HasSuffix(branch, ".") || strings.HasSuffix(branch, ".lock"):
		return bad(`must not end with "." or ".lock"`)
	}
	for _, seq := range []string{"..", "@{", "//", "/."} {
		if strings.Contains(branch, seq) {
			return bad(fmt.Sprintf("must not contain %q", seq))
		}
	}
	if strings.HasPrefix(branch, ".") {
		return bad(`must not start with "."`)
	}
	for _, r := range branch {
		if r < 0x20 || r == 0x7f || r == ' ' || strings.ContainsRune(`~^:?*[\`, r) {
			return bad(fmt.Sprintf("must not contain %q", r))
		}
	}
	return nil
}

// DeployWatchOptions configure [Client.WatchDeploy], as [WatchOptions] do
// [Client.Watch].
type DeployWatchOptions struct {
	// First is the wait after the first poll; it grows by half each poll up
	// to Max (PollDelay, with Jitter) and starts over when the state
	// changes.
	First, Max time.Duration
	// OnStatus, if set, is called with the status after every poll that
	// worked, and with changed true when its state is new.
	OnStatus func(st *DeployStatus, changed bool)
	// OnRetry, if set, is called after a poll that failed for a passing
	// reason, with the wait before the next poll.
	OnRetry func(err error, wait time.Duration)
	// Sleep, if set, waits d or until ctx ends, and returns ctx's error
	// then; nil is a plain timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// WatchDeploy polls the deployment statusID until its state is Done, and
// returns that status. It retries and stops as [Client.Watch] does: a
// passing failure (408, 429, 5xx, a network error, an unreadable answer) is
// polled again after at least its Retry-After; an unknown id, a refused key
// or the end of ctx ends the watch with that error. An unknown state is
// followed like a running one.
func (c *Client) WatchDeploy(ctx context.Context, statusID string, o DeployWatchOptions) (*DeployStatus, error) {
	return watch(ctx, c, o.First, o.Max, o.Sleep, o.OnRetry,
		func(ctx context.Context, once *Client) (*DeployStatus, error) {
			return once.DeployStatus(ctx, statusID)
		},
		func(st *DeployStatus) (string, bool) { return string(st.Status), st.Status.Done() },
		o.OnStatus)
}
