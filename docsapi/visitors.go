package docsapi

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Visitors returns one page of the unique-visitors export
// (GET /v1/analytics/{projectId}/visitors). Zero fields of p are not sent, so
// the service's defaults apply (limit 50, offset 0).
func (c *Client) Visitors(ctx context.Context, p VisitorsParams) (*VisitorsPage, error) {
	if err := checkVisitorsParams(p); err != nil {
		return nil, err
	}
	return c.visitorsPage(ctx, p)
}

// VisitorPages walks every page of the export from p.Offset on, with
// p.Limit rows a page (250, the maximum, when p.Limit is 0), moving the offset
// on by the limit while the server reports more. It yields each page, or one
// error and stops: a failed request, a server that sends the same rows as
// the previous page again, a page with no rows that claims more follow, or a
// walk longer than the client's page cap ([WithMaxPages]).
func (c *Client) VisitorPages(ctx context.Context, p VisitorsParams) iter.Seq2[*VisitorsPage, error] {
	return func(yield func(*VisitorsPage, error) bool) {
		if p.Limit == 0 {
			p.Limit = MaxVisitorsLimit
		}
		if err := checkVisitorsParams(p); err != nil {
			yield(nil, err)
			return
		}
		var prev []PageVisitors
		for n := 1; ; n++ {
			page, err := c.visitorsPage(ctx, p)
			if err != nil {
				yield(nil, err)
				return
			}
			if n > 1 && len(page.Visitors) > 0 && slices.Equal(page.Visitors, prev) {
				yield(nil, fmt.Errorf("docsapi: visitors page %d (offset %d) repeats the previous page: the server is not paging", n, p.Offset))
				return
			}
			if page.HasMore && len(page.Visitors) == 0 {
				yield(nil, fmt.Errorf("docsapi: visitors page %d (offset %d) is empty but claims more rows follow", n, p.Offset))
				return
			}
			if !yield(page, nil) || !page.HasMore {
				return
			}
			if n >= c.maxPages {
				yield(nil, fmt.Errorf("docsapi: visitors export has more than %d pages of %d rows; stopped", c.maxPages, p.Limit))
				return
			}
			prev = page.Visitors
			p.Offset += p.Limit
		}
	}
}

func (c *Client) visitorsPage(ctx context.Context, p VisitorsParams) (*VisitorsPage, error) {
	q := url.Values{}
	if p.From != "" {
		q.Set("dateFrom", p.From)
	}
	if p.To != "" {
		q.Set("dateTo", p.To)
	}
	if p.Limit != 0 {
		q.Set("limit", strconv.Itoa(p.Limit))
	}
	if p.Offset != 0 {
		q.Set("offset", strconv.Itoa(p.Offset))
	}
	cl := &call{
		method:  http.MethodGet,
		path:    "/v1/analytics/" + url.PathEscape(c.projectID) + "/visitors",
		query:   q,
		maxBody: maxBodyVisitors,
	}
	res, err := c.do(ctx, cl)
	if err != nil {
		return nil, err
	}
	page, err := decodeVisitors(res.body)
	if err != nil {
		return nil, c.malformed(cl, res.status, res.body, err)
	}
	return page, nil
}

// decodeVisitors reads a page of the export. Unknown fields are ignored and
// counts may be any JSON number. totals, visitors and hasMore must be present
// (the service always sends them, and a walk must not end early on an
// answer that lacks hasMore); a null visitors list reads as empty.
func decodeVisitors(b []byte) (*VisitorsPage, error) {
	var w struct {
		Totals   *Counts         `json:"totals"`
		Visitors json.RawMessage `json:"visitors"`
		HasMore  *bool           `json:"hasMore"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, err
	}
	var missing []string
	if w.Totals == nil {
		missing = append(missing, "totals")
	}
	if w.Visitors == nil {
		missing = append(missing, "visitors")
	}
	if w.HasMore == nil {
		missing = append(missing, "hasMore")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("answer lacks %s", strings.Join(missing, ", "))
	}
	page := &VisitorsPage{Totals: *w.Totals, HasMore: *w.HasMore}
	if err := json.Unmarshal(w.Visitors, &page.Visitors); err != nil {
		return nil, fmt.Errorf("visitors: %w", err)
	}
	if page.Visitors == nil {
		page.Visitors = []PageVisitors{}
	}
	return page, nil
}
