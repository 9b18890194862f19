package visitors

import (
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// friday is the clock of most range cases: 2025-11-07 15:30 UTC.
var friday = time.Date(2025, 11, 7, 15, 30, 0, 0, time.UTC)

// clockAt reads an RFC 3339 clock of a case; "" is friday.
func clockAt(tb testing.TB, s string) time.Time {
	tb.Helper()
	if s == "" {
		return friday
	}
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

func TestParseVisitorsRanges(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, now, text string
		// first and last day shown, and the API's dateFrom and dateTo.
		first, last, from, to string
		today                 bool
	}{
		{"default is 7d", "", "", "2025-11-01", "2025-11-07", "2025-11-01", "2025-11-08", true},
		{"7d", "", "7d", "2025-11-01", "2025-11-07", "2025-11-01", "2025-11-08", true},
		{"upper case", "", "7D", "2025-11-01", "2025-11-07", "2025-11-01", "2025-11-08", true},
		{"1d is today", "", "1d", "2025-11-07", "2025-11-07", "2025-11-07", "2025-11-08", true},
		{"30d", "", "30d", "2025-10-09", "2025-11-07", "2025-10-09", "2025-11-08", true},
		{"12w is 84 days", "", "12w", "2025-08-16", "2025-11-07", "2025-08-16", "2025-11-08", true},
		{"400d is the most", "", "400d", "2024-10-04", "2025-11-07", "2024-10-04", "2025-11-08", true},
		{"57w", "", "57w", "2024-10-05", "2025-11-07", "2024-10-05", "2025-11-08", true},
		{"today", "", "today", "2025-11-07", "2025-11-07", "2025-11-07", "2025-11-08", true},
		{"today just after midnight", "2025-11-07T00:00:01Z", "today", "2025-11-07", "2025-11-07", "2025-11-07", "2025-11-08", true},
		{"today just before midnight", "2025-11-07T23:59:59Z", "today", "2025-11-07", "2025-11-07", "2025-11-07", "2025-11-08", true},
		{"a clock in another zone is read in UTC", "2025-11-08T01:00:00+03:00", "today", "2025-11-07", "2025-11-07", "2025-11-07", "2025-11-08", true},
		{"yesterday", "", "yesterday", "2025-11-06", "2025-11-06", "2025-11-06", "2025-11-07", false},
		{"yesterday on the 1st", "2025-03-01T08:00:00Z", "yesterday", "2025-02-28", "2025-02-28", "2025-02-28", "2025-03-01", false},
		{"yesterday on Jan 1", "2026-01-01T08:00:00Z", "yesterday", "2025-12-31", "2025-12-31", "2025-12-31", "2026-01-01", false},
		{"this-month", "", "this-month", "2025-11-01", "2025-11-07", "2025-11-01", "2025-11-08", true},
		{"this-month on the 1st", "2025-12-01T09:00:00Z", "this-month", "2025-12-01", "2025-12-01", "2025-12-01", "2025-12-02", true},
		{"last-month", "", "last-month", "2025-10-01", "2025-10-31", "2025-10-01", "2025-11-01", false},
		{"last-month in January", "2026-01-15T09:00:00Z", "last-month", "2025-12-01", "2025-12-31", "2025-12-01", "2026-01-01", false},
		{"last-month is a leap February", "2024-03-31T09:00:00Z", "last-month", "2024-02-01", "2024-02-29", "2024-02-01", "2024-03-01", false},
		{"last-month is a short February", "2025-03-31T09:00:00Z", "last-month", "2025-02-01", "2025-02-28", "2025-02-01", "2025-03-01", false},
		{"last-month on the 31st", "2025-05-31T09:00:00Z", "last-month", "2025-04-01", "2025-04-30", "2025-04-01", "2025-05-01", false},
		{"inclusive span", "", "2025-11-01..2025-11-03", "2025-11-01", "2025-11-03", "2025-11-01", "2025-11-04", false},
		{"span of one day", "", "2025-11-03..2025-11-03", "2025-11-03", "2025-11-03", "2025-11-03", "2025-11-04", false},
		{"span over a year end", "2026-01-10T09:00:00Z", "2025-12-30..2026-01-02", "2025-12-30", "2026-01-02", "2025-12-30", "2026-01-03", false},
		{"span ending on a leap day", "2024-03-10T09:00:00Z", "2024-02-27..2024-02-29", "2024-02-27", "2024-02-29", "2024-02-27", "2024-03-01", false},
		{"span past today stops today", "", "2025-11-01..2025-12-31", "2025-11-01", "2025-11-07", "2025-11-01", "2025-11-08", true},
		{"span ending today", "", "2025-11-05..2025-11-07", "2025-11-05", "2025-11-07", "2025-11-05", "2025-11-08", true},
		{"single date through today", "", "2025-10-30", "2025-10-30", "2025-11-07", "2025-10-30", "2025-11-08", true},
		{"leap day through today", "2024-03-02T09:00:00Z", "2024-02-29", "2024-02-29", "2024-03-02", "2024-02-29", "2024-03-03", true},
		{"earliest start allowed", "", "2024-10-05", "2024-10-05", "2025-11-07", "2024-10-05", "2025-11-08", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, bad := parseVisitors(tc.text, clockAt(t, tc.now))
			if bad != nil {
				t.Fatalf("parseVisitors(%q) failed: %v", tc.text, bad)
			}
			r := req.Range
			from, to := r.Params()
			got := []string{r.First.Format(time.DateOnly), r.Last.Format(time.DateOnly), from, to}
			want := []string{tc.first, tc.last, tc.from, tc.to}
			if strings.Join(got, " ") != strings.Join(want, " ") || r.Today != tc.today {
				t.Errorf("range %v today=%v, want %v today=%v", got, r.Today, want, tc.today)
			}
			if r.Days() != int(r.Last.Sub(r.First).Hours()/24)+1 || r.Days() < 1 {
				t.Errorf("days() = %d for %v", r.Days(), got)
			}
		})
	}
}

