package docsapi_test

import (
	"slices"
	"testing"

	"github.com/docsbot/docsbot/docsapi"
)

func TestVisitorsMerge(t *testing.T) {
	t.Parallel()
	row := func(path string, total docsapi.Count) docsapi.PageVisitors {
		return docsapi.PageVisitors{Path: path, Counts: docsapi.Counts{Total: total}}
	}
	var m docsapi.VisitorsMerge
	if got := m.Result(); got.Visitors == nil || len(got.Visitors) != 0 {
		t.Fatalf("empty merge = %+v, want no rows (not nil)", got)
	}
	m.Add(&docsapi.VisitorsPage{Totals: docsapi.Counts{Total: 9}, Visitors: []docsapi.PageVisitors{row("/a", 5), row("/b", 3)}, HasMore: true})
	// The day's counts grew while reading: /b moved to the next page.
	m.Add(&docsapi.VisitorsPage{Totals: docsapi.Counts{Total: 10}, Visitors: []docsapi.PageVisitors{row("/b", 4), row("/c", 1)}})
	got := m.Result()
	paths := []string{}
	for _, v := range got.Visitors {
		paths = append(paths, v.Path)
	}
	if m.Pages != 2 || m.Len() != 3 || got.Totals.Total != 9 || got.HasMore || !slices.Equal(paths, []string{"/a", "/b", "/c"}) || got.Visitors[1].Total != 3 {
		t.Fatalf("merge = %d pages, %+v; want the first page's totals and each path once, as first seen", m.Pages, got)
	}
}
