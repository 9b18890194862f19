package visitors_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/bot/visitors/insight"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// day is midnight UTC of a YYYY-MM-DD date.
func day(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// waitFiles waits until n files were uploaded and shared, and returns them.
func (h *harness) waitFiles(n int) []slacktest.File {
	h.T.Helper()
	var files []slacktest.File
	h.WaitFor(fmt.Sprintf("%d files shared", n), func() bool {
		files = files[:0]
		for _, f := range h.Slack.Files() {
			if f.Completed && f.Channel != "" {
				files = append(files, f)
			}
		}
		return len(files) >= n
	})
	if len(files) != n {
		h.T.Fatalf("%d files shared, want %d", len(files), n)
	}
	return files
}

// settledRequests waits until every piece of work is done, stops the
// replicas and returns the analytics requests the API received: final.
func (h *harness) settledRequests() int {
	h.T.Helper()
	h.Settle()
	return h.API.Count(docsapitest.EndpointVisitors)
}

// checkChart fails unless f is a PNG chart of the expected size.
func checkChart(t *testing.T, f slacktest.File) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(f.Content))
	if err != nil {
		t.Fatalf("file %s is not a PNG: %v", f.Name, err)
	}
	if got := img.Bounds().Size(); got != image.Pt(insight.ChartWidth, insight.ChartHeight) {
		t.Errorf("chart is %v, want %d×%d", got, insight.ChartWidth, insight.ChartHeight)
	}
	if !strings.HasSuffix(f.Name, ".png") || f.AltText == "" || f.Title == "" {
		t.Errorf("chart named %q, titled %q, alt text %q", f.Name, f.Title, f.AltText)
	}
}

// comment is the text of the message that shared f.
func (h *harness) comment(f slacktest.File) string {
	h.T.Helper()
	m, ok := h.Slack.Message(f.Channel, f.MessageTS)
	if !ok {
		h.T.Fatalf("no message %s sharing %s", f.MessageTS, f.Name)
	}
	return m.Text
}

func TestChartCostsOnceAcrossReplicas(t *testing.T) {
	t.Parallel()
	h, _ := visitorsHarness(t, 240)
	first := h.StartBot(bottest.Config{Now: visitorsNow, Config: app.Config{Bot: bot.Config{Analytics: wideShare}}})

	h.visitorsCommand("30d chart")
	f := h.waitFiles(1)[0]
	checkChart(t, f)
	if f.Channel != general || f.ThreadTS != "" {
		t.Errorf("chart shared in %s thread %q, want %s at the top", f.Channel, f.ThreadTS, general)
	}
	// 30 days and the range's totals, one request each.
	h.WantRequests(docsapitest.EndpointVisitors, 31, "for the first chart")
	for _, r := range h.API.Requests() {
		if r.Endpoint == docsapitest.EndpointVisitors && r.Query.Get("limit") != "1" {
			t.Errorf("a chart request with limit %q, want 1", r.Query.Get("limit"))
		}
	}
	p := h.waitPrivate("This chart costs 31 requests")
	// What is left is alice's: her share of 50 less the 31.
	if !strings.Contains(p.Text, "you have 19 of your 50 analytics requests of this hour left after it") {
		t.Errorf("cost note %q does not say what is left", p.Text)
	}
	// Whole days: the 30 days that end yesterday, and the comment says so.
	if c := h.comment(f); !strings.Contains(c, "the last 30 whole days, Oct 8 – Nov 6, 2025") || !strings.Contains(c, "today (Nov 7) is still counting") || strings.Contains(c, "No data") {
		t.Errorf("chart comment %q", c)
	}

	// Another replica draws the same chart from the day cache.
	first.Stop()
	h.StartBot(bottest.Config{Now: visitorsNow})
	h.visitorsCommand("30d chart")
	second := h.waitFiles(2)[1]
	checkChart(t, second)
	if n := h.settledRequests(); n != 31 {
		t.Errorf("%d requests after the second chart, want still 31", n)
	}
	if n := len(h.privates()); n != 1 {
		t.Errorf("%d private notes, want only the first chart's cost (the second cost nothing)", n)
	}
}