func TestParseVisitorsRejects(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text, part, problem string
	}{
		{"0d", "0d", "at least 1"},
		{"0w", "0w", "at least 1"},
		{"401d", "401d", "400 days"},
		{"58w", "58w", "400 days"},
		{"99999999999999999999999d", "99999999999999999999999d", "400 days"},
		{"2024-10-03", "2024-10-03", "earliest start is 2024-10-04"},
		{"2020-01-01..2020-01-31", "2020-01-01..2020-01-31", "last 400 days"},
		{"2025-11-08", "2025-11-08", "starts after today"},
		{"2025-11-05..2025-11-01", "2025-11-05..2025-11-01", "start is after the end"},
		{"2023-02-29", "2023-02-29", "not a day of the calendar"},
		{"2025-02-29..2025-03-01", "2025-02-29..2025-03-01", "not a day of the calendar"},
		{"2025-13-01", "2025-13-01", "not a day of the calendar"},
		{"2025-11-31", "2025-11-31", "not a day of the calendar"},
		{"2025-1-01", "2025-1-01", "not a date range"},
		{"2025-11-01..", "2025-11-01..", "YYYY-MM-DD"},
		{"..2025-11-01", "..2025-11-01", "YYYY-MM-DD"},
		{"2025-11-01...2025-11-02", "2025-11-01...2025-11-02", "YYYY-MM-DD"},
		{"2025/11/01", "2025/11/01", "not a date range"},
		{"7x", "7x", "not a date range"},
		{"-7d", "-7d", "not a date range"},
		{"lastmonth", "lastmonth", "not a date range"},
		{"7d 30d", "30d", "only one date range"},
		{"top=0", "top=0", "from 1 to 50"},
		{"top=51", "top=51", "from 1 to 50"},
		{"top=-3", "top=-3", "from 1 to 50"},
		{"top=ten", "top=ten", "from 1 to 50"},
		{"top=", "top=", "from 1 to 50"},
		{"top=5 7d top=6", "top=6", "given twice"},
		{"path=/a PATH=/b", "PATH=/b", "given twice"},
		{"path=", "path=", "needs a prefix"},
		{"sort=views", "sort=views", "`total`, `human` or `ai`"},
		{"color=red", "color=red", "options are"},
		{"7d please", "please", "not a date range"},
		// Modes and the options they have no use for.
		{"chart compare", "compare", "one of `chart`, `compare`, `csv` and `digest`"},
		{"csv chart", "chart", "one of"},
		{"digest weekly csv", "csv", "one of"},
		{"chart top=5", "top=", "takes only a range"},
		{"30d chart path=/api", "path=", "takes only a range"},
		{"chart sort=ai", "sort=", "takes only a range"},
		{"compare sort=ai", "sort=", "change in total visitors"},
		{"compare top=11", "top=11", "at most 10"},
		{"201d compare", "201d", "longest range to compare is 200d"},
		{"compare 2024-10-10..2024-10-20", "2024-10-10..2024-10-20", "needs the 11 days before it too"},
		{"csv top=5", "top=", "every page"},
		{"csv sort=human", "sort=", "every page"},
		{"digest", "digest", "say `digest weekly`"},
		{"digest monthly", "monthly", "`weekly`, `daily`, `off` or `status`"},
		{"digest weekly 7d", "7d", "takes nothing else"},
		{"digest daily top=3", "top=", "takes nothing else"},
		{"path=/x digest off", "path=", "takes nothing else"},
		{"chart 401d", "401d", "400 days"},
		// Chart and compare work on whole days.
		{"today compare", "today", "today (Nov 7 UTC) is not over yet"},
		{"2025-11-07 compare", "2025-11-07", "not over yet"},
		{"2025-11-07..2025-11-07 compare", "2025-11-07..2025-11-07", "not over yet"},
		{"401d chart", "401d", "400 days"},
		// Their 400 days end yesterday, one day before the summary's.
		{"chart 2024-10-02", "2024-10-02", "earliest start is 2024-10-03"},
		{"2024-10-02 compare", "2024-10-02", "earliest start is 2024-10-03"},
	}
	for _, tc := range cases {
		_, bad := parseVisitors(tc.text, friday)
		if bad == nil {
			t.Errorf("parseVisitors(%q) accepted it", tc.text)
			continue
		}
		if bad.Part != tc.part || !strings.Contains(bad.Problem, tc.problem) {
			t.Errorf("parseVisitors(%q) = %q: %q; want %q: ...%q...", tc.text, bad.Part, bad.Problem, tc.part, tc.problem)
		}
		if msg := bad.message(); !strings.Contains(msg, "`"+mrkdwn.Escape(tc.part)+"`") {
			t.Errorf("message %q does not quote %q", msg, tc.part)
		}
	}
}

