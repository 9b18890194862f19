package docsapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

const maxBodySearch = 10 << 20 // 10 MiB: search results and a whole page

// Search searches the docs (POST /v1/search/{domain}) and returns the pages
// found, best first. It costs no credits and, reading only, is retried like a
// GET.
func (a *Assistant) Search(ctx context.Context, p SearchParams) ([]SearchResult, error) {
	if strings.TrimSpace(p.Query) == "" {
		return nil, &ValidationError{Field: "query", Problem: "must not be empty"}
	}
	if p.PageSize < 0 || p.PageSize > MaxSearchPageSize {
		return nil, &ValidationError{Field: "page size", Problem: fmt.Sprintf("must be between 1 and %d (0 for the default)", MaxSearchPageSize)}
	}
	if t := p.ScoreThreshold; t != nil && !(*t >= 0 && *t <= 1) {
		return nil, &ValidationError{Field: "score threshold", Problem: "must be between 0 and 1"}
	}
	body, err := json.Marshal(struct {
		Query          string        `json:"query"`
		PageSize       int           `json:"pageSize,omitempty"`
		ScoreThreshold *float64      `json:"scoreThreshold,omitempty"`
		Filter         *SearchFilter `json:"filter,omitempty"`
	}{p.Query, p.PageSize, p.ScoreThreshold, p.Filter})
	if err != nil {
		return nil, fmt.Errorf("docsapi: encoding search: %w", err)
	}
	cl := &call{method: http.MethodPost, path: "/v1/search/" + url.PathEscape(a.c.projectID), body: body, safe: true, maxBody: maxBodySearch}
	res, err := a.c.do(ctx, cl)
	if err != nil {
		return nil, err
	}
	results, err := decodeSearchResults(res.body)
	if err != nil {
		return nil, a.c.malformed(cl, res.status, res.body, err)
	}
	return results, nil
}

// Page returns the full text of the page at path, a Path from [Search]
// (POST /v1/page/{domain}). groups, on a site with access control, names the
// groups whose pages may be read. An unknown page (or a site without a search
// index) gives an error matching [ErrNotFound].
func (a *Assistant) Page(ctx context.Context, path string, groups ...string) (*Page, error) {
	if strings.TrimSpace(path) == "" {
		return nil, &ValidationError{Field: "path", Problem: "must not be empty"}
	}
	body, err := json.Marshal(struct {
		Path   string   `json:"path"`
		Groups []string `json:"groups,omitempty"`
	}{path, groups})
	if err != nil {
		return nil, fmt.Errorf("docsapi: encoding page request: %w", err)
	}
	cl := &call{method: http.MethodPost, path: "/v1/page/" + url.PathEscape(a.c.projectID), body: body, safe: true, maxBody: maxBodySearch}
	res, err := a.c.do(ctx, cl)
	if err != nil {
		return nil, err
	}
	var pg Page
	if err := json.Unmarshal(res.body, &pg); err != nil {
		return nil, a.c.malformed(cl, res.status, res.body, err)
	}
	if pg.Path == "" {
		pg.Path = path
	}
	return &pg, nil
}

// decodeSearchResults reads the search answer: a bare array of
// {path, content, metadata}, or (tolerated, as the assistant's search tool
// sends it) an object holding the array in results.
func decodeSearchResults(b []byte) ([]SearchResult, error) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '{' {
		var w struct {
			Results json.RawMessage `json:"results"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, err
		}
		if len(w.Results) == 0 {
			return nil, errors.New("no results array")
		}
		b = w.Results
	}
	var items []json.RawMessage
	if err := json.Unmarshal(b, &items); err != nil {
		return nil, err
	}
	out := make([]SearchResult, 0, len(items))
	for _, item := range items {
		// An item that is not a result object is skipped, not fatal: no
		// field of a result is required by the spec.
		var r struct {
			Path     string          `json:"path"`
			Content  string          `json:"content"`
			Metadata json.RawMessage `json:"metadata"`
		}
		if json.Unmarshal(item, &r) != nil {
			continue
		}
		sr := SearchResult{Path: r.Path, Content: r.Content}
		if len(r.Metadata) > 0 && string(r.Metadata) != "null" {
			sr.Metadata = r.Metadata
			var md struct {
				Title       json.RawMessage `json:"title"`
				Description json.RawMessage `json:"description"`
			}
			if json.Unmarshal(r.Metadata, &md) == nil {
				sr.Title, sr.Description = jsonString(md.Title), jsonString(md.Description)
			}
		}
		out = append(out, sr)
	}
	return out, nil
}

// jsonString reads a JSON string, or "" for anything else.
func jsonString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}
