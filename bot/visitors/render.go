package visitors

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// Layout limits of a visitors summary. A section's text may hold 3,000
// characters; the table is cut into sections below that.
const (
	tableSectionMax = 2900
	maxPathColumn   = 48
)

// visitorsReport is everything a visitors summary shows.
type visitorsReport struct {
	Req       visitorsRequest
	Snap      *store.VisitorsSnapshot
	Requester string
	// Age is how old the data is; 0 when it was just fetched.
	Age time.Duration
	// CacheTTL is how long data is reused before it is fetched again.
	CacheTTL time.Duration
	// Closed reports data reused past CacheTTL because its days are over
	// and no longer change.
	Closed bool
	// Fetched reports data fetched for this summary (not from the cache).
	Fetched bool
	// Stale, when not "", says why older data than usual is shown.
	Stale string
	// Digest, when not "", is the footer of a digest, which nobody asked
	// for.
	Digest string
}

// pageSelection is the pages a summary lists.
type pageSelection struct {
	// Top is the best pages by the sort column, best first.
	Top []store.VisitorPage
	// Matching counts the pages with visitors under the path prefix.
	Matching int
}

// selectPages keeps the pages with visitors whose path starts with prefix and
// returns the top n by column by. Ties go to the larger total, then to the
// path in alphabetical order, so the choice is stable. It runs in one pass
// and keeps only n pages aside, however many the site has.
func selectPages(pages []store.VisitorPage, prefix string, by sortColumn, n int) pageSelection {
	key := func(p *store.VisitorPage) int64 {
		switch by {
		case sortHuman:
			return p.Human
		case sortAI:
			return p.AI
		}
		return p.Total
	}
	// before reports whether a ranks before b.
	before := func(a, b *store.VisitorPage) bool {
		if ka, kb := key(a), key(b); ka != kb {
			return ka > kb
		}
		if a.Total != b.Total {
			return a.Total > b.Total
		}
		return a.Path < b.Path
	}
	sel := pageSelection{Top: make([]store.VisitorPage, 0, n)}
	for i := range pages {
		p := &pages[i]
		if p.Total <= 0 && p.Human <= 0 && p.AI <= 0 {
			continue
		}
		if prefix != "" && !strings.HasPrefix(p.Path, prefix) {
			continue
		}
		sel.Matching++
		if n <= 0 || (len(sel.Top) == n && !before(p, &sel.Top[n-1])) {
			continue
		}
		at, _ := slices.BinarySearchFunc(sel.Top, p, func(e store.VisitorPage, t *store.VisitorPage) int {
			if before(&e, t) {
				return -1
			}
			return 1
		})
		if len(sel.Top) == n {
			sel.Top = sel.Top[:n-1]
		}
		sel.Top = slices.Insert(sel.Top, at, *p)
	}
	return sel
}

// message renders the summary, posted in the channel.
func (r visitorsReport) message() *slack.WebhookMessage {
	return r.render(selectPages(r.Snap.Pages, r.Req.Path, r.Req.Sort, r.Req.Top), nil)
}

// withTable is the summary with its top pages as Slack's data_table
// (native.go), nil when they do not fit one.
func (r visitorsReport) withTable() *slack.WebhookMessage {
	sel := selectPages(r.Snap.Pages, r.Req.Path, r.Req.Sort, r.Req.Top)
	t, ok := r.pagesTable(sel)
	if !ok {
		return nil
	}
	return r.render(sel, t)
}

