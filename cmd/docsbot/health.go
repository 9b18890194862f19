package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

// healthDays is the default range of docsbot health: the last 30 days,
// today included.
const healthDays = 30

// healthMaxPages is the default bound of a report's requests: analytics
// allow 100 requests an hour for the whole organization.
const healthMaxPages = 10

// runHealth runs the health subcommands.
func (r *runner) runHealth(ctx context.Context, args []string) error {
	return cli.Group{Path: "docsbot health", Prefix: "health: ", Noun: "subcommand",
		Commands: []cli.Command{
			{Name: "searches", Summary: "search terms by hits, their click-through, where people went, and the ones that found nothing clicked", Run: r.runHealthSearches},
			{Name: "feedback", Summary: "pages by 👎 with their latest comments, and code-snippet reports with their file", Run: r.runHealthFeedback},
			{Name: "questions", Summary: "the assistant's unanswered questions by category, with how it replied", Run: r.runHealthQuestions},
			{Name: "views", Summary: "page views, human and AI, and the top pages", Run: r.runHealthViews},
		},
		Head: `Usage:
  docsbot health <subcommand> [--from DATE] [--to DATE] [--format table|json|csv] [--project NAME] [flags]

Reports on the health of the docs from the docs API's analytics.

Range: --from is included, --to is EXCLUDED (as in the API). Without them
the range is the last 30 days, today (UTC) included: --to is tomorrow and
--from 30 days before --to. Dates are YYYY-MM-DD or ISO 8601.

Each report makes one request a page of results, at most --max-pages
(default 10); it says so when it stopped with more to come. Analytics allow
100 requests an hour for the whole organization.

Subcommands:
`,
		Tail: func(w io.Writer) {
			fmt.Fprint(w, `
Examples:
  docsbot health searches
  docsbot health feedback --from 2025-11-01 --to 2025-12-01
  docsbot health questions --format csv > unanswered.csv
  docsbot health views --project docs --format json | jq '.pages[:10]'

Run 'docsbot health <subcommand> -h' for its flags.
`)
		}}.Dispatch(ctx, args, r.stdout, r.stderr)
}

// healthCommand is a health subcommand: an API command with the range and
// the bound of its requests.
type healthCommand struct {
	*apiCommand
	name     string
	from, to *string
	maxPages *int
}

func (r *runner) healthCommand(name, usage string) *healthCommand {
	cmd := r.apiCommand("health "+name, usage, "table", "json", "csv")
	return &healthCommand{apiCommand: cmd, name: name,
		from:     cmd.String("from", "", "first day, included (YYYY-MM-DD or ISO 8601; default: 30 days before --to)"),
		to:       cmd.String("to", "", "end of the range, EXCLUDED (YYYY-MM-DD or ISO 8601; default: tomorrow, so that today is in)"),
		maxPages: cmd.Int("max-pages", healthMaxPages, "stop after this many requests of a report (analytics allow 100 an hour)"),
	}
}

// setup parses args, fills in the default range and connects.
func (h *healthCommand) setup(args []string) (*docsapi.Client, docsapi.AnalyticsRange, error) {
	pos, err := h.parse(args)
	if err != nil {
		return nil, docsapi.AnalyticsRange{}, err
	}
	if len(pos) > 0 {
		return nil, docsapi.AnalyticsRange{}, cli.Usage(fmt.Sprintf("health %s: unexpected argument %q", h.name, pos[0]),
			"dates go in --from and --to, e.g. --from 2025-11-01 --to 2025-11-08")
	}
	if *h.maxPages < 1 {
		return nil, docsapi.AnalyticsRange{}, cli.Usage("--max-pages must be at least 1", "")
	}
	if err := checkRange(*h.from, *h.to); err != nil {
		return nil, docsapi.AnalyticsRange{}, err
	}
	rg := defaultRange(*h.from, *h.to, h.r.now())
	if *h.to == "" {
		if err := checkRange(rg.From, rg.To); err != nil {
			return nil, docsapi.AnalyticsRange{}, cli.Usage(fmt.Sprintf("--from %s is after the default --to %s (tomorrow)", rg.From, rg.To), "")
		}
	}
	c, err := h.client()
	if err != nil {
		return nil, docsapi.AnalyticsRange{}, err
	}
	return c, rg, nil
}

// defaultRange fills in what --from and --to leave out: --to is tomorrow
// (UTC), --from healthDays before --to.
func defaultRange(from, to string, now time.Time) docsapi.AnalyticsRange {
	if to == "" {
		to = now.UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	}
	if from == "" {
		end, _ := docsapi.ParseDate(to) // checked by checkRange
		from = end.UTC().AddDate(0, 0, -healthDays).Format(time.DateOnly)
	}
	return docsapi.AnalyticsRange{From: from, To: to}
}

// bounded says on stderr that a report stopped at --max-pages.
func (h *healthCommand) bounded(b term.Bound, what string) {
	if b.Truncated {
		fmt.Fprintf(h.r.stderr, "docsbot: stopped after %d requests (--max-pages %d): the docs API has more %s; this report leaves them out\n",
			b.StoppedAfter, *h.maxPages, what)
	}
}

// write writes a report in the format asked for.
func (h *healthCommand) write(v any, table, csv func(io.Writer) error) error {
	switch h.format.Value {
	case "json":
		return term.WriteJSON(h.r.stdout, v)
	case "csv":
		return csv(h.r.stdout)
	}
	return table(h.r.stdout)
}
