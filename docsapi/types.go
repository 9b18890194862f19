package docsapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"time"
)

// Status is the state of an agent job. Values the client does not know are kept
// as they are and count as not finished.
type Status string

// The job states documented by the service.
const (
	StatusActive    Status = "active"
	StatusCompleted Status = "completed"
	StatusArchived  Status = "archived"
	StatusFailed    Status = "failed"
)

// Final reports whether the job has stopped working: completed, archived or failed.
// An unknown status is not final, so a client keeps following the job.
func (s Status) Final() bool {
	switch s {
	case StatusCompleted, StatusArchived, StatusFailed:
		return true
	}
	return false
}

// Known reports whether s is one of the documented states.
func (s Status) Known() bool {
	return s == StatusActive || s.Final()
}

// Source describes the repository an agent job works on.
type Source struct {
	// Repository is the full URL of the source repository.
	Repository string `json:"repository"`
	// Ref is the branch, or nil when the service sends none.
	Ref *string `json:"ref"`
}

// Job is an agent job as returned by the create, message and get operations.
type Job struct {
	ID     string `json:"id"`
	Status Status `json:"status"`
	Source Source `json:"source"`
	Model  string `json:"model"`
	// PRLink is the pull request the agent opened, or nil while the job is active
	// or when no file was changed.
	PRLink     *string    `json:"prLink"`
	CreatedAt  *time.Time `json:"createdAt,omitempty"`
	ArchivedAt *time.Time `json:"archivedAt,omitempty"`
}

// PR returns the pull request link, or "" when there is none.
func (j *Job) PR() string {
	if j == nil || j.PRLink == nil {
		return ""
	}
	return *j.PRLink
}

// Count is an approximate distinct count. It decodes from any JSON number,
// including forms such as 12.0 or 1.2e3, rounding to the nearest integer.
type Count int64

// UnmarshalJSON accepts any JSON number and null (as zero).
func (c *Count) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*c = 0
		return nil
	}
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*c = Count(n)
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	// float64(math.MaxInt64) is 2^63, one past the largest Count: compare
	// with the bounds as exact powers of two.
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f >= 1<<63 || f < -(1<<63) {
		return errors.New("visitor count is not a number")
	}
	*c = Count(math.Round(f))
	return nil
}

// Counts holds unique-visitor counts split by kind of traffic. Total is
// deduplicated across human and AI traffic: it is not Human+AI.
type Counts struct {
	Human Count `json:"human"`
	AI    Count `json:"ai"`
	Total Count `json:"total"`
}

// PageVisitors holds the unique-visitor counts of one page path.
type PageVisitors struct {
	Path string `json:"path"`
	Counts
}

// VisitorsPage is one page of the unique-visitors export.
type VisitorsPage struct {
	Totals   Counts         `json:"totals"`
	Visitors []PageVisitors `json:"visitors"`
	HasMore  bool           `json:"hasMore"`
}

// VisitorsParams selects a date range and a page of the unique-visitors export.
// Zero values leave a parameter out, so the service's defaults apply.
type VisitorsParams struct {
	// From is the first day of the range (YYYY-MM-DD or ISO 8601), inclusive.
	From string
	// To is the end of the range (YYYY-MM-DD or ISO 8601), exclusive.
	To string
	// Limit is the page size, 1 to 250. Zero sends none (the service uses 50).
	Limit int
	// Offset is the number of rows to skip, 0 or more.
	Offset int
}

// MarshalJSON writes a Count as an integer.
func (c Count) MarshalJSON() ([]byte, error) { return strconv.AppendInt(nil, int64(c), 10), nil }

var _ json.Unmarshaler = (*Count)(nil)
