// Package csvexport writes the CSV files docsbot hands out, in Slack (the
// visitors export the bot attaches) and in a terminal (docsbot visitors and
// docsbot audit with --format csv), so that a spreadsheet opening one runs
// nothing: no text cell starts a formula. The quality report's rows
// (WriteQuality) are /docs-health quality csv's and docsbot quality's.
package csvexport

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/docsapi"
)

// WriteVisitors writes p as CSV: a header (path, human, ai, total), then
// one row per path in p's order. A path that a spreadsheet would read as a
// formula gets a leading ' (Cell).
func WriteVisitors(w io.Writer, p *docsapi.VisitorsPage) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"path", "human", "ai", "total"}); err != nil {
		return err
	}
	for _, v := range p.Visitors {
		rec := []string{
			Cell(v.Path),
			strconv.FormatInt(int64(v.Human), 10),
			strconv.FormatInt(int64(v.AI), 10),
			strconv.FormatInt(int64(v.Total), 10),
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Cell keeps a spreadsheet from reading a text cell as a formula: a text
// that starts with =, +, -, @, a tab or a carriage return gets a leading '.
func Cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// QualityColumns are the columns of WriteQuality: a project's questions
// over a span of days, by how they came out (outcome.Figures).
var QualityColumns = []string{"project", "team", "span", "first_day", "last_day", "questions", "answered_with_sources", "resolved",
	"resolved_by_expert", "handed_off", "uncertain", "rated_helpful", "rated_unhelpful", "no_signal", "open", "rated", "helpful",
	"others_up", "others_down", "first_text_measured", "median_first_text_seconds"}

// WriteQuality writes reports as CSV: a header (QualityColumns), then two
// rows a report, its span ("period") and the span before ("before"), each
// with its project and workspace; the implicit project's name is "". A project name a spreadsheet would read
// as a formula gets a leading ' (Cell).
func WriteQuality(w io.Writer, reports []outcome.Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(QualityColumns); err != nil {
		return err
	}
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range reports {
		for _, span := range []struct {
			name string
			f    outcome.Figures
		}{{"period", r.Period}, {"before", r.Before}} {
			f := span.f
			median := ""
			if d, ok := f.MedianFirstText(); ok {
				median = strconv.FormatFloat(d.Seconds(), 'f', 1, 64)
			}
			rec := []string{Cell(r.Project), r.Team, span.name, f.First.Format(time.DateOnly), f.Last.Format(time.DateOnly), n(f.Questions),
				n(f.Sources), n(f.Resolved), n(f.ResolvedByExpert), n(f.HandedOff), n(f.Uncertain), n(f.RatedHelpful), n(f.RatedUnhelpful),
				n(f.NoSignal), n(f.Open), n(f.Rated), n(f.Helpful), n(f.OthersUp), n(f.OthersDown), n(f.Timed), median}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
