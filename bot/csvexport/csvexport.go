// Package csvexport writes the CSV files docsbot hands out, in Slack (the
// visitors export the bot attaches) and in a terminal (docsbot visitors and
// docsbot audit with --format csv), so that a spreadsheet opening one runs
// nothing: no text cell starts a formula.
package csvexport

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

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
