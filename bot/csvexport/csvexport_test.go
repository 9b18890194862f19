package csvexport_test

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strconv"
	"testing"

	"github.com/docsbot/docsbot/bot/csvexport"
	"github.com/docsbot/docsbot/docsapi"
)

func TestWriteVisitors(t *testing.T) {
	t.Parallel()
	page := &docsapi.VisitorsPage{
		Totals: docsapi.Counts{Human: 10000, AI: 2345, Total: 12000},
		Visitors: []docsapi.PageVisitors{
			{Path: "/quickstart", Counts: docsapi.Counts{Human: 900, AI: 100, Total: 990}},
			{Path: "/api/with,comma", Counts: docsapi.Counts{Human: 5, AI: 0, Total: 5}},
			{Path: `/quote"d`, Counts: docsapi.Counts{Human: 1500, AI: 1200, Total: 2600}},
			{Path: "/", Counts: docsapi.Counts{}},
		},
	}
	formulas := []string{"=HYPERLINK(\"https://evil.example\",\"docs\")", "+1+2", "-3+4", "@SUM(A1)", "\tcmd", "\rcmd"}
	for _, f := range formulas {
		page.Visitors = append(page.Visitors, docsapi.PageVisitors{Path: f, Counts: docsapi.Counts{Human: 1, Total: 1}})
	}
	var b bytes.Buffer
	if err := csvexport.WriteVisitors(&b, page); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(recs[0], []string{"path", "human", "ai", "total"}) {
		t.Fatalf("header = %q", recs[0])
	}
	if len(recs)-1 != len(page.Visitors) {
		t.Fatalf("%d rows, want %d", len(recs)-1, len(page.Visitors))
	}
	for i, v := range page.Visitors {
		path := v.Path
		if slices.Contains(formulas, path) {
			path = "'" + path
		}
		want := []string{path, strconv.Itoa(int(v.Human)), strconv.Itoa(int(v.AI)), strconv.Itoa(int(v.Total))}
		if !slices.Equal(recs[i+1], want) {
			t.Errorf("row %d = %q, want %q", i, recs[i+1], want)
		}
	}
}
