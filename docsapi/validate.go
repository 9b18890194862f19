package docsapi

import (
	"strconv"
	"strings"
	"time"
)

// checkPrompt rejects a prompt with no visible text.
func checkPrompt(prompt string) error {
	if strings.TrimSpace(prompt) == "" {
		return &ValidationError{Field: "prompt", Problem: "must not be empty"}
	}
	return nil
}

// checkPathID rejects an identifier that cannot name a path segment. Other
// characters are escaped when the path is built.
func checkPathID(field, id string) error {
	switch {
	case strings.TrimSpace(id) == "":
		return &ValidationError{Field: field, Problem: "must not be empty"}
	case id == "." || id == "..":
		return &ValidationError{Field: field, Problem: "must not be a dot segment"}
	}
	return nil
}

// checkVisitorsParams checks a visitors query before it is sent.
func checkVisitorsParams(p VisitorsParams) error {
	if p.Limit < 0 || p.Limit > MaxVisitorsLimit {
		return &ValidationError{Field: "limit", Problem: "must be between 1 and " + strconv.Itoa(MaxVisitorsLimit) + " (0 for the default)"}
	}
	if p.Offset < 0 {
		return &ValidationError{Field: "offset", Problem: "must not be negative"}
	}
	if p.From != "" && !isAPIDate(p.From) {
		return &ValidationError{Field: "from date", Problem: "must be YYYY-MM-DD or an ISO 8601 date-time"}
	}
	if p.To != "" && !isAPIDate(p.To) {
		return &ValidationError{Field: "to date", Problem: "must be YYYY-MM-DD or an ISO 8601 date-time"}
	}
	return nil
}

// isAPIDate accepts the forms of dateFrom and dateTo: a calendar date,
// RFC 3339 (with or without fractional seconds), and ISO 8601 date-times
// without a zone or with a basic-format offset.
func isAPIDate(s string) bool {
	layouts := [...]string{
		time.DateOnly,
		time.RFC3339Nano,
		"2006-01-02T15:04:05.999999999Z0700",
		"2006-01-02T15:04:05.999999999",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04",
	}
	for _, layout := range layouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}
