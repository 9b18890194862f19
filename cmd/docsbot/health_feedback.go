package main

import (
	"context"
	"fmt"
	"io"

	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

const healthFeedbackUsage = `Usage:
  docsbot health feedback [--from DATE] [--to DATE] [--format table|json|csv] [--project NAME] [flags]

Lists the docs pages by 👎 (thumbs down), with their latest comments
(3 a page), and the readers' reports on code snippets with their file.

It reads the feedback counted per page (one request, the 100 pages with the
most feedback) and the feedback list (100 entries a request).

Range: --from included, --to EXCLUDED; by default the last 30 days, today
included.

Formats: table (the pages with a 👎 or a code report, their comments, then
the code reports), csv (a row per page: path, thumbs_down, thumbs_up,
code_reports, total, latest_comments, code_report_files) and json (every page,
every code report with its code).

Examples:
  docsbot health feedback
  docsbot health feedback --format json | jq '.codeReports'
`

func (r *runner) runHealthFeedback(ctx context.Context, args []string) error {
	h := r.healthCommand("feedback", healthFeedbackUsage)
	c, rg, err := h.setup(args)
	if err != nil {
		return err
	}
	byPage, err := c.FeedbackByPage(ctx, docsapi.FeedbackByPageParams{AnalyticsRange: rg, Limit: docsapi.MaxFeedbackLimit})
	if err != nil {
		return h.explain(fmt.Errorf("feedback by page: %w", err), term.OpFeedback, "")
	}
	rep, err := term.CollectFeedback(byPage, c.FeedbackPages(ctx, docsapi.FeedbackParams{AnalyticsRange: rg}, *h.maxPages), rg.From, rg.To)
	if err != nil {
		return h.explain(fmt.Errorf("feedback list: %w", err), term.OpFeedback, "")
	}
	h.bounded(rep.Bound, "feedback entries")
	if rep.PagesCut {
		fmt.Fprintf(r.stderr, "docsbot: the docs API counts feedback for %d pages at most; other pages are counted from the entries read\n", docsapi.MaxFeedbackLimit)
	}
	return h.write(rep,
		func(w io.Writer) error { return term.WriteFeedback(w, rep, term.RangeTitle(rg.From, rg.To)) },
		func(w io.Writer) error { return term.WriteFeedbackCSV(w, rep) })
}
