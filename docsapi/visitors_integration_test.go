package docsapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// The paging tests serve a 613-page site on a fixed clock, for the range
// pagingFrom (inclusive) to pagingTo (exclusive).
const (
	pagingPaths = 613
	pagingFrom  = "2025-08-01"
	pagingTo    = "2025-11-01"
)

// allVisitors reads every page of the export and merges them, as the bot
// and the command line do: nil and the first error on any error.
func allVisitors(ctx context.Context, c *docsapi.Client, p docsapi.VisitorsParams) (*docsapi.VisitorsPage, error) {
	var m docsapi.VisitorsMerge
	for page, err := range c.VisitorPages(ctx, p) {
		if err != nil {
			return nil, err
		}
		m.Add(page)
	}
	return m.Result(), nil
}

func pagingNow() time.Time { return time.Date(2025, 11, 20, 15, 30, 0, 0, time.UTC) }

func pagingRange() docsapi.VisitorsParams {
	return docsapi.VisitorsParams{From: pagingFrom, To: pagingTo}
}

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func pagingEnv(t *testing.T, opts ...docsapitest.Option) (*env, []docsapi.PageVisitors, docsapi.Counts) {
	t.Helper()
	ds := docsapitest.NewDataset(pagingPaths, 7)
	all := append([]docsapitest.Option{
		docsapitest.WithDataset(ds),
		docsapitest.WithClock(pagingNow),
		docsapitest.WithLimits(docsapitest.Limits{}),
	}, opts...)
	e := newEnv(t, all)
	pages := ds.Pages(day(pagingFrom), day(pagingTo))
	if len(pages) != pagingPaths {
		t.Fatalf("dataset has %d pages with visitors in range, the test needs %d", len(pages), pagingPaths)
	}
	return e, pages, ds.Totals(day(pagingFrom), day(pagingTo))
}

// TestVisitorPagesMerged walks 613 rows and compares the merged answer with
// the dataset, checking the exact requests made.
func TestVisitorPagesMerged(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		limit       int
		float       bool
		wantOffsets []int
	}{
		{name: "default limit is the maximum", limit: 0, wantOffsets: []int{0, 250, 500}},
		{name: "explicit 250", limit: 250, wantOffsets: []int{0, 250, 500}},
		{name: "counts written as 12.0", limit: 0, float: true, wantOffsets: []int{0, 250, 500}},
		{name: "limit 200", limit: 200, wantOffsets: []int{0, 200, 400, 600}},
		{name: "limit above the maximum", limit: 613, wantOffsets: nil}, // rejected before sending
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, pages, totals := pagingEnv(t, docsapitest.WithFloatCounts(tt.float))
			p := pagingRange()
			p.Limit = tt.limit
			got, err := allVisitors(context.Background(), e.c, p)
			if tt.wantOffsets == nil {
				var ve *docsapi.ValidationError
				if !errors.As(err, &ve) || ve.Field != "limit" || len(e.srv.Requests()) != 0 {
					t.Fatalf("VisitorPages(limit %d) = %v; want a limit ValidationError and no request", tt.limit, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("VisitorPages: %v", err)
			}
			if got.HasMore || got.Totals != totals || !reflect.DeepEqual(got.Visitors, pages) {
				t.Errorf("merged pages = totals %+v, %d rows, hasMore %v; want totals %+v, the dataset's %d rows in order",
					got.Totals, len(got.Visitors), got.HasMore, totals, len(pages))
			}
			reqs := e.srv.Requests()
			if len(reqs) != len(tt.wantOffsets) {
				t.Fatalf("made %d requests, want %d", len(reqs), len(tt.wantOffsets))
			}
			wantLimit := strconv.Itoa(tt.limit)
			if tt.limit == 0 {
				wantLimit = strconv.Itoa(docsapi.MaxVisitorsLimit)
			}
			for i, r := range reqs {
				q := r.Query
				offset := q.Get("offset")
				if offset == "" {
					offset = "0"
				}
				if r.Endpoint != docsapitest.EndpointVisitors || q.Get("limit") != wantLimit || offset != strconv.Itoa(tt.wantOffsets[i]) ||
					q.Get("dateFrom") != pagingFrom || q.Get("dateTo") != pagingTo {
					t.Errorf("request %d: %s %v, want limit %s offset %d and the range", i, r.Endpoint, q, wantLimit, tt.wantOffsets[i])
				}
			}
		})
	}
}