func TestParseVisitorsOptions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text  string
		top   int
		path  string
		sort  sortColumn
		rng   string
		help  bool
		first string
	}{
		{text: "", top: 10, sort: sortTotal, rng: "7d"},
		{text: "top=5", top: 5, sort: sortTotal, rng: "7d"},
		{text: "top=50", top: 50, sort: sortTotal, rng: "7d"},
		{text: "top=1 sort=human", top: 1, sort: sortHuman, rng: "7d"},
		{text: "SORT=AI", top: 10, sort: sortAI, rng: "7d"},
		{text: "sort=total", top: 10, sort: sortTotal, rng: "7d"},
		{text: "path=/api-reference", top: 10, path: "/api-reference", sort: sortTotal, rng: "7d"},
		{text: "path=guides", top: 10, path: "/guides", sort: sortTotal, rng: "7d"},
		{text: "path=/Guides/Ünïcode", top: 10, path: "/Guides/Ünïcode", sort: sortTotal, rng: "7d"},
		{text: "path=/a&amp;b", top: 10, path: "/a&b", sort: sortTotal, rng: "7d"},
		{text: "  30d   top=20\tpath=/guides sort=ai ", top: 20, path: "/guides", sort: sortAI, rng: "30d", first: "2025-10-09"},
		{text: "top=3 last-month", top: 3, sort: sortTotal, rng: "last-month", first: "2025-10-01"},
		{text: "help", help: true},
		{text: "HELP", help: true},
		{text: "30d help", help: true},
	}
	for _, tc := range cases {
		req, bad := parseVisitors(tc.text, friday)
		if bad != nil {
			t.Errorf("parseVisitors(%q): %v", tc.text, bad)
			continue
		}
		if req.Help != tc.help {
			t.Errorf("parseVisitors(%q).Help = %v", tc.text, req.Help)
		}
		if tc.help {
			continue
		}
		if req.Top != tc.top || req.Path != tc.path || req.Sort != tc.sort || req.RangeText != tc.rng {
			t.Errorf("parseVisitors(%q) = top %d path %q sort %s range %q; want %d %q %s %q",
				tc.text, req.Top, req.Path, req.Sort, req.RangeText, tc.top, tc.path, tc.sort, tc.rng)
		}
		if tc.first != "" && req.Range.First.Format(time.DateOnly) != tc.first {
			t.Errorf("parseVisitors(%q) starts %s, want %s", tc.text, req.Range.First.Format(time.DateOnly), tc.first)
		}
	}
}

