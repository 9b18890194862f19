package slackweb_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb/slackwebtest"
)

// improveID is the action id of the data table's buttons in
// TestAIBlocksInBrowser.
const improveID = "improve"

// postAIBlocks posts, as the app, a plan of task cards of every status, a
// line and a bar chart, and a data table with a button in each row; a task
// title and a table cell carry injection.
func postAIBlocks(t *testing.T, w *world) {
	t.Helper()
	ctx := testContext(t)
	details := func(s string) *slack.RichTextBlock {
		return slack.NewRichTextBlock("", slack.NewRichTextSection(slack.NewRichTextSectionTextElement(s, nil)))
	}
	plan := slack.NewPlanBlock("Docs agent job").WithTasks(
		slack.NewTaskCardBlock("queued", "Queued").WithStatus(slack.TaskCardStatusComplete).WithDetails(details("Job j-1")),
		slack.NewTaskCardBlock("working", "Working").WithStatus(slack.TaskCardStatusInProgress).WithDetails(details("Status active · 3 minutes")),
		slack.NewTaskCardBlock("pr", "Pull request opened").WithStatus(slack.TaskCardStatusComplete).
			WithSources(slack.NewTaskCardSource("https://github.com/acme/docs/pull/12", "acme/docs#12")),
		slack.NewTaskCardBlock("preview", injection).WithStatus(slack.TaskCardStatusPending),
		slack.NewTaskCardBlock("build", "Build").WithStatus(slack.TaskCardStatusError))
	days := []string{"Nov 1", "Nov 2", "Nov 3", "Nov 4", "Nov 5", "Nov 6", "Nov 7 so far"}
	var human, ai []slack.DataVisualizationDataPoint
	for i, d := range days {
		human = append(human, slack.NewDataVisualizationDataPoint(d, float64(600+100*i)))
		ai = append(ai, slack.NewDataVisualizationDataPoint(d, float64(300+20*i)))
	}
	line := slack.NewDataVisualizationBlock("Unique visitors per day", slack.NewDataVisualizationLineChart(
		slack.NewDataVisualizationAxisConfig(days...), slack.NewDataVisualizationDataSeries("Human", human...), slack.NewDataVisualizationDataSeries("AI", ai...)))
	cats := []string{"All visitors", "Human", "AI"}
	bar := slack.NewDataVisualizationBlock("Unique visitors, before and after", slack.NewDataVisualizationBarChart(
		slack.NewDataVisualizationAxisConfig(cats...),
		slack.NewDataVisualizationDataSeries("Oct 18 – Oct 24", slack.NewDataVisualizationDataPoint("All visitors", 3000), slack.NewDataVisualizationDataPoint("Human", 2100), slack.NewDataVisualizationDataPoint("AI", 970)),
		slack.NewDataVisualizationDataSeries("Oct 25 – Oct 31", slack.NewDataVisualizationDataPoint("All visitors", 3100), slack.NewDataVisualizationDataPoint("Human", 2000), slack.NewDataVisualizationDataPoint("AI", 1100))))
	table := slack.NewDataTableBlock("Top 3 pages by total visitors").AddRow(
		slack.NewDataTableRawTextCell("Page"), slack.NewDataTableRawTextCell("Total"), slack.NewDataTableRawTextCell("Agent"))
	for i, p := range []string{"/quickstart", "/api/auth", injection} {
		btn := slack.NewButtonBlockElement(fmt.Sprintf("%s.%d", improveID, i+1), p, slack.NewTextBlockObject(slack.PlainTextType, "Improve this page", false, false))
		table.AddRow(slack.NewDataTableRawTextCell(p), slack.NewDataTableRawNumberCell(float64(1200-100*i)).WithText("1,"+string(rune('2'-i))+"00"),
			slack.NewDataTableActionCell(btn))
	}
	for _, blocks := range [][]slack.Block{{plan}, {line, bar}, {table}} {
		if _, _, err := w.api.PostMessageContext(ctx, "C0GENERAL", slack.MsgOptionText("fallback", false), slack.MsgOptionBlocks(blocks...)); err != nil {
			t.Fatalf("posting %d blocks: %v", len(blocks), err)
		}
	}
}

