package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/docsbot/docsbot/docsapi"
)

// formatFlag is a --format flag that accepts one of a fixed set of values.
type formatFlag struct {
	value   string
	allowed []string
}

func newFormat(allowed ...string) *formatFlag {
	return &formatFlag{value: allowed[0], allowed: allowed}
}

func (f *formatFlag) String() string {
	if f == nil {
		return ""
	}
	return f.value
}

func (f *formatFlag) Set(s string) error {
	for _, a := range f.allowed {
		if s == a {
			f.value = s
			return nil
		}
	}
	return fmt.Errorf("must be one of %s", strings.Join(f.allowed, ", "))
}

func (f *formatFlag) usage() string {
	return "output `format`: " + strings.Join(f.allowed, ", ")
}

// isTerminal reports whether w is a terminal (a character device), where
// progress can be redrawn in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// writeJSON writes v as indented JSON followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// share is part as a percentage of whole with one decimal, or "-" when whole is 0.
func share(part, whole docsapi.Count) string {
	if p, ok := docsapi.Percent(int64(part), int64(whole)); ok {
		return p
	}
	return "-"
}

// formatTime shows a timestamp in UTC, to the second.
func formatTime(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// formatElapsed shows a duration to the second, e.g. 2m5s.
func formatElapsed(d time.Duration) string {
	return d.Round(time.Second).String()
}

// printable drops the control characters (C0 with tabs and line breaks, DEL
// and C1) from text the API sent, so that printed on a terminal it cannot
// move the cursor, rewrite the screen or hide what it says.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
			return -1
		}
		return r
	}, s)
}

// writeTable writes rows as aligned columns two spaces apart, each cell
// printable. Columns whose right flag is true are aligned right (numbers),
// the others left.
func writeTable(w io.Writer, right []bool, rows [][]string) error {
	widths := make([]int, len(right))
	cells := make([][]string, len(rows))
	for r, row := range rows {
		cells[r] = make([]string, len(row))
		for i, cell := range row {
			cells[r][i] = printable(cell)
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

// writeJob writes the human view of a job.
func writeJob(w io.Writer, j *docsapi.Job) error {
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
		rows = append(rows, []string{"created", formatTime(*j.CreatedAt)})
	}
	rows = append(rows, []string{"pull request", prText(j)})
	if j.ArchivedAt != nil {
		rows = append(rows, []string{"archived", formatTime(*j.ArchivedAt)})
	}
	return writeTable(w, []bool{false, false}, rows)
}

// prText says what became of a job's pull request.
func prText(j *docsapi.Job) string {
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