func TestInputErrorQuotesEscaped(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text, want string
		bad        []string
	}{
		{"<!channel>", "`&lt;!channel&gt;`", []string{"<!channel>"}},
		{"path=/a path=&lt;@U0BOB&gt;", "`path=&lt;@U0BOB&gt;`", []string{"<@U0BOB>"}},
		{"a`b```c", "`a'b'''c`", []string{"```"}},
		{"Tom&amp;Jerry", "`Tom&amp;Jerry`", nil},
		{strings.Repeat("x", 300), "…`", nil},
	}
	for _, tc := range cases {
		_, bad := parseVisitors(tc.text, friday)
		if bad == nil {
			t.Fatalf("parseVisitors(%q) accepted it", tc.text)
		}
		msg := bad.message()
		if !strings.Contains(msg, tc.want) {
			t.Errorf("message %q lacks %q", msg, tc.want)
		}
		for _, b := range tc.bad {
			if strings.Contains(msg, b) {
				t.Errorf("message %q contains %q", msg, b)
			}
		}
		if len([]rune(msg)) > 200 {
			t.Errorf("message is %d runes long", len([]rune(msg)))
		}
	}
}

func TestDateRangeString(t *testing.T) {
	t.Parallel()
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	cases := []struct {
		r    dateRange
		want string
	}{
		{dateRange{First: day(2025, 11, 7), Last: day(2025, 11, 7)}, "Nov 7, 2025"},
		{dateRange{First: day(2025, 11, 1), Last: day(2025, 11, 7)}, "Nov 1 – Nov 7, 2025"},
		{dateRange{First: day(2024, 12, 29), Last: day(2025, 1, 4)}, "Dec 29, 2024 – Jan 4, 2025"},
	}
	for _, tc := range cases {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%v = %q, want %q", tc.r, got, tc.want)
		}
	}
}

// TestParseVisitorsWholeDays is how chart and compare resolve ranges: a
// relative range ends with yesterday, the last closed day; a range that names
// today keeps it for the chart (drawn as partial) and ends with yesterday for
// compare.
func TestParseVisitorsWholeDays(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, now, text string
		first, last     string
		// today: the range ends today (partial); yesterday: a relative
		// range ended with yesterday; leftOut: a range typed up to today
		// that compare ended with yesterday.
		today, yesterday, leftOut bool
	}{
		{"7d chart", "", "7d chart", "2025-10-31", "2025-11-06", false, true, false},
		{"default range", "", "compare", "2025-10-31", "2025-11-06", false, true, false},
		{"30d chart", "", "chart 30d", "2025-10-08", "2025-11-06", false, true, false},
		{"1d is yesterday", "", "1d compare", "2025-11-06", "2025-11-06", false, true, false},
		{"2w", "", "2w chart", "2025-10-24", "2025-11-06", false, true, false},
		{"first minute of a day", "2026-11-23T00:00:30Z", "7d chart", "2026-11-16", "2026-11-22", false, true, false},
		{"last minute of a day", "2026-11-22T23:59:59Z", "7d compare", "2026-11-15", "2026-11-21", false, true, false},
		{"01:00 on the sandbox's day", "2026-11-23T01:00:00Z", "30d chart", "2026-10-24", "2026-11-22", false, true, false},
		{"over a month end", "2025-12-01T00:05:00Z", "7d compare", "2025-11-24", "2025-11-30", false, true, false},
		{"over a year end", "2026-01-01T00:01:00Z", "7d chart", "2025-12-25", "2025-12-31", false, true, false},
		{"over a leap day", "2024-03-01T06:00:00Z", "3d compare", "2024-02-27", "2024-02-29", false, true, false},
		{"a clock in another zone is read in UTC", "2025-11-08T01:00:00+03:00", "7d chart", "2025-10-31", "2025-11-06", false, true, false},
		{"400d chart is the most", "", "400d chart", "2024-10-03", "2025-11-06", false, true, false},
		{"start alone ends yesterday", "", "2025-10-30 chart", "2025-10-30", "2025-11-06", false, true, false},
		{"this-month", "", "this-month compare", "2025-11-01", "2025-11-06", false, true, false},
		{"this-month on the 2nd", "2025-12-02T00:10:00Z", "this-month chart", "2025-12-01", "2025-12-01", false, true, false},
		{"yesterday", "", "yesterday chart", "2025-11-06", "2025-11-06", false, false, false},
		{"last-month on the 1st", "2025-12-01T00:01:00Z", "last-month compare", "2025-11-01", "2025-11-30", false, false, false},
		{"span before today", "", "2025-11-01..2025-11-05 compare", "2025-11-01", "2025-11-05", false, false, false},
		{"span ending yesterday is not relative", "", "2025-11-01..2025-11-06 chart", "2025-11-01", "2025-11-06", false, false, false},
		// Ranges that name today.
		{"chart keeps today", "", "2025-11-01..2025-11-07 chart", "2025-11-01", "2025-11-07", true, false, false},
		{"chart of a span past today", "", "chart 2025-11-01..2025-12-31", "2025-11-01", "2025-11-07", true, false, false},
		{"chart of today", "", "today chart", "2025-11-07", "2025-11-07", true, false, false},
		{"chart from today", "", "2025-11-07 chart", "2025-11-07", "2025-11-07", true, false, false},
		{"compare ends a span at yesterday", "", "2025-11-01..2025-11-07 compare", "2025-11-01", "2025-11-06", false, false, true},
		{"compare of a span past today", "2026-01-01T00:01:00Z", "compare 2025-12-20..2026-01-05", "2025-12-20", "2025-12-31", false, false, true},
		// The summary and the CSV keep today.
		{"summary keeps today", "2026-11-23T01:00:00Z", "7d", "2026-11-17", "2026-11-23", true, false, false},
		{"csv keeps today", "2026-11-23T01:00:00Z", "csv 30d", "2026-10-25", "2026-11-23", true, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, bad := parseVisitors(tc.text, clockAt(t, tc.now))
			if bad != nil {
				t.Fatalf("parseVisitors(%q) failed: %v", tc.text, bad)
			}
			r := req.Range
			got := []any{r.First.Format(time.DateOnly), r.Last.Format(time.DateOnly), r.Today, r.EndsYesterday, r.TodayLeftOut}
			want := []any{tc.first, tc.last, tc.today, tc.yesterday, tc.leftOut}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("range %v (first, last, today, ends yesterday, today left out), want %v", got, want)
				}
			}
		})
	}
}

