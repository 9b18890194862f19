package docsapitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/docsbot/docsbot/docsapi"
)

// Error messages of the deployment endpoints.
const (
	msgNoDeployment       = "deployment not found"
	msgBranchRequired     = "branch is required"
	msgBranchNotString    = "branch must be a string"
	msgBranchInvalid      = "branch is not a valid branch name"
	msgPreviewsNotAllowed = "preview deployments are not available on your plan"
)

// DeployRequest is what a deployment was started for, as the deployment
// lifecycle function sees it.
type DeployRequest struct {
	// Preview is true for POST /v1/project/preview, false for a deployment
	// of the deployment branch.
	Preview bool
	// Branch is the preview's branch, or "main" for a deployment.
	Branch string
}

// DeployLifecycle says how a deployment moves from queued through
// in_progress to its end. A deployment answers queued to QueuedPolls GETs
// of its status and until QueuedFor has passed on the server clock since it
// started; then in_progress to RunningPolls more GETs and until ActiveFor
// has passed since it started; the next GET finds it ended with Outcome.
// Only GETs move a deployment on.
type DeployLifecycle struct {
	QueuedPolls  int
	RunningPolls int
	QueuedFor    time.Duration
	ActiveFor    time.Duration
	// Outcome is the end state: "" or "success" succeeds, "failure" fails
	// with logs ending in an error, and any other value becomes the status
	// verbatim (it never moves on), so that a test can serve a state the
	// client does not know.
	Outcome docsapi.DeployState
	// Logs, when set, are the last lines of the deployment's logs once it
	// ends with success or failure, in place of the made-up ones (the
	// deployed site's address, or the broken link of a failure), and a
	// failure's summary ends with the last of them: whatever a build may
	// print, secrets included, for the tests of what docsbot shows of them.
	Logs []string
}

// KeywordDeployFail, as a word of a preview's branch name (words are split
// at "/", "-", "_" and "."), makes [DefaultDeployLifecycle] fail the
// preview: "fix/fail-build" fails, "failover" does not.
const KeywordDeployFail = "fail"

// DefaultDeployLifecycle answers queued to the first GET, in_progress to
// the second and the end to the third: success, or failure for a preview
// whose branch has the word [KeywordDeployFail]. [Server.FailNextDeploy]
// fails one deployment whatever the lifecycle says.
func DefaultDeployLifecycle(r DeployRequest) DeployLifecycle {
	lc := DeployLifecycle{QueuedPolls: 1, RunningPolls: 1, Outcome: docsapi.DeploySuccess}
	if r.Preview && hasWord(r.Branch, KeywordDeployFail) {
		lc.Outcome = docsapi.DeployFailure
	}
	return lc
}

// TimedDeployLifecycle returns a lifecycle function like
// [DefaultDeployLifecycle] whose deployments stay queued for a fifth of d
// and end no sooner than d after they start, which suits a sandbox polled in
// real time.
func TimedDeployLifecycle(d time.Duration) func(DeployRequest) DeployLifecycle {
	return func(r DeployRequest) DeployLifecycle {
		lc := DefaultDeployLifecycle(r)
		lc.QueuedFor, lc.ActiveFor = d/5, d
		return lc
	}
}

func hasWord(s, word string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return strings.ContainsRune("/-_.", r) }) {
		if w == word {
			return true
		}
	}
	return false
}

// WithDeployLifecycle sets the function that decides the lifecycle of each
// deployment and preview (default [DefaultDeployLifecycle]). It is called
// without the server lock held but must not block.
func WithDeployLifecycle(f func(DeployRequest) DeployLifecycle) Option {
	return func(c *config) {
		if f != nil {
			c.deployLifecycle = f
		}
	}
}

// WithPreviews turns preview deployments on or off (default on). With
// previews off, as on a plan without them, POST /v1/project/preview answers
// 403.
func WithPreviews(on bool) Option { return func(c *config) { c.noPreviews = !on } }

// SetDeployLifecycle replaces the deployment lifecycle function for
// deployments started from now on. A nil f restores
// [DefaultDeployLifecycle].
func (s *Server) SetDeployLifecycle(f func(DeployRequest) DeployLifecycle) {
	if f == nil {
		f = DefaultDeployLifecycle
	}
	s.mu.Lock()
	s.deployLifecycle = f
	s.mu.Unlock()
}

// SetPreviews turns preview deployments on or off, as [WithPreviews].
func (s *Server) SetPreviews(on bool) {
	s.mu.Lock()
	s.noPreviews = !on
	s.mu.Unlock()
}