// TestVisitorPagesYieldsEachPage checks the walk page by page, and that a
// caller that stops early makes no further request.
func TestVisitorPagesYieldsEachPage(t *testing.T) {
	t.Parallel()
	e, pages, totals := pagingEnv(t)
	ctx := context.Background()
	var rows []docsapi.PageVisitors
	n := 0
	for page, err := range e.c.VisitorPages(ctx, pagingRange()) {
		if err != nil {
			t.Fatalf("page %d: %v", n+1, err)
		}
		n++
		if page.Totals != totals || len(page.Visitors) == 0 || len(page.Visitors) > docsapi.MaxVisitorsLimit {
			t.Errorf("page %d: totals %+v, %d rows", n, page.Totals, len(page.Visitors))
		}
		rows = append(rows, page.Visitors...)
		if page.HasMore != (len(rows) < len(pages)) {
			t.Errorf("page %d: hasMore %v after %d of %d rows", n, page.HasMore, len(rows), len(pages))
		}
	}
	if n != e.srv.Count(docsapitest.EndpointVisitors) || !reflect.DeepEqual(rows, pages) {
		t.Errorf("walk gave %d pages / %d rows in %d requests, want the dataset's %d rows", n, len(rows), e.srv.Count(docsapitest.EndpointVisitors), len(pages))
	}

	e.srv.ResetRequests()
	for page, err := range e.c.VisitorPages(ctx, pagingRange()) {
		if err != nil || page == nil {
			t.Fatal(err)
		}
		break
	}
	if got := e.srv.Count(docsapitest.EndpointVisitors); got != 1 {
		t.Errorf("stopping after the first page made %d requests, want 1", got)
	}
}

// TestVisitorsOnePage asks for single pages and compares them with the dataset.
func TestVisitorsOnePage(t *testing.T) {
	t.Parallel()
	e, pages, totals := pagingEnv(t)
	tests := []struct {
		name          string
		limit, offset int
	}{
		{"first rows", 10, 0},
		{"middle", 25, 300},
		{"last page", 250, 500},
		{"beyond the end", 50, 1000},
		{"service default limit", 0, 40},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pagingRange()
			p.Limit, p.Offset = tt.limit, tt.offset
			got, err := e.c.Visitors(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			limit := tt.limit
			if limit == 0 {
				limit = 50 // the service's default page size
			}
			start, end := min(tt.offset, len(pages)), min(tt.offset+limit, len(pages))
			want := pages[start:end]
			if got.Totals != totals || !reflect.DeepEqual(got.Visitors, want) || got.HasMore != (end < len(pages)) || got.Visitors == nil {
				t.Errorf("Visitors(%+v) = %d rows, hasMore %v; want rows %d..%d, hasMore %v", p, len(got.Visitors), got.HasMore, start, end, end < len(pages))
			}
		})
	}
}

