package docsapitest

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestAgentValidation(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	job := createJob(t, srv, "x")
	cases := []struct {
		name   string
		body   string
		status int
		msg    string
	}{
		{"empty body", "", http.StatusBadRequest, msgBadJSON},
		{"not JSON", "prompt=hello", http.StatusBadRequest, msgBadJSON},
		{"truncated JSON", `{"prompt":"hel`, http.StatusBadRequest, msgBadJSON},
		{"array", `["hello"]`, http.StatusBadRequest, msgNotObject},
		{"string", `"hello"`, http.StatusBadRequest, msgNotObject},
		{"no prompt", `{"message":"hello"}`, http.StatusBadRequest, msgPromptRequired},
		{"null prompt", `{"prompt":null}`, http.StatusBadRequest, msgPromptRequired},
		{"number prompt", `{"prompt":5}`, http.StatusBadRequest, msgPromptNotString},
		{"object prompt", `{"prompt":{"text":"x"}}`, http.StatusBadRequest, msgPromptNotString},
		{"empty prompt", `{"prompt":""}`, http.StatusBadRequest, msgPromptEmpty},
		{"too large", `{"prompt":"` + strings.Repeat("a", maxBody) + `"}`, http.StatusRequestEntityTooLarge, msgTooLarge},
		{"blank prompt is a prompt", `{"prompt":" "}`, 0, ""},
		{"extra fields are ignored", `{"prompt":"go","model":"other"}`, 0, ""},
	}
	for _, ep := range []struct {
		name string
		path string
		ok   int
	}{
		{"create", jobsPath(srv), http.StatusCreated},
		{"message", messagePath(srv, job.ID), http.StatusOK},
	} {
		for _, tc := range cases {
			t.Run(ep.name+"/"+tc.name, func(t *testing.T) {
				r := do(t, srv, http.MethodPost, ep.path, tc.body)
				if tc.status == 0 {
					mustJob(t, r, ep.ok)
					return
				}
				e := mustError(t, r, tc.status)
				if e.Error != tc.msg {
					t.Errorf("error %q, want %q", e.Error, tc.msg)
				}
			})
		}
	}
}

func TestVisitorsValidation(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	const dateMsg = " must be a date in YYYY-MM-DD or ISO 8601 format"
	for _, tc := range []struct {
		name    string
		query   string
		details []string // nil: valid
	}{
		{"no parameters", "", nil},
		{"limit 1", "limit=1", nil},
		{"limit 250", "limit=250", nil},
		{"offset 0", "offset=0", nil},
		{"big offset", "offset=100000", nil},
		{"plain dates", "dateFrom=2025-11-01&dateTo=2025-11-08", nil},
		{"UTC date-time", "dateFrom=2025-11-01T10:00:00Z", nil},
		{"date-time with fraction and offset", "dateFrom=2025-11-01T10:00:00.123%2B02:00", nil},
		{"date-time without zone", "dateTo=2025-11-01T10:00:00", nil},
		{"date-time without seconds", "dateTo=2025-11-01T10:00Z", nil},
		{"unknown parameter ignored", "page=3", nil},
		{"limit text", "limit=abc", []string{"limit must be an integer"}},
		{"limit fraction", "limit=1.5", []string{"limit must be an integer"}},
		{"limit empty", "limit=", []string{"limit must be an integer"}},
		{"limit 0", "limit=0", []string{"limit must be between 1 and 250"}},
		{"limit 251", "limit=251", []string{"limit must be between 1 and 250"}},
		{"limit negative", "limit=-5", []string{"limit must be between 1 and 250"}},
		{"offset negative", "offset=-1", []string{"offset must be 0 or more"}},
		{"offset text", "offset=x", []string{"offset must be an integer"}},
		{"month 13", "dateFrom=2025-13-01", []string{"dateFrom" + dateMsg}},
		{"February 30", "dateTo=2025-02-30", []string{"dateTo" + dateMsg}},
		{"word date", "dateTo=yesterday", []string{"dateTo" + dateMsg}},
		{"slashed date", "dateFrom=11/01/2025", []string{"dateFrom" + dateMsg}},
		{"empty date", "dateFrom=", []string{"dateFrom" + dateMsg}},
		{"every parameter wrong", "limit=0&offset=-1&dateFrom=x&dateTo=y", []string{
			"limit must be between 1 and 250", "offset must be 0 or more", "dateFrom" + dateMsg, "dateTo" + dateMsg,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := visitorsPath(srv)
			if tc.query != "" {
				path += "?" + tc.query
			}
			r := do(t, srv, http.MethodGet, path, "")
			if tc.details == nil {
				mustPage(t, r)
				return
			}
			e := mustError(t, r, http.StatusBadRequest)
			if e.Error != msgInvalidQuery {
				t.Errorf("error %q, want %q", e.Error, msgInvalidQuery)
			}
			var got []string
			for _, d := range e.Details {
				got = append(got, d.Message)
			}
			if !slices.Equal(got, tc.details) {
				t.Errorf("details %q, want %q", got, tc.details)
			}
		})
	}
}