// FailNextDeploy makes the next deployment or preview started fail, whatever
// its lifecycle's Outcome; calling it n times fails the next n.
func (s *Server) FailNextDeploy() {
	s.mu.Lock()
	s.failNext++
	s.mu.Unlock()
}

// deployment is the server's state for one deployment or preview.
type deployment struct {
	api       docsapi.DeployStatus
	lc        DeployLifecycle
	preview   bool
	queued    int // GETs answered queued
	running   int // GETs answered in_progress
	startedAt time.Time
	siteURL   string
	pages     int
}

// startDeploy handles POST /v1/project/update/{projectId}.
func (s *Server) startDeploy() *response {
	d := s.newDeployment(DeployRequest{Branch: "main"})
	return jsonResponse(http.StatusAccepted, struct {
		StatusID string `json:"statusId"`
	}{d.api.ID})
}

// startPreview handles POST /v1/project/preview/{projectId}.
func (s *Server) startPreview(body []byte) *response {
	s.mu.Lock()
	off := s.noPreviews
	s.mu.Unlock()
	if off {
		return errorResponse(http.StatusForbidden, msgPreviewsNotAllowed)
	}
	branch, bad := parseBranch(body)
	if bad != nil {
		return bad
	}
	d := s.newDeployment(DeployRequest{Preview: true, Branch: branch})
	return jsonResponse(http.StatusAccepted, struct {
		StatusID   string `json:"statusId"`
		PreviewURL string `json:"previewUrl"`
	}{d.api.ID, d.siteURL})
}

