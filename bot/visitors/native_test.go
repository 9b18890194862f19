package visitors_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/humanize"
)

// TestChartOfAWeekIsSlacks: a chart of up to 20 days is Slack's own line
// chart, human and AI, one point a day (today marked "so far"), with the
// numbers in its text; a longer one is the image, as before.
func TestChartOfAWeekIsSlacks(t *testing.T) {
	t.Parallel()
	h, ds := visitorsBot(t, 100, bottest.Config{})
	h.visitorsCommand("2025-11-01..2025-11-07 chart")
	h.WaitFor("Slack's chart", func() bool { return len(h.ChartPosts(general)) == 1 })
	post := h.ChartPosts(general)[0]
	c := bottest.Charts(post.Blocks)[0]
	if c.Type != "line" || len(c.Categories) != 7 || c.Categories[0] != "Nov 1" || c.Categories[6] != "Nov 7 so far" {
		t.Fatalf("chart %+v, want a line of the 7 days, today so far", c)
	}
	for i := range 7 {
		d := day(t, "2025-11-01").AddDate(0, 0, i)
		want := ds.Totals(d, d.AddDate(0, 0, 1))
		if c.Series["Human"][i] != float64(want.Human) || c.Series["AI"][i] != float64(want.AI) {
			t.Errorf("%s: chart %v human %v AI, want %+v", d.Format(time.DateOnly), c.Series["Human"][i], c.Series["AI"][i], want)
		}
		line := fmt.Sprintf("%s: %s human, %s AI", c.Categories[i], humanize.Count(int64(want.Human)), humanize.Count(int64(want.AI)))
		if !strings.Contains(post.Text, line) {
			t.Errorf("the chart's text lacks %q:\n%s", line, post.Text)
		}
	}
	if !strings.Contains(post.Text, "is still counting") || len(h.Slack.Files()) != 0 {
		t.Errorf("text %q, %d files; want today explained and no image", post.Text, len(h.Slack.Files()))
	}

	h.visitorsCommand("2025-10-01..2025-10-31 chart")
	h.waitFiles(1)
	if n := len(h.ChartPosts(general)); n != 1 {
		t.Errorf("%d Slack charts after a 31-day chart, want the image for it", n)
	}
}

// TestChartRefusedIsAnImage: where Slack refuses its charts, the chart is
// the image, and the refusal is met once.
func TestChartRefusedIsAnImage(t *testing.T) {
	t.Parallel()
	h, _ := visitorsHarness(t, 100)
	h.Slack.RefuseBlockType("data_visualization")
	h.StartBot(bottest.Config{Now: visitorsNow})
	h.visitorsCommand("2025-11-01..2025-11-07 chart")
	h.waitFiles(1)
	h.visitorsCommand("2025-10-20..2025-10-26 chart")
	h.waitFiles(2)
	refused := 0
	for _, c := range h.Slack.Calls("chat.postMessage") {
		if c.Error == "invalid_blocks" {
			refused++
		}
	}
	if refused != 1 || len(h.ChartPosts(general)) != 0 {
		t.Errorf("%d posts refused, %d Slack charts; want one refusal and images", refused, len(h.ChartPosts(general)))
	}
}

// TestCompareOfAWeekHasAChart: compare of 7 days shows the totals of both
// weeks as Slack's bar chart; of 28 days, none; where Slack refuses
// charts, the comparison without it.
func TestCompareOfAWeekHasAChart(t *testing.T) {
	t.Parallel()
	h, ds := visitorsBot(t, 100, bottest.Config{})
	h.visitorsCommand("2025-10-25..2025-10-31 compare")
	sum := h.waitSummaries(1)
	charts := bottest.Charts(sum.Blocks)
	if len(charts) != 1 || charts[0].Type != "bar" || !slices.Equal(charts[0].Categories, []string{"All visitors", "Human", "AI"}) {
		t.Fatalf("charts %+v, want the bar chart of the totals", charts)
	}
	after := ds.Totals(day(t, "2025-10-25"), day(t, "2025-11-01"))
	before := ds.Totals(day(t, "2025-10-18"), day(t, "2025-10-25"))
	want := map[string][]float64{
		"Oct 18 – Oct 24": {float64(before.Total), float64(before.Human), float64(before.AI)},
		"Oct 25 – Oct 31": {float64(after.Total), float64(after.Human), float64(after.AI)},
	}
	for name, values := range want {
		if !slices.Equal(charts[0].Series[name], values) {
			t.Errorf("series %q = %v, want %v (all: %v)", name, charts[0].Series[name], values, charts[0].Series)
		}
	}
	if !strings.Contains(sum.Text, humanize.Count(int64(after.Total))) {
		t.Errorf("the text %q lacks the total", sum.Text)
	}

	h.visitorsCommand("2025-10-01..2025-10-28 compare")
	if sum := h.waitSummaries(2); len(bottest.Charts(sum.Blocks)) != 0 {
		t.Error("a chart in the comparison of 28 days")
	}

	h.Slack.RefuseBlockType("data_visualization")
	h.visitorsCommand("2025-10-11..2025-10-17 compare")
	sum = h.waitSummaries(3)
	if len(bottest.Charts(sum.Blocks)) != 0 || !strings.Contains(postText(sum), "compared with") {
		t.Errorf("the comparison where charts are refused: %q", postText(sum))
	}
}

// TestTopPagesTableRefused: where Slack refuses data tables, the summary's
// top pages are the monospace rows with their buttons, and the refusal is
// met once.
func TestTopPagesTableRefused(t *testing.T) {
	t.Parallel()
	h, ds := visitorsHarness(t, 100)
	h.Slack.RefuseBlockType("data_table")
	h.StartBot(bottest.Config{Now: visitorsNow})
	for i, r := range []string{"2025-11-01..2025-11-07 top=5", "2025-10-01..2025-10-07 top=5"} {
		h.visitorsCommand(r)
		sum := h.waitSummaries(i + 1)
		if _, _, ok := bottest.Table(sum.Blocks); ok {
			t.Fatal("a data table where they are refused")
		}
		rows := tableRows(postText(sum))
		pages := ds.Pages(day(t, "2025-11-01"), day(t, "2025-11-08"))
		if i == 0 && (len(rows) != 5 || rows[0][1] != pages[0].Path) {
			t.Errorf("rows %q, want the 5 top pages", rows)
		}
	}
	refused := 0
	for _, p := range h.Slack.ResponsePosts("") {
		if p.Error != "" {
			refused++
		}
	}
	if refused != 1 {
		t.Errorf("%d response_url posts refused, want 1", refused)
	}
}
