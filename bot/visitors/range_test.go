package visitors

import (
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
)

// friday is the clock of most range cases: 2025-11-07 15:30 UTC.
var friday = time.Date(2025, 11, 7, 15, 30, 0, 0, time.UTC)

func TestParseVisitorsRanges(t *testing.T) {
	t.Parallel()
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
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
			now := friday
			if tc.now != "" {
				now = at(tc.now)
			}
			req, bad := parseVisitors(tc.text, now)
			if bad != nil {
				t.Fatalf("parseVisitors(%q) failed: %v", tc.text, bad)
			}
			r := req.Range
			from, to := r.params()
			got := []string{r.First.Format(time.DateOnly), r.Last.Format(time.DateOnly), from, to}
			want := []string{tc.first, tc.last, tc.from, tc.to}
			if strings.Join(got, " ") != strings.Join(want, " ") || r.Today != tc.today {
				t.Errorf("range %v today=%v, want %v today=%v", got, r.Today, want, tc.today)
			}
			if r.days() != int(r.Last.Sub(r.First).Hours()/24)+1 || r.days() < 1 {
				t.Errorf("days() = %d for %v", r.days(), got)
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
		if msg := bad.message(); !strings.Contains(msg, "`"+bot.Escape(tc.part)+"`") {
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
