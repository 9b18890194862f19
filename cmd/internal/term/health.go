package term

import (
	"encoding/csv"
	"errors"
	"io"
	"iter"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/docsbot/docsbot/bot/csvexport"
	"github.com/docsbot/docsbot/docsapi"
)

// The reports of docsbot health: searches, feedback, questions and views,
// each collected from the docs API's analytics pagers into one value that is
// written as a table, as JSON (the value itself) or as CSV (every text cell
// kept from being read as a formula, csvexport.Cell).

// Bound says whether a report's pager stopped at its bound (the command's
// --max-pages) while the server had more: the report holds what came before.
type Bound struct {
	// Truncated is true when the bound was reached with more to come.
	Truncated bool `json:"truncated"`
	// StoppedAfter is the number of requests made when it was, else 0.
	StoppedAfter int `json:"stoppedAfter,omitempty"`
}

// collect adds the pages of a pager with add until it ends. A page bound
// (docsapi.ErrPageBound) ends it without an error: the bound says so.
func collect[T any](pages iter.Seq2[T, error], add func(T)) (Bound, error) {
	for page, err := range pages {
		if pbe, ok := errors.AsType[*docsapi.PageBoundError](err); ok {
			return Bound{Truncated: true, StoppedAfter: pbe.Pages}, nil
		}
		if err != nil {
			return Bound{}, err
		}
		add(page)
	}
	return Bound{}, nil
}

// Excerpt is s on one line, printable, cut to at most n characters with an
// ellipsis.
func Excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(Printable(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s))), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

// day is the date of t in UTC, "-" for none.
func day(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.DateOnly)
}

// stamp is t in RFC 3339 (UTC) for CSV, "" for none.
func stamp(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// writeCSV writes a header and rows; text cells should have been passed
// through csvexport.Cell (cells), numbers need not.
func writeCSV(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// cells keeps every text of a CSV row from being read as a formula.
func cells(texts ...string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = csvexport.Cell(t)
	}
	return out
}
