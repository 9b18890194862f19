package term

import (
	"cmp"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/docsapi"
)

// FoundNothing is how the searches report marks a term that led nowhere.
const FoundNothing = "found nothing clicked"

// SearchesReport is the search terms of a range, most searched first.
type SearchesReport struct {
	From string `json:"from"`
	To   string `json:"to"` // excluded
	// TotalSearches is the searches of the range over all terms.
	TotalSearches docsapi.Count `json:"totalSearches"`
	Searches      []SearchRow   `json:"searches"`
	Bound
}

// SearchRow is one search term.
type SearchRow struct {
	Query string        `json:"query"`
	Hits  docsapi.Count `json:"hits"`
	// ClickRate is the click-through rate from 0 to 1.
	ClickRate      float64 `json:"clickRate"`
	TopClickedPage string  `json:"topClickedPage"`
	// FoundNothingClicked marks a term that led nowhere: no click-through
	// or no page clicked most.
	FoundNothingClicked bool       `json:"foundNothingClicked"`
	LastSearchedAt      *time.Time `json:"lastSearchedAt,omitempty"`
}

// CollectSearches reads the search terms of a pager (docsapi.Client.SearchPages).
func CollectSearches(pages iter.Seq2[*docsapi.SearchesPage, error], from, to string) (*SearchesReport, error) {
	rep := &SearchesReport{From: from, To: to, Searches: []SearchRow{}}
	bound, err := collect(pages, func(p *docsapi.SearchesPage) {
		rep.TotalSearches = max(rep.TotalSearches, p.TotalSearches)
		for _, q := range p.Searches {
			rate := q.ClickRate()
			rep.Searches = append(rep.Searches, SearchRow{Query: q.Query, Hits: q.Hits, ClickRate: rate, TopClickedPage: q.TopClickedPage,
				FoundNothingClicked: q.NoResultClicked(), LastSearchedAt: q.LastSearchedAt})
		}
	})
	if err != nil {
		return nil, err
	}
	rep.Bound = bound
	slices.SortStableFunc(rep.Searches, func(a, b SearchRow) int {
		return cmp.Or(cmp.Compare(b.Hits, a.Hits), strings.Compare(a.Query, b.Query))
	})
	return rep, nil
}

// Nowhere returns the terms that found nothing clicked, most searched first.
func (r *SearchesReport) Nowhere() []SearchRow {
	return slices.DeleteFunc(slices.Clone(r.Searches), func(s SearchRow) bool { return !s.FoundNothingClicked })
}

func clickRate(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" }

// WriteSearches writes the report as a table: the terms that led nowhere,
// then every term with its click-through and where people went.
func WriteSearches(w io.Writer, r *SearchesReport, title string) error {
	fmt.Fprintf(w, "Searches, %s: %s searches of %s terms\n", title,
		humanize.Count(int64(r.TotalSearches)), humanize.Count(int64(len(r.Searches))))
	if nowhere := r.Nowhere(); len(nowhere) > 0 {
		terms := make([]string, len(nowhere))
		for i, s := range nowhere {
			terms[i] = fmt.Sprintf("%q (%s searches)", Printable(s.Query), humanize.Count(int64(s.Hits)))
		}
		fmt.Fprintf(w, "%d %s %s: %s\n", len(nowhere), plural(len(nowhere), "term", "terms"), FoundNothing, strings.Join(terms, ", "))
	}
	fmt.Fprintln(w)
	rows := [][]string{{"TERM", "SEARCHES", "CLICK-THROUGH", "WENT TO"}}
	for _, s := range r.Searches {
		went := s.TopClickedPage
		if s.FoundNothingClicked {
			went = FoundNothing
		}
		rows = append(rows, []string{s.Query, humanize.Count(int64(s.Hits)), clickRate(s.ClickRate), went})
	}
	return WriteTable(w, []bool{false, true, true, false}, rows)
}

// WriteSearchesCSV writes one row per term.
func WriteSearchesCSV(w io.Writer, r *SearchesReport) error {
	rows := make([][]string, 0, len(r.Searches))
	for _, s := range r.Searches {
		row := cells(s.Query)
		row = append(row, strconv.FormatInt(int64(s.Hits), 10), strconv.FormatFloat(s.ClickRate, 'f', 4, 64))
		row = append(row, cells(s.TopClickedPage)...)
		row = append(row, strconv.FormatBool(s.FoundNothingClicked), stamp(s.LastSearchedAt))
		rows = append(rows, row)
	}
	return writeCSV(w, []string{"query", "hits", "click_rate", "top_clicked_page", "found_nothing_clicked", "last_searched_at"}, rows)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