// parseBranch reads {"branch": "..."} and checks the name as git would,
// roughly.
func parseBranch(body []byte) (string, *response) {
	if len(body) > maxBody {
		return "", errorResponse(http.StatusRequestEntityTooLarge, msgTooLarge)
	}
	t := bytes.TrimSpace(body)
	if !json.Valid(t) {
		return "", errorResponse(http.StatusBadRequest, msgBadJSON)
	}
	if len(t) == 0 || t[0] != '{' {
		return "", errorResponse(http.StatusBadRequest, msgNotObject)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(t, &fields); err != nil {
		return "", errorResponse(http.StatusBadRequest, msgBadJSON)
	}
	raw, ok := fields["branch"]
	if !ok || string(raw) == "null" {
		return "", errorResponse(http.StatusBadRequest, msgBranchRequired)
	}
	var branch string
	if err := json.Unmarshal(raw, &branch); err != nil {
		return "", errorResponse(http.StatusBadRequest, msgBranchNotString)
	}
	if !validBranch(branch) {
		return "", errorResponse(http.StatusBadRequest, msgBranchInvalid)
	}
	return branch, nil
}

// validBranch applies the main rules of git check-ref-format --branch.
func validBranch(b string) bool {
	if b == "" || b == "@" || len(b) > 255 || strings.HasPrefix(b, "-") || strings.HasPrefix(b, ".") ||
		strings.HasPrefix(b, "/") || strings.HasSuffix(b, "/") || strings.HasSuffix(b, ".") || strings.HasSuffix(b, ".lock") {
		return false
	}
	for _, seq := range []string{"..", "@{", "//", "/."} {
		if strings.Contains(b, seq) {
			return false
		}
	}
	for _, r := range b {
		if r < 0x20 || r == 0x7f || r == ' ' || r == unicode.ReplacementChar || strings.ContainsRune(`~^:?*[\`, r) {
			return false
		}
	}
	return true
}

// newDeployment starts a queued deployment.
func (s *Server) newDeployment(r DeployRequest) *deployment {
	s.mu.Lock()
	f := s.deployLifecycle
	s.mu.Unlock()
	lc := f(r)
	lc.QueuedPolls, lc.RunningPolls = max(lc.QueuedPolls, 0), max(lc.RunningPolls, 0)
	if lc.Outcome == "" {
		lc.Outcome = docsapi.DeploySuccess
	}
	now := s.now()

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failNext > 0 {
		s.failNext--
		lc.Outcome = docsapi.DeployFailure
	}
	s.deploySeq++
	seq := uint64(s.deploySeq)
	sub := s.cfg.domain
	if r.Preview {
		sub += "-" + slug(r.Branch)
	}
	msg, files := deployCommit(seq)
	d := &deployment{
		api: docsapi.DeployStatus{
			ID:        fmt.Sprintf("%08x%016x", uint32(now.Unix()), hash(tagDeploy, seq)),
			ProjectID: s.ProjectID,
			Status:    docsapi.DeployQueued,
			CreatedAt: *stamp(now),
			Summary:   "Queued",
			Logs:      []string{},
			Subdomain: sub,
			Author: &docsapi.DeployAuthor{
				Name:         "docs-writer",
				AvatarURL:    "https://avatars.githubusercontent.com/u/1000001?v=4",
				GitHubUserID: 1000001,
			},
			Commit: docsapi.DeployCommit{
				SHA:          fmt.Sprintf("%016x%016x%08x", hash(tagDeploy, seq, 1), hash(tagDeploy, seq, 2), uint32(hash(tagDeploy, seq, 3))),
				Ref:          r.Branch,
				Message:      msg,
				FilesChanged: files,
			},
			Source: "api",
		},
		lc:        lc,
		preview:   r.Preview,
		startedAt: now,
		siteURL:   "https://" + sub + ".mintlify.app",
		pages:     20 + int(hash(tagDeploy, seq, 4)%60),
	}
	for s.deployments[d.api.ID] != nil {
		s.deploySeq++
		d.api.ID = fmt.Sprintf("%08x%016x", uint32(now.Unix()), hash(tagDeploy, uint64(s.deploySeq)))
	}
	s.deployments[d.api.ID] = d
	s.deployOrder = append(s.deployOrder, d)
	return d
}

// slug turns a branch name into a host name label: lower case, runs of
// anything but letters and digits as one "-", at most 40 bytes.
func slug(branch string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(branch) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > 40 {
		out = strings.TrimRight(out[:40], "-")
	}
	if out == "" {
		out = "preview"
	}
	return out
}

// deployCommit picks a commit message and changed files for deployment seq.
func deployCommit(seq uint64) (string, docsapi.FilesChanged) {
	commits := []struct {
		msg   string
		files docsapi.FilesChanged
	}{
		{"Update quickstart guide", docsapi.FilesChanged{Modified: []string{"quickstart.mdx"}}},
		{"Add webhooks page", docsapi.FilesChanged{Added: []string{"guides/webhooks.mdx"}, Modified: []string{"docs.json"}}},
		{"Remove deprecated v1 agent pages", docsapi.FilesChanged{Modified: []string{"docs.json"}, Removed: []string{"api-reference/v1/agent.mdx", "api-reference/v1/jobs.mdx"}}},
		{"Fix typos in authentication docs", docsapi.FilesChanged{Modified: []string{"api-reference/authentication.mdx", "essentials/settings.mdx"}}},
	}
	c := commits[hash(tagDeploy, seq, 5)%uint64(len(commits))]
	clone := func(l []string) []string {
		if l == nil {
			return []string{}
		}
		return append([]string(nil), l...)
	}
	return c.msg, docsapi.FilesChanged{Added: clone(c.files.Added), Modified: clone(c.files.Modified), Removed: clone(c.files.Removed)}
}

// advanceDeployLocked counts one GET of d and moves it on when its
// lifecycle says so.
func (s *Server) advanceDeployLocked(d *deployment, now time.Time) {
	since := now.Sub(d.startedAt)
	if d.api.Status == docsapi.DeployQueued {
		if d.queued < d.lc.QueuedPolls || since < d.lc.QueuedFor {
			d.queued++
			return
		}
		d.api.Status = docsapi.DeployInProgress
		d.api.Summary = "Deploying"
		d.api.Logs = []string{
			fmt.Sprintf("Cloning %s at %s (%.7s)", strings.TrimSuffix(s.cfg.repository, ".git"), d.api.Commit.Ref, d.api.Commit.SHA),
			"Installing dependencies",
		}
	}
	if d.api.Status != docsapi.DeployInProgress {
		return
	}
	if d.running < d.lc.RunningPolls || since < d.lc.ActiveFor {
		d.running++
		return
	}
	d.api.EndedAt = *stamp(now)
	d.api.Logs = append(d.api.Logs, fmt.Sprintf("Building %d pages", d.pages))
	if len(d.lc.Logs) > 0 && (d.lc.Outcome == docsapi.DeploySuccess || d.lc.Outcome == docsapi.DeployFailure) {
		d.api.Logs = append(d.api.Logs, d.lc.Logs...)
		d.api.Status = d.lc.Outcome
		d.api.Summary = fmt.Sprintf("Deployed %d pages in %s", d.pages, since.Truncate(time.Second))
		if d.lc.Outcome == docsapi.DeployFailure {
			// The platform sums a failure up with its last line.
			d.api.Summary = "Build failed: " + d.lc.Logs[len(d.lc.Logs)-1]
		}
		return
	}
	switch d.lc.Outcome {
	case docsapi.DeploySuccess:
		d.api.Status = docsapi.DeploySuccess
		d.api.Logs = append(d.api.Logs, "Deployed to "+d.siteURL)
		d.api.Summary = fmt.Sprintf("Deployed %d pages in %s", d.pages, since.Truncate(time.Second))
	case docsapi.DeployFailure:
		d.api.Status = docsapi.DeployFailure
		d.api.Logs = append(d.api.Logs,
			"Checking links",
			"Error: broken link /quickstart#install in introduction.mdx")
		d.api.Summary = "Build failed: broken link /quickstart#install in introduction.mdx"
	default:
		d.api.Status = d.lc.Outcome
		d.api.Summary = ""
	}
}

// deployStatus handles GET /v1/project/update-status/{statusId}; it counts
// as a poll.
func (s *Server) deployStatus(id string) *response {
	now := s.now()
	s.mu.Lock()
	d, ok := s.deployments[id]
	if !ok {
		s.mu.Unlock()
		return errorResponse(http.StatusNotFound, msgNoDeployment)
	}
	s.advanceDeployLocked(d, now)
	w := wireDeploy(d.api, s.cfg.floatCounts)
	s.mu.Unlock()
	return jsonResponse(http.StatusOK, w)
}

// wireDeploy is a status as the service writes it: the id as "_id", times
// in RFC 3339 with milliseconds, endedAt absent while running, and, with
// [WithFloatCounts], githubUserId as 1000001.0.
func wireDeploy(st docsapi.DeployStatus, floatCounts bool) any {
	type author struct {
		Name         string          `json:"name"`
		AvatarURL    string          `json:"avatarUrl"`
		GitHubUserID json.RawMessage `json:"githubUserId"`
	}
	var a *author
	if st.Author != nil {
		id := fmt.Sprint(st.Author.GitHubUserID)
		if floatCounts {
			id += ".0"
		}
		a = &author{Name: st.Author.Name, AvatarURL: st.Author.AvatarURL, GitHubUserID: json.RawMessage(id)}
	}
	ts := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
	}
	return struct {
		ID        string               `json:"_id"`
		ProjectID string               `json:"projectId"`
		Status    docsapi.DeployState  `json:"status"`
		CreatedAt string               `json:"createdAt"`
		EndedAt   string               `json:"endedAt,omitempty"`
		Summary   string               `json:"summary"`
		Logs      []string             `json:"logs"`
		Subdomain string               `json:"subdomain"`
		Author    *author              `json:"author"`
		Commit    docsapi.DeployCommit `json:"commit"`
		Source    string               `json:"source"`
	}{st.ID, st.ProjectID, st.Status, ts(st.CreatedAt), ts(st.EndedAt), st.Summary, st.Logs, st.Subdomain, a, st.Commit, st.Source}
}

// cloneDeploy returns a deep copy of st.
func cloneDeploy(st docsapi.DeployStatus) docsapi.DeployStatus {
	st.Logs = append([]string{}, st.Logs...)
	if st.Author != nil {
		a := *st.Author
		st.Author = &a
	}
	fc := &st.Commit.FilesChanged
	fc.Added = append([]string{}, fc.Added...)
	fc.Modified = append([]string{}, fc.Modified...)
	fc.Removed = append([]string{}, fc.Removed...)
	return st
}

// Deployment returns a copy of the deployment or preview with this status
// id as the API would show it now, without counting as a poll.
func (s *Server) Deployment(id string) (docsapi.DeployStatus, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.deployments[id]
	if !ok {
		return docsapi.DeployStatus{}, false
	}
	return cloneDeploy(d.api), true
}

// Deployments returns copies of all deployments and previews in the order
// they were started.
func (s *Server) Deployments() []docsapi.DeployStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]docsapi.DeployStatus, len(s.deployOrder))
	for i, d := range s.deployOrder {
		out[i] = cloneDeploy(d.api)
	}
	return out
}

// SetDeployStatus forces the state of a deployment. Forcing queued or
// in_progress lets it move on again by its lifecycle, counted from now;
// forcing success or failure ends it as that lifecycle would (failure with
// its error logs); any other state is kept verbatim and never moves on. An
// unknown id is ignored.
func (s *Server) SetDeployStatus(id string, st docsapi.DeployState) {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.deployments[id]
	if !ok {
		return
	}
	switch st {
	case docsapi.DeployQueued, docsapi.DeployInProgress:
		d.api.Status, d.api.EndedAt = st, time.Time{}
		d.queued, d.running, d.startedAt = 0, 0, now
		if st == docsapi.DeployQueued {
			d.api.Summary, d.api.Logs = "Queued", []string{}
		}
	case docsapi.DeploySuccess, docsapi.DeployFailure:
		keep := d.lc
		d.api.Status, d.lc, d.running = docsapi.DeployInProgress, DeployLifecycle{Outcome: st}, 0
		s.advanceDeployLocked(d, now)
		d.lc = keep
	default:
		d.api.Status = st
	}
}
