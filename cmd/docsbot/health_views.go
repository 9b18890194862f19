package main

import (
	"context"
	"io"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

const healthViewsUsage = `Usage:
  docsbot health views [--from DATE] [--to DATE] [--top N] [--format table|json|csv] [--project NAME] [flags]

Prints the page views of the docs, human and AI: the totals, then the top
pages. Views are events, not people: docsbot visitors counts unique visitors.

Range: --from included, --to EXCLUDED; by default the last 30 days, today
included. 250 pages a request.

Formats: table (the totals and the --top pages), csv (every page: path,
human, ai, total) and json (every page).

Examples:
  docsbot health views
  docsbot health views --top 50 --from 2025-11-01
`

func (r *runner) runHealthViews(ctx context.Context, args []string) error {
	h := r.healthCommand("views", healthViewsUsage)
	top := h.Int("top", 20, "with --format table: show this many pages (0: all)")
	c, rg, err := h.setup(args)
	if err != nil {
		return err
	}
	if *top < 0 {
		return cli.Usage("--top must be 0 (all) or positive", "")
	}
	rep, err := term.CollectViews(c.ViewPages(ctx, docsapi.ViewsParams{AnalyticsRange: rg}, *h.maxPages), rg.From, rg.To)
	if err != nil {
		return h.explain(err, term.OpViews, "")
	}
	h.bounded(rep.Bound, "pages")
	return h.write(rep,
		func(w io.Writer) error { return term.WriteViews(w, rep, term.RangeTitle(rg.From, rg.To), *top) },
		func(w io.Writer) error { return term.WriteViewsCSV(w, rep) })
}
