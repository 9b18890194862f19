package docsapi

import (
	"strconv"
	"strings"
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
	if p.From != "" && !isDate(p.From) {
		return &ValidationError{Field: "from date", Problem: "must be YYYY-MM-DD or an ISO 8601 date-time"}
	}
	if p.To != "" && !isDate(p.To) {
		return &ValidationError{Field: "to date", Problem: "must be YYYY-MM-DD or an ISO 8601 date-time"}
	}
	return nil
}

// isDate reports whether s is a date the service accepts (see [ParseDate]).
func isDate(s string) bool {
	_, ok := ParseDate(s)
	return ok
}
