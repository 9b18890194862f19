package main

import (
	"context"
	"fmt"
	"time"

	"github.com/docsbot/docsbot/bot/csvexport"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

const visitorsUsage = `Usage:
  docsbot visitors [--from DATE] [--to DATE] [flags]

Prints unique visitors for the whole site and for every page, split into
human and AI traffic, fetching all pages of the export (250 paths a request;
analytics allow 100 requests an hour for the organization).

Dates are YYYY-MM-DD or ISO 8601. --from is included, --to is EXCLUSIVE: the
week of Nov 1 to Nov 7 is --from 2025-11-01 --to 2025-11-08. Without them the
API's default range applies.

Formats: table (site totals, then paths by total visitors), csv (path, human,
ai, total) and json (the API's response shape with every page merged).
Site totals are deduplicated, so they are not the sums of the rows.

Examples:
  docsbot visitors --from 2025-11-01 --to 2025-11-08
  docsbot visitors --from 2025-11-01 --format csv > visitors.csv
  docsbot visitors --format json | jq '.visitors[:10]'
`

// runVisitors prints the unique-visitors export.
func (r *runner) runVisitors(ctx context.Context, args []string) error {
	cmd := r.apiCommand("visitors", visitorsUsage, "table", "json", "csv")
	from := cmd.String("from", "", "first day, included (YYYY-MM-DD or ISO 8601)")
	to := cmd.String("to", "", "end of the range, EXCLUDED (YYYY-MM-DD or ISO 8601)")
	maxPages := cmd.Int("max-pages", 0, "stop after this many requests of 250 paths (0: all)")
	pos, err := cmd.parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usage(fmt.Sprintf("visitors: unexpected argument %q", pos[0]), "dates go in --from and --to, e.g. --from 2025-11-01 --to 2025-11-08")
	}
	if *maxPages < 0 {
		return cli.Usage("--max-pages must be 0 (all) or positive", "")
	}
	if err := checkRange(*from, *to); err != nil {
		return err
	}
	c, err := cmd.client()
	if err != nil {
		return err
	}

	all, err := term.CollectVisitors(r.stderr, c.VisitorPages(ctx, docsapi.VisitorsParams{From: *from, To: *to, Limit: docsapi.MaxVisitorsLimit}), *maxPages)
	if err != nil {
		return cmd.explain(err, term.OpVisitors, "")
	}
	if all.HasMore {
		fmt.Fprintf(r.stderr, "docsbot: stopped after %d requests (--max-pages): more paths exist\n", *maxPages)
	}
	switch cmd.format.Value {
	case "json":
		return term.WriteJSON(r.stdout, all)
	case "csv":
		return csvexport.WriteVisitors(r.stdout, all)
	}
	return term.WriteVisitors(r.stdout, all, term.RangeTitle(*from, *to))
}

// checkRange checks --from and --to as the docs API reads them
// (docsapi.ParseDate), and that the range is not empty.
func checkRange(from, to string) error {
	var bounds [2]time.Time
	for i, b := range [2]struct{ flag, value string }{{"--from", from}, {"--to", to}} {
		if b.value == "" {
			continue
		}
		t, ok := docsapi.ParseDate(b.value)
		if !ok {
			return cli.Usage(fmt.Sprintf("%s %q is not a date", b.flag, b.value),
				"use YYYY-MM-DD (e.g. 2025-11-01) or ISO 8601 (e.g. 2025-11-01T00:00:00Z)")
		}
		bounds[i] = t
	}
	if from != "" && to != "" && !bounds[1].After(bounds[0]) {
		return cli.Usage(fmt.Sprintf("--to %s must be after --from %s", to, from),
			"--to is exclusive: for the single day 2025-11-01 use --from 2025-11-01 --to 2025-11-02")
	}
	return nil
}
