package term

import (
	"cmp"
	"fmt"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/docsapi"
)

// LatestComments is how many comments the feedback report keeps a page.
const LatestComments = 3

// FeedbackReport is the feedback of a range: the pages by 👎 with their
// latest comments, and the reports on code snippets.
type FeedbackReport struct {
	From string `json:"from"`
	To   string `json:"to"` // excluded
	// Entries is the number of feedback entries read.
	Entries int          `json:"entries"`
	Pages   []PageReport `json:"pages"`
	// PagesCut reports that the counts per page were cut by the API; pages
	// past the cut are counted from the entries read.
	PagesCut    bool         `json:"pagesCut"`
	CodeReports []CodeReport `json:"codeReports"`
	Bound
}

// PageReport is the feedback of one docs page.
type PageReport struct {
	docsapi.PageFeedback
	LatestComments []FeedbackComment `json:"latestComments"`
}

// FeedbackComment is a comment a reader left with a vote (or without).
type FeedbackComment struct {
	At *time.Time `json:"at,omitempty"`
	// Vote is "down" (👎), "up" (👍) or "" for none.
	Vote    string                 `json:"vote"`
	Source  docsapi.FeedbackSource `json:"source"`
	Status  docsapi.FeedbackStatus `json:"status"`
	Comment string                 `json:"comment"`
}

// CodeReport is a reader's report on a code block.
type CodeReport struct {
	Path     string                 `json:"path"`
	Filename string                 `json:"filename"`
	Lang     string                 `json:"lang"`
	Comment  string                 `json:"comment"`
	Status   docsapi.FeedbackStatus `json:"status"`
	At       *time.Time             `json:"at,omitempty"`
	Code     string                 `json:"code"`
}

// CollectFeedback joins the counts per page (docsapi.Client.FeedbackByPage)
// and the feedback list (docsapi.Client.FeedbackPages).
func CollectFeedback(byPage *docsapi.FeedbackByPage, entries iter.Seq2[*docsapi.FeedbackPage, error], from, to string) (*FeedbackReport, error) {
	rep := &FeedbackReport{From: from, To: to, PagesCut: byPage.HasMore, Pages: []PageReport{}, CodeReports: []CodeReport{}}
	index := map[string]int{}
	for _, p := range byPage.Pages {
		index[p.Path] = len(rep.Pages)
		rep.Pages = append(rep.Pages, PageReport{PageFeedback: p})
	}
	bound, err := collect(entries, func(p *docsapi.FeedbackPage) {
		for _, f := range p.Feedback {
			rep.Entries++
			i, ok := index[f.Path]
			if !ok { // past the API's cut: count it here
				i = len(rep.Pages)
				index[f.Path] = i
				rep.Pages = append(rep.Pages, PageReport{PageFeedback: docsapi.PageFeedback{Path: f.Path}})
			}
			pg := &rep.Pages[i]
			if i >= len(byPage.Pages) {
				pg.Total++
				switch {
				case f.Source == docsapi.SourceCodeSnippet:
					pg.Code++
				case f.ThumbsDown():
					pg.ThumbsDown++
				case f.Helpful != nil:
					pg.ThumbsUp++
				}
			}
			if f.Source == docsapi.SourceCodeSnippet {
				rep.CodeReports = append(rep.CodeReports, CodeReport{Path: f.Path, Filename: f.Filename, Lang: f.Lang,
					Comment: f.Comment, Status: f.Status, At: f.CreatedAt, Code: f.Code})
				continue
			}
			if strings.TrimSpace(f.Comment) == "" {
				continue
			}
			vote := ""
			if f.Helpful != nil {
				vote = map[bool]string{true: "up", false: "down"}[*f.Helpful]
			}
			pg.LatestComments = append(pg.LatestComments, FeedbackComment{At: f.CreatedAt, Vote: vote, Source: f.Source, Status: f.Status, Comment: f.Comment})
		}
	})
	if err != nil {
		return nil, err
	}
	rep.Bound = bound
	for i := range rep.Pages {
		c := rep.Pages[i].LatestComments
		slices.SortStableFunc(c, func(a, b FeedbackComment) int { return newestFirst(a.At, b.At) })
		rep.Pages[i].LatestComments = c[:min(len(c), LatestComments)]
		if rep.Pages[i].LatestComments == nil {
			rep.Pages[i].LatestComments = []FeedbackComment{}
		}
	}
	slices.SortStableFunc(rep.Pages, func(a, b PageReport) int {
		return cmp.Or(cmp.Compare(b.ThumbsDown, a.ThumbsDown), cmp.Compare(b.Code, a.Code), cmp.Compare(b.Total, a.Total), strings.Compare(a.Path, b.Path))
	})
	slices.SortStableFunc(rep.CodeReports, func(a, b CodeReport) int { return newestFirst(a.At, b.At) })
	return rep, nil
}

