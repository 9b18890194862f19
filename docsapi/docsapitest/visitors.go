package docsapitest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/docsbot/docsbot/docsapi"
)

// Analytics paging bounds.
const (
	defaultLimit = 50
	maxLimit     = 250
)

// visitorsQuery is a validated analytics query.
type visitorsQuery struct {
	from, to      time.Time // zero = open end
	limit, offset int
}

// parseVisitorsQuery validates the query, returning one message per broken
// parameter.
func parseVisitorsQuery(q url.Values) (visitorsQuery, []string) {
	vq := visitorsQuery{limit: defaultLimit}
	var errs []string
	if _, ok := q["limit"]; ok {
		n, err := strconv.Atoi(q.Get("limit"))
		switch {
		case err != nil:
			errs = append(errs, "limit must be an integer")
		case n < 1 || n > maxLimit:
			errs = append(errs, "limit must be between 1 and 250")
		default:
			vq.limit = n
		}
	}
	if _, ok := q["offset"]; ok {
		n, err := strconv.Atoi(q.Get("offset"))
		switch {
		case err != nil:
			errs = append(errs, "offset must be an integer")
		case n < 0:
			errs = append(errs, "offset must be 0 or more")
		default:
			vq.offset = n
		}
	}
	errs = append(errs, parseDates(q, &vq.from, &vq.to)...)
	return vq, errs
}

// parseDate accepts YYYY-MM-DD and common ISO 8601 date-times and returns the
// start of the UTC day the value falls on. A date-time without a zone is UTC.
func parseDate(v string) (time.Time, bool) {
	for _, layout := range []string{
		"2006-01-02",
		time.RFC3339, // also takes fractional seconds
		"2006-01-02T15:04:05Z0700",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04:05",
		"2006-01-02T15:04",
	} {
		if t, err := time.Parse(layout, v); err == nil {
			t = t.UTC()
			return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), true
		}
	}
	return time.Time{}, false
}

// visitors handles GET /v1/analytics/{projectId}/visitors.
func (s *Server) visitors(q url.Values) *response {
	vq, errs := parseVisitorsQuery(q)
	if len(errs) > 0 {
		return invalidQuery(errs)
	}
	v := s.cfg.dataset.view(vq.from, vq.to)
	rows := []docsapi.PageVisitors{}
	if vq.offset < len(v.pages) {
		end := min(vq.offset+vq.limit, len(v.pages))
		rows = v.pages[vq.offset:end]
	}
	hasMore := vq.offset+vq.limit < len(v.pages)
	return rawJSON(http.StatusOK, encodeVisitors(v.totals, rows, hasMore, s.cfg.floatCounts))
}

// encodeVisitors writes the analytics answer; with float set every count is
// written with a fraction, such as 12.0.
func encodeVisitors(totals docsapi.Counts, rows []docsapi.PageVisitors, hasMore, float bool) []byte {
	b := make([]byte, 0, 64+len(rows)*80)
	counts := func(c docsapi.Counts) {
		for i, f := range []struct {
			name string
			n    docsapi.Count
		}{{"human", c.Human}, {"ai", c.AI}, {"total", c.Total}} {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, f.name...)
			b = append(b, `":`...)
			b = strconv.AppendInt(b, int64(f.n), 10)
			if float {
				b = append(b, ".0"...)
			}
		}
	}
	b = append(b, `{"totals":{`...)
	counts(totals)
	b = append(b, `},"visitors":[`...)
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		path, _ := json.Marshal(r.Path)
		b = append(b, `{"path":`...)
		b = append(b, path...)
		b = append(b, ',')
		counts(r.Counts)
		b = append(b, '}')
	}
	b = append(b, `],"hasMore":`...)
	b = strconv.AppendBool(b, hasMore)
	return append(b, '}')
}

// parseDates reads the dateFrom and dateTo of q, when given, into from and
// to, and returns what is wrong with them, as every analytics endpoint does.
func parseDates(q url.Values, from, to *time.Time) []string {
	var errs []string
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"dateFrom", from}, {"dateTo", to}} {
		if _, ok := q[p.name]; !ok {
			continue
		}
		t, ok := parseDate(q.Get(p.name))
		if !ok {
			errs = append(errs, p.name+" must be a date in YYYY-MM-DD or ISO 8601 format")
			continue
		}
		*p.dst = t
	}
	return errs
}
