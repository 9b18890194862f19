package main

import (
	"context"
	"io"

	"github.com/docsbot/docsbot/cmd/internal/term"
	"github.com/docsbot/docsbot/docsapi"
)

const healthQuestionsUsage = `Usage:
  docsbot health questions [--from DATE] [--to DATE] [--format table|json|csv] [--project NAME] [flags]

Lists the questions the assistant left unanswered, grouped by category (the
largest group first, newest question first), with the start of its reply
or the question it asked back.

Range: --from included, --to EXCLUDED; by default the last 30 days, today
included. 1000 questions a request.

Formats: table, csv (category, asked_at, question, reply_excerpt, reply_type,
page_url, thread_id) and json.

Examples:
  docsbot health questions
  docsbot health questions --format csv > unanswered.csv
`

func (r *runner) runHealthQuestions(ctx context.Context, args []string) error {
	h := r.healthCommand("questions", healthQuestionsUsage)
	c, rg, err := h.setup(args)
	if err != nil {
		return err
	}
	rep, err := term.CollectQuestions(c.ConversationPages(ctx, docsapi.ConversationsParams{AnalyticsRange: rg}, *h.maxPages), rg.From, rg.To)
	if err != nil {
		return h.explain(err, term.OpQuestions, "")
	}
	h.bounded(rep.Bound, "questions")
	return h.write(rep,
		func(w io.Writer) error { return term.WriteQuestions(w, rep, term.RangeTitle(rg.From, rg.To)) },
		func(w io.Writer) error { return term.WriteQuestionsCSV(w, rep) })
}