// render renders the summary of the pages sel, listed in table when not
// nil, else as monospace rows.
func (r visitorsReport) render(sel pageSelection, table *slack.DataTableBlock) *slack.WebhookMessage {
	t := r.Snap.Totals

	var blocks []slack.Block
	section := func(text string) {
		blocks = append(blocks, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil))
	}
	note := func(text string) {
		blocks = append(blocks, slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, text, false, false)))
	}

	section(fmt.Sprintf(":bar_chart: *Unique visitors to the docs%s, %s* (%s)\n*%s* visitors  ·  *%s* human  ·  *%s* AI  ·  AI share *%s*",
		project.OfPlain(r.Req.ProjectName), r.Req.Range, r.spanNote(), humanize.Count(t.Total), humanize.Count(t.Human), humanize.Count(t.AI), share(t.AI, t.Total)))
	note("Each visitor counts once in the total, even one seen as both human and AI, so the total is not human + AI. " +
		"AI share = AI visitors ÷ all unique visitors.")
	if r.Stale != "" {
		section(":hourglass: *These numbers are from " + humanize.Ago(r.Age) + "*: " + r.Stale)
	}
	if r.Req.Path != "" {
		section(fmt.Sprintf(":warning: Only pages whose path starts with %s: %s of %s pages with visitors. "+
			"Their counts can't be added up into unique visitors: someone who read several of these pages is counted on each of them. "+
			"The totals above are for the whole site.",
			inlineCode(r.Req.Path), humanize.Count(int64(sel.Matching)), humanize.Count(int64(countVisited(r.Snap.Pages)))))
	}
	// The footer and the trend button come after the table.
	if table != nil {
		blocks = append(blocks, textSection(r.heading(sel), nil), table)
	} else {
		blocks = append(blocks, r.table(sel, maxBlocks-len(blocks)-2)...)
	}
	note(r.footer())
	blocks = append(blocks, trendButton(r.Req.Range, r.Req.Project))

	return &slack.WebhookMessage{
		ResponseType: slack.ResponseTypeInChannel,
		Text: fmt.Sprintf("Docs visitors%s %s: %s unique (%s human, %s AI)",
			project.OfPlain(r.Req.ProjectName), r.Req.Range, humanize.Count(t.Total), humanize.Count(t.Human), humanize.Count(t.AI)),
		Blocks: &slack.Blocks{BlockSet: blocks},
	}
}

// spanNote says how many days the range holds and whether today is still
// counting.
func (r visitorsReport) spanNote() string {
	n := r.Req.Range.Days()
	s := "UTC, " + strconv.Itoa(n) + " days"
	if n == 1 {
		s = "UTC, 1 day"
	}
	if r.Req.Range.Today {
		s += ", today so far"
	}
	return s
}

// maxBlocks is the most blocks Slack takes in a message.
const maxBlocks = 50

// table renders the heading and the top pages as aligned monospace rows: the
// heading section holds the column header, each row is a section of its own
// with a button asking the docs agent to improve the page, as long as the
// message stays within room blocks; the rows beyond are code blocks cut into
// as many sections as needed to keep each under Slack's limit.
func (r visitorsReport) table(sel pageSelection, room int) []slack.Block {
	under := ""
	if r.Req.Path != "" {
		under = " under " + inlineCode(r.Req.Path)
	}
	if len(sel.Top) == 0 {
		return []slack.Block{textSection("No page"+under+" had visitors in this range.", nil)}
	}
	heading := r.heading(sel)

	cols := [3]string{"Total", "Human", "AI"}
	switch r.Req.Sort {
	case sortHuman:
		cols[1] += " ↓"
	case sortAI:
		cols[2] += " ↓"
	default:
		cols[0] += " ↓"
	}
	t := newTextTable(len(sel.Top), cols[:])
	for i, p := range sel.Top {
		t.row(strconv.Itoa(i+1)+".", p.Path, humanize.Count(p.Total), humanize.Count(p.Human), humanize.Count(p.AI))
	}
	lines := t.lines()
	blocks := []slack.Block{textSection(heading+"\n```\n"+lines[0]+"\n```", nil)}
	// One block for the heading, and up to two for the rows without a
	// button.
	buttons := min(len(sel.Top), room-3)
	for i := range buttons {
		p := sel.Top[i]
		blocks = append(blocks, textSection("```\n"+lines[i+1]+"\n```", improveButton(p.Path, p.VisitorCounts, r.Req.Range, r.Req.Project)))
	}
	for _, text := range codeSections("", lines[1+buttons:]) {
		blocks = append(blocks, textSection(text, nil))
	}
	return blocks
}

// heading is the title of the top pages' table.
func (r visitorsReport) heading(sel pageSelection) string {
	under := ""
	if r.Req.Path != "" {
		under = " under " + inlineCode(r.Req.Path)
	}
	if r.Req.Path == "" && len(sel.Top) == sel.Matching {
		return fmt.Sprintf("*All %d pages with visitors, by %s visitors*", len(sel.Top), sortWord(r.Req.Sort))
	}
	return fmt.Sprintf("*Top %d pages%s by %s visitors* (%s pages had visitors)",
		len(sel.Top), under, sortWord(r.Req.Sort), humanize.Count(int64(sel.Matching)))
}

