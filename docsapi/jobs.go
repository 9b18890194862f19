package docsapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// CreateJob starts an agent job carrying out prompt
// (POST /v2/agent/{projectId}/job). The job runs in the background; follow it
// with [Client.GetJob].
//
// The request is not repeated after it may have reached the server: an error
// wrapping [ErrOutcomeUnknown] means a job may exist although none was
// returned.
func (c *Client) CreateJob(ctx context.Context, prompt string) (*Job, error) {
	if err := checkPrompt(prompt); err != nil {
		return nil, err
	}
	return c.jobCall(ctx, &call{method: http.MethodPost, path: c.jobsPath(), body: promptBody(prompt)})
}

// SendMessage sends a follow-up instruction to the job jobID
// (POST /v2/agent/{projectId}/job/{id}/message) and returns the job. A finished
// job may become active again.
//
// As with [Client.CreateJob], an error wrapping [ErrOutcomeUnknown] means the
// message may have been delivered.
func (c *Client) SendMessage(ctx context.Context, jobID, prompt string) (*Job, error) {
	if err := checkPathID("job id", jobID); err != nil {
		return nil, err
	}
	if err := checkPrompt(prompt); err != nil {
		return nil, err
	}
	return c.jobCall(ctx, &call{method: http.MethodPost, path: c.jobPath(jobID) + "/message", body: promptBody(prompt)})
}

// GetJob returns the current state of the job jobID
// (GET /v2/agent/{projectId}/job/{id}). An unknown job gives an error
// matching [ErrNotFound].
func (c *Client) GetJob(ctx context.Context, jobID string) (*Job, error) {
	if err := checkPathID("job id", jobID); err != nil {
		return nil, err
	}
	return c.jobCall(ctx, &call{method: http.MethodGet, path: c.jobPath(jobID)})
}

func (c *Client) jobsPath() string { return "/v2/agent/" + url.PathEscape(c.projectID) + "/job" }

func (c *Client) jobPath(id string) string { return c.jobsPath() + "/" + url.PathEscape(id) }

func promptBody(prompt string) []byte {
	// A string always encodes; invalid UTF-8 becomes U+FFFD.
	b, _ := json.Marshal(struct {
		Prompt string `json:"prompt"`
	}{prompt})
	return b
}

func (c *Client) jobCall(ctx context.Context, cl *call) (*Job, error) {
	cl.maxBody = maxBodyDefault
	res, err := c.do(ctx, cl)
	if err != nil {
		return nil, err
	}
	job, err := decodeJob(res.body)
	if err != nil {
		return nil, c.malformed(cl, res.status, res.body, err)
	}
	return job, nil
}

// decodeJob reads a job document. Unknown fields are ignored, a status the
// client does not know is kept, and a timestamp in an unexpected form is left
// nil rather than failing the whole answer. A job without an id is an error.
func decodeJob(b []byte) (*Job, error) {
	type plainJob Job // without methods, so the wire struct below decodes field by field
	var w struct {
		plainJob
		CreatedAt  looseTime `json:"createdAt"`
		ArchivedAt looseTime `json:"archivedAt"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	job := Job(w.plainJob)
	if strings.TrimSpace(job.ID) == "" {
		return nil, errors.New("job has no id")
	}
	job.CreatedAt, job.ArchivedAt = w.CreatedAt.t, w.ArchivedAt.t
	return &job, nil
}

// looseTime decodes a timestamp tolerantly: the forms of [ParseDate], also
// with a space instead of the T. null, absent or unreadable gives nil.
type looseTime struct{ t *time.Time }

func (lt *looseTime) UnmarshalJSON(b []byte) error {
	lt.t = nil
	var s string
	if json.Unmarshal(b, &s) != nil {
		return nil
	}
	s = strings.TrimSpace(s)
	if len(s) > len(time.DateOnly) && s[len(time.DateOnly)] == ' ' {
		s = s[:len(time.DateOnly)] + "T" + s[len(time.DateOnly)+1:]
	}
	if t, ok := ParseDate(s); ok {
		lt.t = &t
	}
	return nil
}