func TestChartWithTheBudgetSpent(t *testing.T) {
	t.Parallel()
	h, _ := visitorsBot(t, 240, bottest.Config{Config: app.Config{Bot: bot.Config{Analytics: bot.AnalyticsLimits{Budget: 10}}}})

	h.visitorsCommand("30d chart")
	f := h.waitFiles(1)[0]
	checkChart(t, f)
	// The budget pays for the latest 10 days; the 20 before are gaps.
	h.WantRequests(docsapitest.EndpointVisitors, 10, "the budget allows 10")
	h.waitPrivate("it spends 10, what docsbot's budget has left, on the latest days")
	if c := h.comment(f); !strings.Contains(c, "No data yet for Oct 8–27") {
		t.Errorf("chart comment %q does not name the missing days", c)
	}

	// Spent: the next chart draws what is cached, and says so.
	h.visitorsCommand("30d chart")
	f2 := h.waitFiles(2)[1]
	checkChart(t, f2)
	h.waitPrivate("You have none left of this hour's analytics requests")
	if c := h.comment(f2); !strings.Contains(c, "No data yet for Oct 8–27") {
		t.Errorf("second chart comment %q", c)
	}
	if n := h.settledRequests(); n != 10 {
		t.Errorf("%d requests, want still 10", n)
	}
}

func TestShowTrendAndImproveButtons(t *testing.T) {
	t.Parallel()
	h, ds := visitorsBot(t, 240, bottest.Config{})

	h.visitorsCommand("7d top=3")
	h.waitSummaries(1)
	roots := h.Roots(general)
	if len(roots) != 1 {
		t.Fatalf("%d messages in the channel, want the summary", len(roots))
	}
	summary := roots[0]

	// Each top page has an improve button carrying its figures.
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(summary.Blocks, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw) > 50 {
		t.Errorf("summary of %d blocks", len(raw))
	}
	type improve struct {
		Path             string
		Human, AI, Total int64
		Range            string
	}
	var improves []improve
	_, table, _ := bottest.Table(summary.Blocks)
	for _, row := range table {
		if c := row[len(row)-1]; strings.HasPrefix(c.ActionID, jobdraft.ActionImprovePageRows) {
			var v improve
			if err := json.Unmarshal([]byte(c.Value), &v); err != nil {
				t.Fatalf("improve button value %q: %v", c.Value, err)
			}
			improves = append(improves, v)
		}
	}
	for _, b := range raw {
		var acc struct {
			ActionID string `json:"action_id"`
			Value    string `json:"value"`
		}
		if json.Unmarshal(b["accessory"], &acc) != nil || acc.ActionID != jobdraft.ActionImprovePage {
			continue
		}
		var v improve
		if err := json.Unmarshal([]byte(acc.Value), &v); err != nil {
			t.Fatalf("improve button value %q: %v", acc.Value, err)
		}
		improves = append(improves, v)
	}
	pages := ds.Pages(day(t, "2025-11-01"), day(t, "2025-11-08"))
	if len(improves) != 3 {
		t.Fatalf("%d improve buttons, want one per top page (3)", len(improves))
	}
	for i, v := range improves {
		p := pages[i] // the dataset serves pages by total
		if v.Path != p.Path || v.Total != int64(p.Total) || v.Human != int64(p.Human) || v.AI != int64(p.AI) || v.Range != "2025-11-01..2025-11-07" {
			t.Errorf("improve button %d = %+v, want %s %+v over 2025-11-01..2025-11-07", i, v, p.Path, p.Counts)
		}
	}

	// A row's Improve this page opens the docs agent's form about its page.
	h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: summary.TS, ActionID: jobdraft.ActionImprovePageRows + "2"})
	h.WaitFor("the job form about the second page", func() bool {
		for _, v := range h.Slack.OpenModals(alice) {
			if strings.Contains(string(v.Blocks), pages[1].Path) {
				return true
			}
		}
		return false
	})

	// Show trend: the chart goes in the summary's thread.
	h.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: summary.TS, ActionID: visitors.ActionShowTrend})
	h.WaitFor("the chart", func() bool { return len(h.ChartPosts(general)) == 1 })
	if c := h.ChartPosts(general)[0]; c.ThreadTS != summary.TS || c.TS == summary.TS {
		t.Errorf("chart posted in thread %q, want the summary's thread %s", c.ThreadTS, summary.TS)
	}
	h.Settle()
	// The summary's export (1 request) gave the totals; 7 days, one each.
	h.WantRequests(docsapitest.EndpointVisitors, 1+7, "")
}