// TestAIBlocksInBrowser: the page shows Slack's plan of task cards (each
// status marked, the sources linked), a line and a bar chart drawn in SVG
// with their legends and their numbers for screen readers, and a data table
// whose buttons act; nothing the app sent becomes markup.
func TestAIBlocksInBrowser(t *testing.T) {
	browser := slackwebtest.BrowserOrSkip(t)
	t.Parallel()
	w := newWorld(t)
	app := w.startApp(t)
	postAIBlocks(t, w)
	b := newBrowserSession(t, browser)
	b.step("open the page", chromedp.Navigate(w.page.URL), chromedp.WaitVisible(chromedp.CSS("#messages .block-data-table")))

	if got := b.waitJS("the plan", `JSON.stringify([document.querySelector('#messages .block-plan .plan-title').textContent,
		[...document.querySelectorAll('#messages .plan-task')].map((c) => c.dataset.taskId + ':' + c.dataset.status).join(' ')])`); got !=
		`["Docs agent job","queued:complete working:in_progress pr:complete preview:pending build:error"]` {
		t.Errorf("the plan shows %s", got)
	}
	if got := b.waitJS("the task's details and source", `JSON.stringify([document.querySelector('[data-task-id="working"] .task-details').innerText,
		document.querySelector('[data-task-id="pr"] .task-sources a').href])`); got != `["Status active · 3 minutes","https://github.com/acme/docs/pull/12"]` {
		t.Errorf("the working card and the pull request's link: %s", got)
	}
	if got := b.waitJS("the charts", `JSON.stringify([...document.querySelectorAll('#messages .block-chart')].map((f) => [f.dataset.chartType,
		f.querySelectorAll('polyline').length, f.querySelectorAll('circle').length, f.querySelectorAll('rect.chart-bar').length,
		f.querySelector('.chart-legend').innerText.replace(/\s+/g, ' ').trim()]))`); got !=
		`[["line",2,14,0,"Human AI"],["bar",0,0,6,"Oct 18 – Oct 24 Oct 25 – Oct 31"]]` {
		t.Errorf("the charts: %s", got)
	}
	if got := b.waitJS("the charts' count axes", `JSON.stringify([...document.querySelectorAll('#messages .block-chart')].map((f) =>
		[...f.querySelectorAll('text.chart-axis[text-anchor="end"]')].map((t) => t.textContent).join(' ')))`); got !=
		`["0 500 1,000 1,500","0 1,000 2,000 3,000 4,000"]` {
		t.Errorf("the charts' count axes are not in round steps: %s", got)
	}
	if got := b.waitJS("the chart's numbers for screen readers", `document.querySelector('#messages .block-chart table').innerText.includes('Nov 7 so far')`); got != "true" {
		t.Error("the line chart's table lacks its last day")
	}
	if got := b.waitJS("the table", `JSON.stringify([document.querySelector('#messages .data-table caption').textContent,
		[...document.querySelectorAll('#messages .data-table tr')].map((r) => [...r.children].map((c) => c.innerText.trim()).join('|'))])`); got !=
		`["Top 3 pages by total visitors",["Page|Total|Agent","/quickstart|1,200|Improve this page","/api/auth|1,100|Improve this page","<img src=x onerror=alert(1)>|1,000|Improve this page"]]` {
		t.Errorf("the table: %s", got)
	}
	b.screenshot("ai-blocks.png")
	b.step("press a row's button", chromedp.Click(chromedp.CSS(`#messages .data-table tr:nth-of-type(3) .action button`)))
	app.wait(t, "the table's button", func(it seenItem) bool { return it.ID == improveID+".2" && it.Value == "/api/auth" })
	if got := b.waitJS("no injection", noInjection); got != "true" {
		t.Error("the app's text became markup")
	}
}
