package term

import (
	"cmp"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/docsapi"
)

// ViewsReport is the page views of a range, human and AI, most viewed page
// first. Views are events, not distinct visitors (docsbot visitors).
type ViewsReport struct {
	From   string              `json:"from"`
	To     string              `json:"to"` // excluded
	Totals docsapi.Counts      `json:"totals"`
	Pages  []docsapi.PageViews `json:"pages"`
	Bound
}

// CollectViews reads the page views of a pager (docsapi.Client.ViewPages).
func CollectViews(pages iter.Seq2[*docsapi.ViewsPage, error], from, to string) (*ViewsReport, error) {
	rep := &ViewsReport{From: from, To: to, Pages: []docsapi.PageViews{}}
	first := true
	bound, err := collect(pages, func(p *docsapi.ViewsPage) {
		if first {
			rep.Totals, first = p.Totals, false
		}
		rep.Pages = append(rep.Pages, p.Views...)
	})
	if err != nil {
		return nil, err
	}
	rep.Bound = bound
	slices.SortStableFunc(rep.Pages, func(a, b docsapi.PageViews) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), strings.Compare(a.Path, b.Path))
	})
	return rep, nil
}

// WriteViews writes the totals, then the top pages (all when top is 0).
func WriteViews(w io.Writer, r *ViewsReport, title string, top int) error {
	t := r.Totals
	fmt.Fprintf(w, "Page views, %s\n\n", title)
	err := WriteTable(w, []bool{false, true}, [][]string{
		{"  total", humanize.Count(int64(t.Total))},
		{"  human", humanize.Count(int64(t.Human))},
		{"  AI", humanize.Count(int64(t.AI))},
		{"  AI share", Share(t.AI, t.Total)},
	})
	if err != nil {
		return err
	}
	shown := r.Pages
	if top > 0 && len(shown) > top {
		shown = shown[:top]
	}
	fmt.Fprintf(w, "\nTop %d of %s pages\n\n", len(shown), humanize.Count(int64(len(r.Pages))))
	rows := [][]string{{"PAGE", "TOTAL", "HUMAN", "AI", "AI SHARE"}}
	for _, v := range shown {
		rows = append(rows, []string{v.Path, humanize.Count(int64(v.Total)), humanize.Count(int64(v.Human)), humanize.Count(int64(v.AI)), Share(v.AI, v.Total)})
	}
	return WriteTable(w, []bool{false, true, true, true, true}, rows)
}

// WriteViewsCSV writes one row per page.
func WriteViewsCSV(w io.Writer, r *ViewsReport) error {
	rows := make([][]string, 0, len(r.Pages))
	for _, v := range r.Pages {
		row := cells(v.Path)
		for _, n := range []docsapi.Count{v.Human, v.AI, v.Total} {
			row = append(row, strconv.FormatInt(int64(n), 10))
		}
		rows = append(rows, row)
	}
	return writeCSV(w, []string{"path", "human", "ai", "total"}, rows)
}
