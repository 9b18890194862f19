package docsapitest

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/docsbot/docsbot/docsapi"
)

// jobModel is the model every job reports.
const jobModel = "claude-sonnet-4"

// job is the server's state for one agent job.
type job struct {
	api       docsapi.Job
	prompts   []string
	lc        Lifecycle
	polls     int       // GETs answered active since the last (re)start
	startedAt time.Time // server clock at the last (re)start
}

// newJobID returns "job_" and 16 random hex digits.
func newJobID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "job_" + hex.EncodeToString(b[:])
}

// stamp returns t in UTC at millisecond precision, as the service writes it.
func stamp(t time.Time) *time.Time {
	u := t.UTC().Truncate(time.Millisecond)
	return &u
}

// createJobLocked adds an active job for prompt.
func (s *Server) createJobLocked(prompt string, lc Lifecycle, now time.Time) *job {
	ref := "main"
	j := &job{
		api: docsapi.Job{
			ID:        newJobID(),
			Status:    docsapi.StatusActive,
			Source:    docsapi.Source{Repository: s.cfg.repository, Ref: &ref},
			Model:     jobModel,
			CreatedAt: stamp(now),
		},
		prompts:   []string{prompt},
		lc:        lc,
		startedAt: now,
	}
	for s.jobs[j.api.ID] != nil {
		j.api.ID = newJobID()
	}
	s.jobs[j.api.ID] = j
	s.order = append(s.order, j)
	return j
}

// restartLocked makes j active again for a follow-up prompt.
func (s *Server) restartLocked(j *job, prompt string, lc Lifecycle, now time.Time) {
	j.prompts = append(j.prompts, prompt)
	j.lc = lc
	j.api.Status = docsapi.StatusActive
	j.api.PRLink = nil
	j.api.ArchivedAt = nil
	j.polls = 0
	j.startedAt = now
}

// pollLocked counts one GET of j and finishes it when its lifecycle is over.
func (s *Server) pollLocked(j *job, now time.Time) {
	if j.api.Status != docsapi.StatusActive {
		return
	}
	if j.polls < j.lc.ActivePolls || now.Sub(j.startedAt) < j.lc.ActiveFor {
		j.polls++
		return
	}
	switch j.lc.Outcome {
	case OutcomePR, "":
		s.prSeq++
		link := fmt.Sprintf("%s/pull/%d", strings.TrimSuffix(strings.TrimSuffix(s.cfg.repository, "/"), ".git"), s.prSeq)
		j.api.Status = docsapi.StatusCompleted
		j.api.PRLink = &link
	case OutcomeNoChange:
		j.api.Status = docsapi.StatusCompleted
		j.api.PRLink = nil
	case OutcomeFailed:
		j.api.Status = docsapi.StatusFailed
		j.api.PRLink = nil
	case OutcomeArchived:
		j.api.Status = docsapi.StatusArchived
		j.api.ArchivedAt = stamp(now)
	default:
		j.api.Status = docsapi.Status(j.lc.Outcome)
		j.api.PRLink = nil
	}
}

// cloneJob returns a deep copy of j.
func cloneJob(j docsapi.Job) docsapi.Job {
	if j.PRLink != nil {
		v := *j.PRLink
		j.PRLink = &v
	}
	if j.Source.Ref != nil {
		v := *j.Source.Ref
		j.Source.Ref = &v
	}
	if j.CreatedAt != nil {
		v := *j.CreatedAt
		j.CreatedAt = &v
	}
	if j.ArchivedAt != nil {
		v := *j.ArchivedAt
		j.ArchivedAt = &v
	}
	return j
}

// Job returns a copy of the job with this id as the API would show it now,
// without counting as a poll.
func (s *Server) Job(id string) (docsapi.Job, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobs[id]
	if !ok {
		return docsapi.Job{}, false
	}
	return cloneJob(j.api), true
}

// Jobs returns copies of all jobs in creation order.
func (s *Server) Jobs() []docsapi.Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]docsapi.Job, len(s.order))
	for i, j := range s.order {
		out[i] = cloneJob(j.api)
	}
	return out
}

// Prompts returns the prompts a job received: the create prompt, then each
// follow-up in order. It returns nil for an unknown job.
func (s *Server) Prompts(id string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobs[id]
	if !ok {
		return nil
	}
	return append([]string(nil), j.prompts...)
}

// SetJobStatus forces the status and prLink of a job, for example to an
// unknown status such as "queued". Only an active job moves on by itself, so a
// forced non-active status stays until the next SetJobStatus or follow-up.
// Forcing "active" restarts the job's current lifecycle; forcing "archived"
// sets archivedAt (if unset); any other status clears it. An unknown id is
// ignored.
func (s *Server) SetJobStatus(id string, st docsapi.Status, prLink *string) {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.jobs[id]
	if !ok {
		return
	}
	j.api.Status = st
	j.api.PRLink = nil
	if prLink != nil {
		v := *prLink
		j.api.PRLink = &v
	}
	switch st {
	case docsapi.StatusArchived:
		if j.api.ArchivedAt == nil {
			j.api.ArchivedAt = stamp(now)
		}
	case docsapi.StatusActive:
		j.api.ArchivedAt = nil
		j.polls = 0
		j.startedAt = now
	default:
		j.api.ArchivedAt = nil
	}
}