// codeSections puts lines in code blocks, cut into as many section texts as
// needed to keep each under Slack's limit; the first starts with prefix.
func codeSections(prefix string, lines []string) []string {
	if len(lines) == 0 {
		return nil
	}
	var out []string
	var cur strings.Builder
	runes := 0 // in cur
	write := func(s string) {
		cur.WriteString(s)
		runes += utf8.RuneCountInString(s)
	}
	write(prefix + "```\n")
	for _, l := range lines {
		l += "\n"
		if runes+utf8.RuneCountInString(l)+len("```") > tableSectionMax {
			out = append(out, cur.String()+"```")
			cur.Reset()
			runes = 0
			write("```\n")
		}
		write(l)
	}
	return append(out, cur.String()+"```")
}

// textTable lays out rows of a rank, a path and numbers as aligned columns
// of monospace text, escaped for Slack.
type textTable struct {
	header []string
	rows   [][]string
}

// newTextTable starts a table whose columns after the rank and the path
// are named cols.
func newTextTable(n int, cols []string) *textTable {
	return &textTable{header: append([]string{"#", "Page"}, cols...), rows: make([][]string, 0, n)}
}

// row adds a row: its rank, its path (cut to the column's width) and its
// numbers.
func (t *textTable) row(rank, path string, nums ...string) {
	t.rows = append(t.rows, append([]string{rank, mrkdwn.Cut(strings.ReplaceAll(path, "`", "ˋ"), maxPathColumn)}, nums...))
}

// lines returns the header and the rows, padded to align; the rank and the
// numbers to the right.
func (t *textTable) lines() []string {
	widths := make([]int, len(t.header))
	for _, row := range append([][]string{t.header}, t.rows...) {
		for j, cell := range row {
			widths[j] = max(widths[j], utf8.RuneCountInString(cell))
		}
	}
	line := func(row []string) string {
		var b strings.Builder
		for j, cell := range row {
			if j > 0 {
				b.WriteString("  ")
			}
			if j == 1 {
				b.WriteString(mrkdwn.Escape(pad(cell, widths[j], false)))
			} else {
				b.WriteString(pad(cell, widths[j], true))
			}
		}
		return strings.TrimRight(b.String(), " ")
	}
	out := []string{line(t.header)}
	for _, row := range t.rows {
		out = append(out, line(row))
	}
	return out
}

// textSection is a section of mrkdwn text, with an accessory when not nil.
func textSection(text string, accessory *slack.Accessory) *slack.SectionBlock {
	return slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, accessory)
}

// footer says who asked and how fresh the numbers are.
func (r visitorsReport) footer() string {
	var when string
	switch {
	case r.Fetched:
		n := r.Snap.Requests
		plural := "s"
		if n == 1 {
			plural = ""
		}
		when = fmt.Sprintf("fetched just now (%d API request%s)", n, plural)
	case r.Stale != "":
		when = "fetched " + humanize.Ago(r.Age)
	case r.Closed:
		when = "fetched " + humanize.Ago(r.Age) + ", reused: its days are over and no longer change"
	default:
		when = "fetched " + humanize.Ago(r.Age) + ", reused for up to " + humanize.Duration(r.CacheTTL)
	}
	if r.Digest != "" {
		return r.Digest + " · " + when
	}
	return "Asked by " + mrkdwn.Mention(r.Requester) + " · " + when + " · `" + Command + " help` for options"
}

// progressText is the private note shown while a long export is fetched.
func progressText(r dateRange, page int) string {
	return fmt.Sprintf(":hourglass_flowing_sand: Counting visitors for %s… (fetching page %d of the export)", r, page)
}

func sortWord(c sortColumn) string {
	switch c {
	case sortHuman:
		return "human"
	case sortAI:
		return "AI"
	}
	return "total"
}

// countVisited counts the pages with any visitors.
func countVisited(pages []store.VisitorPage) int {
	n := 0
	for i := range pages {
		if pages[i].Total > 0 || pages[i].Human > 0 || pages[i].AI > 0 {
			n++
		}
	}
	return n
}

// inlineCode renders user text as escaped inline code.
func inlineCode(s string) string {
	return "`" + mrkdwn.Escape(strings.ReplaceAll(mrkdwn.Cut(s, maxPathColumn), "`", "ˋ")) + "`"
}

// pad fills s with spaces to w runes, on the left when right is set.
func pad(s string, w int, right bool) string {
	n := w - utf8.RuneCountInString(s)
	if n <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}

// share renders part/whole as a percentage with one decimal, or "n/a".
func share(part, whole int64) string {
	if p, ok := humanize.Percent(part, whole); ok {
		return p
	}
	return "n/a"
}