// TestVisitorsCountForms serves counts written in several JSON number forms.
func TestVisitorsCountForms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		want       docsapi.VisitorsPage
	}{
		{"fractions and exponents",
			`{"totals":{"human":12.0,"ai":1.5e3,"total":1.51E+3},"visitors":[{"path":"/a","human":7.0,"ai":2.5e1,"total":31.6}],"hasMore":false}`,
			docsapi.VisitorsPage{Totals: docsapi.Counts{Human: 12, AI: 1500, Total: 1510}, Visitors: []docsapi.PageVisitors{{Path: "/a", Counts: docsapi.Counts{Human: 7, AI: 25, Total: 32}}}}},
		{"unknown fields and nulls",
			`{"totals":{"human":3,"ai":null,"total":3,"bots":1},"visitors":[{"path":"/b","human":3,"ai":0,"total":3,"title":"B"}],"hasMore":false,"cursor":null}`,
			docsapi.VisitorsPage{Totals: docsapi.Counts{Human: 3, Total: 3}, Visitors: []docsapi.PageVisitors{{Path: "/b", Counts: docsapi.Counts{Human: 3, Total: 3}}}}},
		{"null rows",
			`{"totals":{"human":0,"ai":0,"total":0},"visitors":null,"hasMore":false}`,
			docsapi.VisitorsPage{Visitors: []docsapi.PageVisitors{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, nil)
			e.srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Body: tt.body})
			got, err := allVisitors(context.Background(), e.c, docsapi.VisitorsParams{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("merged pages = %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// TestValidationSendsNothing checks that invalid arguments are rejected, with
// the field named, before any request.
func TestValidationSendsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	visitors := func(p docsapi.VisitorsParams) []func() error {
		return []func() error{
			func() error { _, err := e.c.Visitors(ctx, p); return err },
			func() error { _, err := allVisitors(ctx, e.c, p); return err },
			func() error {
				for _, err := range e.c.VisitorPages(ctx, p) {
					return err
				}
				return errors.New("the walk yielded nothing")
			},
		}
	}
	tests := []struct {
		name  string
		calls []func() error
		field string
	}{
		{"create, empty prompt", []func() error{func() error { _, err := e.c.CreateJob(ctx, ""); return err }}, "prompt"},
		{"create, blank prompt", []func() error{func() error { _, err := e.c.CreateJob(ctx, " \n\t "); return err }}, "prompt"},
		{"message, blank prompt", []func() error{func() error { _, err := e.c.SendMessage(ctx, "job_1", "  "); return err }}, "prompt"},
		{"message, empty job id", []func() error{func() error { _, err := e.c.SendMessage(ctx, "", "hi"); return err }}, "job id"},
		{"get, empty job id", []func() error{func() error { _, err := e.c.GetJob(ctx, ""); return err }}, "job id"},
		{"get, dot-dot job id", []func() error{func() error { _, err := e.c.GetJob(ctx, ".."); return err }}, "job id"},
		{"limit 251", visitors(docsapi.VisitorsParams{Limit: 251}), "limit"},
		{"negative limit", visitors(docsapi.VisitorsParams{Limit: -5}), "limit"},
		{"negative offset", visitors(docsapi.VisitorsParams{Offset: -1}), "offset"},
		{"bad from", visitors(docsapi.VisitorsParams{From: "01/11/2025"}), "from date"},
		{"bad to", visitors(docsapi.VisitorsParams{From: "2025-11-01", To: "2025-11-08 00:00"}), "to date"},
	}
	for _, tt := range tests {
		for i, call := range tt.calls {
			err := call()
			var ve *docsapi.ValidationError
			if !errors.As(err, &ve) || ve.Field != tt.field || !strings.Contains(err.Error(), "invalid "+tt.field) {
				t.Errorf("%s (call %d): error %v, want a ValidationError naming %q", tt.name, i, err, tt.field)
			}
		}
	}
	if n := len(e.srv.Requests()); n != 0 {
		t.Errorf("server saw %d requests, want 0", n)
	}
}

// rawPager serves visitors pages from a function of the offset, counting
// requests, for servers that misbehave in ways the test server does not.
func rawPager(t *testing.T, page func(offset, limit int) string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(page(offset, limit)))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func rowsJSON(from, n int) string {
	rows := make([]docsapi.PageVisitors, n)
	for i := range rows {
		rows[i] = docsapi.PageVisitors{Path: fmt.Sprintf("/p%d", from+i), Counts: docsapi.Counts{Human: 1, Total: 1}}
	}
	b, _ := json.Marshal(rows)
	return string(b)
}

// TestPagingMisbehavingServer checks that a walk stops with an error on a
// server that repeats a page, never ends, or claims more rows on an empty page.
func TestPagingMisbehavingServer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		page         func(offset, limit int) string
		maxPages     int
		wantText     string
		wantRequests int32
	}{
		{"repeats the first page", func(_, limit int) string {
			return `{"totals":{"human":9,"ai":0,"total":9},"visitors":` + rowsJSON(0, limit) + `,"hasMore":true}`
		}, 100, "repeats the previous page", 2},
		{"repeats a later page", func(offset, limit int) string {
			return `{"totals":{"human":9,"ai":0,"total":9},"visitors":` + rowsJSON(min(offset, 2*limit), limit) + `,"hasMore":true}`
		}, 100, "repeats the previous page", 4},
		{"never ends", func(offset, limit int) string {
			return `{"totals":{"human":9,"ai":0,"total":9},"visitors":` + rowsJSON(offset, limit) + `,"hasMore":true}`
		}, 5, "more than 5 pages", 5},
		{"empty page claiming more", func(offset, limit int) string {
			if offset > 0 {
				return `{"totals":{"human":9,"ai":0,"total":9},"visitors":[],"hasMore":true}`
			}
			return `{"totals":{"human":9,"ai":0,"total":9},"visitors":` + rowsJSON(0, limit) + `,"hasMore":true}`
		}, 100, "empty but claims more", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, n := rawPager(t, tt.page)
			key := testKey(t)
			c, _ := newClient(t, srv.URL, key, "p1", docsapi.WithMaxPages(tt.maxPages))
			got, err := allVisitors(context.Background(), c, docsapi.VisitorsParams{Limit: 3})
			assertNoKey(t, key, err)
			if err == nil || !strings.Contains(err.Error(), tt.wantText) || got != nil {
				t.Fatalf("merged pages = %v, %v; want no page and an error containing %q", got, err, tt.wantText)
			}
			if n.Load() != tt.wantRequests {
				t.Errorf("made %d requests, want %d", n.Load(), tt.wantRequests)
			}
		})
	}
}

// TestPagingErrorMidWalk checks that a failure on a later page ends the walk
// with that error after the earlier pages were yielded.
func TestPagingErrorMidWalk(t *testing.T) {
	t.Parallel()
	e, pages, _ := pagingEnv(t)
	e.srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Latency: 0, Times: 1})  // first page passes
	e.srv.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointVisitors, Status: 400, Times: 1}) // second fails
	var rows int
	var last error
	for page, err := range e.c.VisitorPages(context.Background(), pagingRange()) {
		if err != nil {
			last = err
			continue
		}
		rows += len(page.Visitors)
	}
	if !errors.Is(last, docsapi.ErrInvalidRequest) || rows != min(len(pages), docsapi.MaxVisitorsLimit) {
		t.Errorf("walk gave %d rows then %v; want one page then the 400", rows, last)
	}
	got, err := allVisitors(context.Background(), e.c, pagingRange())
	if err != nil {
		t.Fatalf("after the fault: %v", err)
	}
	if !reflect.DeepEqual(got.Visitors, pages) {
		t.Errorf("after the fault the pages gave %d rows, want the dataset's %d", len(got.Visitors), len(pages))
	}
}
