package visitors

import (
	"fmt"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/visitors/insight"
)

// Slack's own charts and tables. Which form each answer takes:
//
//	answer                        native form (bot.Rich)                 where Slack refuses it, or it does not fit
//	chart of up to 20 days        data_visualization line chart          the PNG, uploaded as before
//	chart of more days, or gaps   -                                      the PNG
//	compare of up to 20 days      the message with a bar chart of the    the message without the chart
//	                              totals, before and after
//	summary's top pages           data_table (Improve this page buttons  the monospace table with the buttons
//	                              in its cells), up to 100 pages
//	digests                       -                                      the PNG and the monospace tables
//
// Every native chart's message says its numbers in its text, which Slack
// reads out and shows where the chart cannot be.
const (
	// maxNativeDays is the most points (categories) of a data_visualization
	// chart Slack draws.
	maxNativeDays = 20
	// maxTableRows is the most body rows of a data_table (a header and 100).
	maxTableRows = 100
	// maxTableChars is the most characters in a message's data tables.
	maxTableChars = 10000
	// maxChartLabel is the longest label, series name or category.
	maxChartLabel = 20
	// maxChartTitle is the longest chart title.
	maxChartTitle = 50
)

// chartTitle is title with the project's label, cut to Slack's limit.
func chartTitle(title, project string) string {
	if project != "" {
		title += " · " + project
	}
	return mrkdwn.Cut(title, maxChartTitle)
}

// dayLabel is a chart's category for day d ("Nov 16"), marked while it is
// still counting.
func dayLabel(d time.Time, partial bool) string {
	if partial {
		return d.Format("Jan 2") + " so far"
	}
	return d.Format("Jan 2")
}

// trendChart is the native chart of tr's days over r, with the text that
// says its numbers; ok is false when it cannot be native: more than
// maxNativeDays days, or a day missing (the PNG draws gaps; a chart of
// Slack's has a number for every category).
func trendChart(r dateRange, tr *trendDrawn, project, comment string) (m bot.Rich, ok bool) {
	if r.Days() > maxNativeDays || len(tr.Missing) > 0 {
		return bot.Rich{}, false
	}
	byDay := map[string]insight.DayCounts{}
	for _, d := range tr.Trend.Days {
		byDay[d.Date.Format(time.DateOnly)] = d
	}
	var cats, lines []string
	var human, ai []slack.DataVisualizationDataPoint
	for d := r.First; !d.After(r.Last); d = d.AddDate(0, 0, 1) {
		c, found := byDay[d.Format(time.DateOnly)]
		if !found {
			return bot.Rich{}, false
		}
		label := dayLabel(d, r.Today && d.Equal(r.Last))
		cats = append(cats, label)
		human = append(human, slack.NewDataVisualizationDataPoint(label, float64(c.Human)))
		ai = append(ai, slack.NewDataVisualizationDataPoint(label, float64(c.AI)))
		lines = append(lines, fmt.Sprintf("%s: %s human, %s AI", label, humanize.Count(int64(c.Human)), humanize.Count(int64(c.AI))))
	}
	chart := slack.NewDataVisualizationBlock(chartTitle("Unique visitors per day", project),
		slack.NewDataVisualizationLineChart(slack.NewDataVisualizationAxisConfig(cats...).WithYLabel("unique visitors"),
			slack.NewDataVisualizationDataSeries("Human", human...), slack.NewDataVisualizationDataSeries("AI", ai...)))
	text := comment + "\n" + strings.Join(lines, "\n")
	return bot.Rich{Kind: bot.RichChart, With: []slack.MsgOption{
		slack.MsgOptionText(text, false),
		slack.MsgOptionBlocks(chart, slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, comment, false, false))),
		slack.MsgOptionDisableLinkUnfurl(),
	}}, true
}

// shortRange names r in at most maxChartLabel characters: "Nov 9 – Nov 15".
func shortRange(r dateRange) string {
	s := r.First.Format("Jan 2") + " – " + r.Last.Format("Jan 2")
	if r.First.Equal(r.Last) {
		s = r.Last.Format("Jan 2")
	}
	return mrkdwn.Cut(s, maxChartLabel)
}

// compareChart is the bar chart of a comparison's totals, before and
// after; nil for a range of more than maxNativeDays days.
func (c *comparisonReport) compareChart() *slack.DataVisualizationBlock {
	if c.Req.Range.Days() > maxNativeDays {
		return nil
	}
	before, after := shortRange(c.Prev), shortRange(c.Req.Range)
	if before == after {
		before, after = "Before", "After"
	}
	t := c.Cmp.Totals
	cats := []string{"All visitors", "Human", "AI"}
	var b, a []slack.DataVisualizationDataPoint
	for i, ch := range []insight.Change{t.Total, t.Human, t.AI} {
		b = append(b, slack.NewDataVisualizationDataPoint(cats[i], float64(ch.Before)))
		a = append(a, slack.NewDataVisualizationDataPoint(cats[i], float64(ch.After)))
	}
	return slack.NewDataVisualizationBlock(chartTitle("Unique visitors, before and after", c.Req.ProjectName),
		slack.NewDataVisualizationBarChart(slack.NewDataVisualizationAxisConfig(cats...).WithYLabel("unique visitors"),
			slack.NewDataVisualizationDataSeries(before, b...), slack.NewDataVisualizationDataSeries(after, a...)))
}

// pagesTable is the summary's top pages as a data_table, each row with
// its Improve this page button; ok is false when the pages do not fit one
// (more than maxTableRows, or more than maxTableChars characters).
func (r visitorsReport) pagesTable(sel pageSelection) (*slack.DataTableBlock, bool) {
	if len(sel.Top) == 0 || len(sel.Top) > maxTableRows {
		return nil, false
	}
	caption := fmt.Sprintf("Top %d pages by %s visitors", len(sel.Top), sortWord(r.Req.Sort))
	t := slack.NewDataTableBlock(caption).WithPageSize(min(len(sel.Top), 20))
	t.AddRow(slack.NewDataTableRawTextCell("Page"), slack.NewDataTableRawTextCell("Total"),
		slack.NewDataTableRawTextCell("Human"), slack.NewDataTableRawTextCell("AI"), slack.NewDataTableRawTextCell("Agent"))
	chars := len(caption) + 30
	for i, p := range sel.Top {
		path := p.Path
		if path == "" {
			path = "(no path)"
		}
		row := []slack.DataTableCell{slack.NewDataTableRawTextCell(path), number(p.Total), number(p.Human), number(p.AI)}
		fallback := slack.NewDataTableRawTextCell("—")
		if acc := improveButton(p.Path, p.VisitorCounts, r.Req.Range, r.Req.Project); acc != nil && acc.ButtonElement != nil {
			acc.ButtonElement.ActionID = fmt.Sprintf("%s%d", jobdraft.ActionImprovePageRows, i+1)
			row = append(row, slack.NewDataTableActionCell(acc.ButtonElement).WithFallback(fallback))
		} else {
			row = append(row, fallback)
		}
		t.AddRow(row...)
		chars += len([]rune(p.Path)) + 3*8 + len("Improve this page")
	}
	if chars > maxTableChars {
		return nil, false
	}
	return t, true
}

// number is a data_table cell of n, shown as humanize writes it.
func number(n int64) *slack.DataTableRawNumberCell {
	return slack.NewDataTableRawNumberCell(float64(n)).WithText(humanize.Count(n))
}
