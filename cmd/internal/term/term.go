// Package term is what docsbot prints on a terminal: aligned tables, the
// views of a job, of the visitors export (and its range's title), of the
// docs health reports (health*.go) and of deployments, a watched job's
// progress line redrawn in place, the audit trail's export
// (JSON or CSV), the answers' quality reports (quality.go), a failed docs API call in words (Explain, explain.go), and
// text from the API stripped of control characters.
// The command line calls it; it parses nothing and reads no settings.
package term

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/docsapi"
)

// IsTerminal reports whether w is a terminal (a character device), where
// progress can be redrawn in place.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// WriteJSON writes v as indented JSON followed by a newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Share is part as a percentage of whole with one decimal, or "-" when whole is 0.
func Share(part, whole docsapi.Count) string {
	if p, ok := humanize.Percent(int64(part), int64(whole)); ok {
		return p
	}
	return "-"
}

// Time shows a timestamp in UTC, to the second.
func Time(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// Elapsed shows a duration to the second, e.g. 2m5s.
func Elapsed(d time.Duration) string {
	return d.Round(time.Second).String()
}

// Printable drops the control characters (C0 with tabs and line breaks, DEL
// and C1) from text the API sent, so that printed on a terminal it cannot
// move the cursor, rewrite the screen or hide what it says.
func Printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
			return -1
		}
		return r
	}, s)
}

// WriteTable writes rows as aligned columns two spaces apart, each cell
// printable. Columns whose right flag is true are aligned right (numbers),
// the others left.
func WriteTable(w io.Writer, right []bool, rows [][]string) error {
	widths := make([]int, len(right))
	cells := make([][]string, len(rows))
	for r, row := range rows {
		cells[r] = make([]string, len(row))
		for i, cell := range row {
			cells[r][i] = Printable(cell)
			widths[i] = max(widths[i], utf8.RuneCountInString(cells[r][i]))
		}
	}
	var b strings.Builder
	for _, row := range cells {
		b.Reset()
		for i, cell := range row {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i > 0 {
				b.WriteString("  ")
			}
			if right[i] {
				b.WriteString(pad + cell)
			} else if i < len(row)-1 {
				b.WriteString(cell + pad)
			} else {
				b.WriteString(cell)
			}
		}
		b.WriteByte('\n')
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// WriteJob writes the human view of a job.
func WriteJob(w io.Writer, j *docsapi.Job) error {
	status := string(j.Status)
	if !j.Status.Known() {
		status += " (not a documented status; treated as still running)"
	}
	repo := orDash(j.Source.Repository)
	if j.Source.Ref != nil && *j.Source.Ref != "" {
		repo += "@" + *j.Source.Ref
	}
	rows := [][]string{
		{"id", j.ID},
		{"status", status},
		{"model", orDash(j.Model)},
		{"repository", repo},
	}
	if j.CreatedAt != nil {
		rows = append(rows, []string{"created", Time(*j.CreatedAt)})
	}
	rows = append(rows, []string{"pull request", PRText(j)})
	if j.ArchivedAt != nil {
		rows = append(rows, []string{"archived", Time(*j.ArchivedAt)})
	}
	return WriteTable(w, []bool{false, false}, rows)
}

// PRText says what became of a job's pull request.
func PRText(j *docsapi.Job) string {
	if pr := j.PR(); pr != "" {
		return pr
	}
	switch j.Status {
	case docsapi.StatusCompleted:
		return "no pull request (no files changed)"
	case docsapi.StatusArchived:
		return "no pull request"
	case docsapi.StatusFailed:
		return "none (the job failed)"
	}
	return "none yet (the job is still running)"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// WriteVisitors writes the site totals, then one row per path, most
// visited first.
func WriteVisitors(w io.Writer, all *docsapi.VisitorsPage, title string) error {
	t := all.Totals
	fmt.Fprintf(w, "Unique visitors, %s\n\n", title)
	err := WriteTable(w, []bool{false, true}, [][]string{
		{"  total", humanize.Count(int64(t.Total))},
		{"  human", humanize.Count(int64(t.Human))},
		{"  AI", humanize.Count(int64(t.AI))},
		{"  AI share", Share(t.AI, t.Total)},
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	rows := slices.Clone(all.Visitors)
	slices.SortStableFunc(rows, func(a, b docsapi.PageVisitors) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(a.Path, b.Path))
	})
	cells := make([][]string, 0, len(rows)+1)
	cells = append(cells, []string{"PATH", "TOTAL", "HUMAN", "AI"})
	for _, v := range rows {
		cells = append(cells, []string{v.Path, humanize.Count(int64(v.Total)), humanize.Count(int64(v.Human)), humanize.Count(int64(v.AI))})
	}
	if err := WriteTable(w, []bool{false, true, true, true}, cells); err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "\n%s paths\n", humanize.Count(int64(len(rows))))
	return err
}

// WriteStarted shows a job that was just created or messaged: in JSON, or
// a line that says verb and how to follow it.
func WriteStarted(w io.Writer, j *docsapi.Job, format, verb string) error {
	if format == "json" {
		return WriteJSON(w, j)
	}
	id := Printable(j.ID)
	fmt.Fprintf(w, "%s job %s (status: %s)\n", verb, id, Printable(string(j.Status)))
	if !j.Status.Final() {
		fmt.Fprintf(w, "follow it: docsbot jobs watch %s\n", id)
	} else if pr := j.PR(); pr != "" {
		fmt.Fprintf(w, "pull request: %s\n", Printable(pr))
	}
	return nil
}

// WriteFinished shows the outcome of a watched job that finished: its status
// and its pull request, or why there is none.
func WriteFinished(w io.Writer, id string, job *docsapi.Job) {
	outcome := PRText(job)
	switch {
	case job.PR() != "":
		outcome = "pull request " + job.PR()
	case job.Status == docsapi.StatusFailed:
		outcome = "no pull request"
	}
	fmt.Fprintf(w, "Job %s %s: %s\n", id, job.Status, Printable(outcome))
}