// TestThisMonthOnTheFirst: on the 1st, this month has no whole day for
// chart and compare; the summary takes today.
func TestThisMonthOnTheFirst(t *testing.T) {
	t.Parallel()
	first := clockAt(t, "2025-12-01T00:10:00Z")
	_, bad := parseVisitors("this-month chart", first)
	if bad == nil || bad.Part != "this-month" || !strings.Contains(bad.Problem, "no whole day yet") {
		t.Errorf("this-month chart on the 1st = %v, want no whole day yet", bad)
	}
	if req, bad := parseVisitors("this-month", first); bad != nil || !req.Range.Today || req.Range.Days() != 1 {
		t.Errorf("this-month on the 1st = %+v, %v; want today", req.Range, bad)
	}
}

func TestDateRangeDescribe(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 23, 1, 0, 0, 0, time.UTC)
	cases := []struct{ text, describe, note string }{
		{"7d compare", "the last 7 whole days, Nov 16 – Nov 22, 2026", "today (Nov 23) is still counting, so it is left out"},
		{"1d chart", "the last whole day, Nov 22, 2026", "today (Nov 23)"},
		{"2026-11-20..2026-11-23 compare", "the last 3 whole days, Nov 20 – Nov 22, 2026", "today (Nov 23)"},
		{"2026-11-20..2026-11-23 chart", "Nov 20 – Nov 23, 2026", "Today (Nov 23) is still counting: its point is drawn dotted"},
		{"last-month chart", "Oct 1 – Oct 31, 2026", ""},
	}
	for _, tc := range cases {
		req, bad := parseVisitors(tc.text, at)
		if bad != nil {
			t.Fatalf("parseVisitors(%q): %v", tc.text, bad)
		}
		if got := req.Range.Describe(); got != tc.describe {
			t.Errorf("%q describes %q, want %q", tc.text, got, tc.describe)
		}
		note := partialNote(req.Range)
		if (tc.note == "") != (note == "") || !strings.Contains(note, tc.note) {
			t.Errorf("%q notes %q, want ...%q...", tc.text, note, tc.note)
		}
	}
}
