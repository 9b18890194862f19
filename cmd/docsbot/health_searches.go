package main

import (
	"context"
	"io"

	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

const healthSearchesUsage = `Usage:
  docsbot health searches [--from DATE] [--to DATE] [--format table|json|csv] [--project NAME] [flags]

Ranks the terms searched on the docs site by hits, with their click-through
and the page clicked most. A term that led nowhere (no click-through, or no
page clicked most) is marked "found nothing clicked": often the docs lack
the topic.

Range: --from included, --to EXCLUDED; by default the last 30 days, today
included. 100 terms a request.

Formats: table, csv (query, hits, click_rate from 0 to 1, top_clicked_page,
found_nothing_clicked, last_searched_at) and json.

Examples:
  docsbot health searches
  docsbot health searches --from 2025-11-01 --to 2025-11-08 --format csv
`

func (r *runner) runHealthSearches(ctx context.Context, args []string) error {
	h := r.healthCommand("searches", healthSearchesUsage)
	c, rg, err := h.setup(args)
	if err != nil {
		return err
	}
	rep, err := term.CollectSearches(c.SearchPages(ctx, docsapi.SearchesParams{AnalyticsRange: rg}, *h.maxPages), rg.From, rg.To)
	if err != nil {
		return h.explain(err, term.OpSearches, "")
	}
	h.bounded(rep.Bound, "search terms")
	return h.write(rep,
		func(w io.Writer) error { return term.WriteSearches(w, rep, term.RangeTitle(rg.From, rg.To)) },
		func(w io.Writer) error { return term.WriteSearchesCSV(w, rep) })
}
