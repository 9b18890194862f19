package docsapi

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// WriteVisitorsCSV writes p as CSV: a header (path, human, ai, total), then
// one row per path in p's order. A path that a spreadsheet would read as a
// formula (it starts with =, +, -, @, a tab or a carriage return) gets a
// leading ', so that opening the file runs nothing. The command line prints
// it and the bot attaches it in Slack.
func WriteVisitorsCSV(w io.Writer, p *VisitorsPage) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"path", "human", "ai", "total"}); err != nil {
		return err
	}
	for _, v := range p.Visitors {
		rec := []string{
			CSVCell(v.Path),
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

// CSVCell keeps a spreadsheet from reading a text cell as a formula.
func CSVCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
