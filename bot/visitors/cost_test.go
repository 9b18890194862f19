package visitors_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// answered waits until the command's answer is out: n charts uploaded, or n
// posts in the channel. Every request of a command is sent before its answer.
func (h *harness) answered(chart bool, n int) {
	h.T.Helper()
	if chart {
		h.WaitFor(fmt.Sprintf("%d charts", n), func() bool { return len(h.Slack.Files())+len(h.ChartPosts(general)) >= n })
		return
	}
	h.waitSummaries(n)
}

// TestRepeatCosts counts the analytics requests of a command asked once and
// again, on a bot whose cache keeps results for an hour (a repeat within the
// TTL) and on one whose TTL is over before the repeat (the clock of dates
// stays on the same day): a repeat within the TTL costs nothing, and
// one after it only what may have changed since, the days still open
// (store.OpenDays) and the ranges that reach them. 600 pages make an export
// of 3 requests.
func TestRepeatCosts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text  string
		chart bool
		// first, within and after are the requests of the first command,
		// of a repeat within the TTL and of a repeat after it.
		first, within, after int
	}{
		// 30 days and the range's unique totals; after the TTL, yesterday
		// (still open) and the range's totals again.
		{text: "30d chart", chart: true, first: 31, within: 0, after: 2},
		// A chart reaching today: today, yesterday and the totals again.
		{text: "2025-11-01..2025-11-07 chart", chart: true, first: 8, within: 0, after: 3},
		// The range (ending yesterday, still open) and the week before it
		// (closed: kept), an export of 3 requests each.
		{text: "7d compare", first: 6, within: 0, after: 3},
		// A range reaching today: its whole export again.
		{text: "7d", first: 3, within: 0, after: 3},
		// A closed range: its export never changes.
		{text: "last-month", first: 3, within: 0, after: 0},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			t.Parallel()
			// repeat asks twice on a bot whose cache keeps results for ttl,
			// the second time once ttl is over when late, and returns the
			// requests of each ask.
			repeat := func(ttl time.Duration, late bool) (first, again int, h *harness) {
				h, _ = visitorsHarness(t, 600)
				h.StartBot(bottest.Config{Now: visitorsNow, Config: app.Config{Bot: bot.Config{Analytics: wideShare}, Visitors: visitors.Config{CacheTTL: ttl}}})
				count := func() int { return h.API.Count(docsapitest.EndpointVisitors) }
				h.visitorsCommand(tc.text)
				h.answered(tc.chart, 1)
				// The cache's copy is written before the answer: from
				// now on it is at least this old.
				start := time.Now()
				first = count()
				if late {
					h.WaitFor("the cache's TTL to pass", func() bool { return time.Since(start) > 2*ttl })
				}
				h.visitorsCommand(tc.text)
				h.answered(tc.chart, 2)
				return first, count() - first, h
			}
			first, within, _ := repeat(time.Hour, false)
			_, after, h := repeat(300*time.Millisecond, true)
			got := fmt.Sprintf("first %d, within the TTL %d, after it %d", first, within, after)
			if want := fmt.Sprintf("first %d, within the TTL %d, after it %d", tc.first, tc.within, tc.after); got != want {
				t.Errorf("%q requests: %s; want %s", tc.text, got, want)
			}
			if tc.text == "last-month" {
				// Reused past the TTL, and the summary says why.
				if s := postText(h.waitSummaries(2)); !strings.Contains(s, "its days are over and no longer change") {
					t.Errorf("summary reused past the TTL says:\n%s", s)
				}
			}
		})
	}
}

// TestCopyFetchedBeforeADayClosedIsFetchedAgain: a summary of yesterday,
// fetched while yesterday could still change, is not taken as final once the
// day is closed; the copy fetched then is, past the TTL, with the same
// numbers.
func TestCopyFetchedBeforeADayClosedIsFetchedAgain(t *testing.T) {
	t.Parallel()
	const ttl = 300 * time.Millisecond
	clock := slacktest.NewManualClock(visitorsNow())
	h, _ := visitorsHarness(t, 600, docsapitest.WithClock(clock.Now))
	h.StartBot(bottest.Config{Now: clock.Now, Config: app.Config{Visitors: visitors.Config{CacheTTL: ttl}}})
	count := func() int { return h.API.Count(docsapitest.EndpointVisitors) }
	ask := func(n int) (requests int, table [][]string) {
		t.Helper()
		before := count()
		h.visitorsCommand("2025-11-06..2025-11-06")
		s := h.waitSummaries(n)
		start := time.Now() // the cache's copy is written before the answer
		// The next ask comes after the TTL.
		h.WaitFor("the cache's TTL to pass", func() bool { return time.Since(start) > 2*ttl })
		return count() - before, pageRows(s)
	}
	// Nov 7: Nov 6 is yesterday, still open.
	if n, _ := ask(1); n != 3 {
		t.Errorf("%d requests for the first summary, want 3", n)
	}
	clock.Advance(24 * time.Hour) // Nov 8: Nov 6 is closed.
	n, fetched := ask(2)
	if n != 3 {
		t.Errorf("%d requests for a copy fetched while the day was open, want 3 (fetched again)", n)
	}
	n, reused := ask(3)
	if n != 0 {
		t.Errorf("%d requests for a copy fetched once the day was closed, want 0", n)
	}
	if len(fetched) == 0 || fmt.Sprint(reused) != fmt.Sprint(fetched) {
		t.Errorf("the reused summary lists\n%v\nthe fetched one\n%v", reused, fetched)
	}
}
