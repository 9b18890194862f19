package term

import (
	"fmt"
	"io"

	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/project"
)

// WriteQuality writes the quality reports (bot/outcome), one after the
// other: each project's figures over its span beside the span before, then
// the topics of the questions docsbot could not answer well, most
// questions first, with one question of each (as asked: printable only).
func WriteQuality(w io.Writer, reports []outcome.Report) error {
	for i, r := range reports {
		name := r.Project
		if name == "" {
			name = project.ImplicitName
		}
		span := func(f outcome.Figures) string { return daterange.Range{First: f.First, Last: f.Last}.String() }
		if i > 0 {
			fmt.Fprintln(w)
		}
		where := ""
		if r.Team != "" {
			where = ", workspace " + Printable(r.Team)
		}
		fmt.Fprintf(w, "Project %s%s: %s, against %s\n\n", Printable(name), where, span(r.Period), span(r.Before))
		rows := [][]string{{"", "period", "before"}}
		add := func(label string, value func(outcome.Figures) string) {
			rows = append(rows, []string{label, value(r.Period), value(r.Before)})
		}
		count := func(n func(outcome.Figures) int64) func(outcome.Figures) string {
			return func(f outcome.Figures) string { return humanize.Count(n(f)) }
		}
		add("Questions", count(func(f outcome.Figures) int64 { return f.Questions }))
		add("Answered with sources", count(func(f outcome.Figures) int64 { return f.Sources }))
		add("Resolved without a human", func(f outcome.Figures) string {
			if p, ok := humanize.Percent(f.Resolved, f.Questions); ok {
				return humanize.Count(f.Resolved) + " (" + p + ")"
			}
			return humanize.Count(f.Resolved)
		})
		add("Resolved by an expert", count(func(f outcome.Figures) int64 { return f.ResolvedByExpert }))
		add("Handed off", count(func(f outcome.Figures) int64 { return f.HandedOff }))
		add("Uncertain", count(func(f outcome.Figures) int64 { return f.Uncertain }))
		add("Rated helpful", count(func(f outcome.Figures) int64 { return f.RatedHelpful }))
		add("Rated unhelpful", count(func(f outcome.Figures) int64 { return f.RatedUnhelpful }))
		add("No signal", count(func(f outcome.Figures) int64 { return f.NoSignal }))
		add("Open", count(func(f outcome.Figures) int64 { return f.Open }))
		add("Helpful", func(f outcome.Figures) string {
			return humanize.Count(f.Helpful) + " of " + humanize.Count(f.Rated) + " rated"
		})
		add("Median time to the first text", func(f outcome.Figures) string {
			if d, ok := f.MedianFirstText(); ok {
				return fmt.Sprintf("%.1f s", d.Seconds())
			}
			return "-"
		})
		if err := WriteTable(w, []bool{false, true, true}, rows); err != nil {
			return err
		}
		if len(r.Gaps) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nQuestions docsbot could not answer well (uncertain, or rated unhelpful), %s in all:\n", humanize.Count(r.GapQuestions))
		gaps := [][]string{{"questions", "uncertain", "unhelpful", "question"}}
		for _, g := range r.Gaps {
			gaps = append(gaps, []string{humanize.Count(g.Questions), humanize.Count(g.Uncertain), humanize.Count(g.Unhelpful), g.Question})
		}
		if err := WriteTable(w, []bool{true, true, true, false}, gaps); err != nil {
			return err
		}
	}
	return nil
}