func TestCompareEndToEnd(t *testing.T) {
	t.Parallel()
	h, ds := visitorsBot(t, 240, bottest.Config{})

	// Compare works on whole days: 7d is the 7 days that end yesterday
	// (Nov 6), against the 7 before; today, a partial day, is left out.
	h.visitorsCommand("7d compare top=3")
	text := postText(h.waitSummaries(1))
	cur := insight.Period{First: day(t, "2025-10-31"), Last: day(t, "2025-11-06"),
		Totals: ds.Totals(day(t, "2025-10-31"), day(t, "2025-11-07")), Pages: ds.Pages(day(t, "2025-10-31"), day(t, "2025-11-07"))}
	prev := insight.Period{First: day(t, "2025-10-24"), Last: day(t, "2025-10-30"),
		Totals: ds.Totals(day(t, "2025-10-24"), day(t, "2025-10-31")), Pages: ds.Pages(day(t, "2025-10-24"), day(t, "2025-10-31"))}
	cmp, err := insight.Compare(cur, prev, 3)
	if err != nil {
		t.Fatal(err)
	}
	pct, ok := cmp.Totals.Total.Percent()
	if !ok {
		t.Fatal("no percentage for the totals")
	}
	bottest.WantContains(t, "comparison", text,
		"the last 7 whole days, Oct 31 – Nov 6, 2025 compared with Oct 24 – Oct 30, 2025",
		"today (Nov 7) is still counting, so it is left out",
		fmt.Sprintf("*%s* visitors (was %s, %s)", humanize.Count(int64(cur.Totals.Total)), humanize.Count(int64(prev.Totals.Total)), pct),
		"*Rose most*", "*Fell most*", "*New pages", "*Pages that vanished", "never added",
	)
	for _, l := range [][]insight.PageChange{cmp.Rose, cmp.Fell, cmp.New, cmp.Vanished} {
		for _, p := range l {
			if !strings.Contains(text, p.Path) {
				t.Errorf("comparison lacks the page %s", p.Path)
			}
		}
	}
	if n := h.settledRequests(); n != 2 {
		t.Errorf("%d requests, want one export of each range", n)
	}
}

func TestCSVEndToEnd(t *testing.T) {
	t.Parallel()
	h, ds := visitorsBot(t, 613, bottest.Config{})

	h.visitorsCommand("30d csv")
	f := h.waitFiles(1)[0]
	if f.Channel != general || !strings.HasSuffix(f.Name, ".csv") {
		t.Errorf("CSV %q shared in %s", f.Name, f.Channel)
	}
	rows, err := csv.NewReader(bytes.NewReader(f.Content)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v", err)
	}
	pages := ds.Pages(day(t, "2025-10-09"), day(t, "2025-11-08"))
	if len(rows) != len(pages)+1 || !slices.Equal(rows[0], []string{"path", "human", "ai", "total"}) {
		t.Fatalf("%d rows, header %q; want %d pages and path,human,ai,total", len(rows), rows[0], len(pages))
	}
	for i, p := range pages {
		want := []string{p.Path, strconv.Itoa(int(p.Human)), strconv.Itoa(int(p.AI)), strconv.Itoa(int(p.Total))}
		if !slices.Equal(rows[i+1], want) {
			t.Fatalf("row %d = %q, want %q", i+1, rows[i+1], want)
		}
	}
	if c := h.comment(f); !strings.Contains(c, "613 pages") {
		t.Errorf("CSV comment %q", c)
	}
}

func TestBadModeCombinationsCostNothing(t *testing.T) {
	t.Parallel()
	h, _ := visitorsBot(t, 100, bottest.Config{})
	for _, text := range []string{"chart compare", "chart top=5", "csv sort=ai", "digest", "digest weekly 7d", "compare top=20", "today compare"} {
		ack := h.Command(alice, general, visitors.Command, text)
		if !strings.Contains(string(ack.Payload), "ephemeral") || !strings.Contains(string(ack.Payload), "I can't use") {
			t.Errorf("%q acked with %s, want a private refusal", text, ack.Payload)
		}
	}
	if n := h.settledRequests(); n != 0 {
		t.Errorf("%d requests for refused commands", n)
	}
	if n := len(h.Slack.Files()); n != 0 {
		t.Errorf("%d files uploaded for refused commands", n)
	}
}

// TestChartOfARangeReachingToday: a range typed up to today is charted with
// today drawn apart, and the comment says why its point is low.
func TestChartOfARangeReachingToday(t *testing.T) {
	t.Parallel()
	h, _ := visitorsHarness(t, 100)
	// A workspace without Slack's charts: the image, as before.
	h.Slack.RefuseBlockType("data_visualization")
	h.StartBot(bottest.Config{Now: visitorsNow})

	h.visitorsCommand("2025-11-01..2025-11-07 chart")
	f := h.waitFiles(1)[0]
	checkChart(t, f)
	c := h.comment(f)
	if !strings.Contains(c, "Nov 1 – Nov 7, 2025") || !strings.Contains(c, "Today (Nov 7) is still counting: its point is drawn dotted") {
		t.Errorf("chart comment %q does not say today is drawn apart", c)
	}
	// 7 days and the range's totals.
	if n := h.settledRequests(); n != 8 {
		t.Errorf("%d requests, want 8", n)
	}
}