// newestFirst orders times newest first, unknown ones last.
func newestFirst(a, b *time.Time) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return b.Compare(*a)
}

// Troubled reports a page with a 👎 or a code-snippet report.
func (p PageReport) Troubled() bool { return p.ThumbsDown > 0 || p.Code > 0 }

func voteMark(v string) string {
	switch v {
	case "down":
		return "👎"
	case "up":
		return "👍"
	}
	return "-"
}

// WriteFeedback writes the report as tables: the pages with a 👎 or a
// code-snippet report, most 👎 first, their latest comments, then the
// code-snippet reports with their file.
func WriteFeedback(w io.Writer, r *FeedbackReport, title string) error {
	troubled := slices.DeleteFunc(slices.Clone(r.Pages), func(p PageReport) bool { return !p.Troubled() })
	fmt.Fprintf(w, "Feedback, %s: %s entries on %s pages, %s with a 👎 or a code report\n\n", title,
		humanize.Count(int64(r.Entries)), humanize.Count(int64(len(r.Pages))), humanize.Count(int64(len(troubled))))
	if len(troubled) == 0 {
		fmt.Fprintln(w, "No page has a 👎 or a code-snippet report.")
	} else {
		rows := [][]string{{"PAGE", "THUMBS DOWN", "THUMBS UP", "CODE REPORTS", "TOTAL"}}
		for _, p := range troubled {
			rows = append(rows, []string{p.Path, humanize.Count(int64(p.ThumbsDown)), humanize.Count(int64(p.ThumbsUp)),
				humanize.Count(int64(p.Code)), humanize.Count(int64(p.Total))})
		}
		if err := WriteTable(w, []bool{false, true, true, true, true}, rows); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nLatest comments (%d a page at most)\n", LatestComments)
		for _, p := range troubled {
			if len(p.LatestComments) == 0 {
				continue
			}
			fmt.Fprintf(w, "\n%s\n", Printable(p.Path))
			rows := make([][]string, 0, len(p.LatestComments))
			for _, c := range p.LatestComments {
				rows = append(rows, []string{"  " + day(c.At), voteMark(c.Vote), Excerpt(c.Comment, 160)})
			}
			if err := WriteTable(w, []bool{false, false, false}, rows); err != nil {
				return err
			}
		}
	}
	fmt.Fprintln(w)
	if len(r.CodeReports) == 0 {
		_, err := fmt.Fprintln(w, "No code-snippet reports.")
		return err
	}
	fmt.Fprintf(w, "Code-snippet reports: %d\n\n", len(r.CodeReports))
	rows := [][]string{{"PAGE", "FILE", "REPORTED", "STATUS", "COMMENT"}}
	for _, c := range r.CodeReports {
		file := c.Filename
		if file == "" {
			file = "(no file name)"
		}
		if c.Lang != "" {
			file += " (" + c.Lang + ")"
		}
		rows = append(rows, []string{c.Path, file, day(c.At), string(c.Status), Excerpt(c.Comment, 100)})
	}
	return WriteTable(w, []bool{false, false, false, false, false}, rows)
}

// WriteFeedbackCSV writes one row per page: its counts, its latest comments
// and the files of its code-snippet reports, each list joined by " | ".
func WriteFeedbackCSV(w io.Writer, r *FeedbackReport) error {
	files := map[string][]string{}
	for _, c := range r.CodeReports {
		files[c.Path] = append(files[c.Path], c.Filename)
	}
	rows := make([][]string, 0, len(r.Pages))
	for _, p := range r.Pages {
		comments := make([]string, len(p.LatestComments))
		for i, c := range p.LatestComments {
			comments[i] = Excerpt(c.Comment, 500)
		}
		row := cells(p.Path)
		for _, n := range []docsapi.Count{p.ThumbsDown, p.ThumbsUp, p.Code, p.Total} {
			row = append(row, strconv.FormatInt(int64(n), 10))
		}
		row = append(row, cells(strings.Join(comments, " | "), strings.Join(files[p.Path], " | "))...)
		rows = append(rows, row)
	}
	return writeCSV(w, []string{"path", "thumbs_down", "thumbs_up", "code_reports", "total", "latest_comments", "code_report_files"}, rows)
}
