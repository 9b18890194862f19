package visitors

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// FuzzParseVisitors: whatever follows /docs-visitors, parseVisitors answers
// help, a request or an *inputError, never panics, and a request keeps the
// documented bounds: a range of whole UTC days, first <= last, within the
// analytics' 400 days and ending today at the latest (yesterday for chart
// and compare's relative ranges, and always before today for compare), with
// options in range. Written back as a command (render), a request parses to
// itself. An error names the part at fault, and its message shows it
// escaped: no markup.
func FuzzParseVisitors(f *testing.F) {
	for _, s := range []string{
		"", "help", "7d", "30d chart", "12w compare", "today", "yesterday", "this-month", "last-month csv",
		"2025-11-01..2025-11-07", "2025-11-01", "400d chart", "200d compare", "201d compare", "401d", "0d", "99999999999999999999d",
		"top=5 path=api sort=human", "top=0", "top=51", "sort=bots", "path=", "path=&lt;x&gt;", "7d 30d", "chart compare",
		"digest weekly", "digest", "digest sometimes", "digest off 7d", "compare top=11", "today compare", "TODAY Chart",
		"2025-02-30", "2026-11-08..2025-11-01", "&amp;amp;", "<!here>", "7D top=3 csv", "path=/a=b top=2",
	} {
		f.Add(s, int64(0))
	}
	f.Add("this-month chart", int64(-6*24*3600)) // on the 1st of the month
	f.Add("7d compare", int64(3600*23))
	f.Fuzz(func(t *testing.T, text string, shift int64) {
		// Clocks within a couple of years of friday, at any hour.
		now := friday.Add(time.Duration(shift%(2*366*24*3600)) * time.Second)
		req, err := parseVisitors(text, now)
		if err != nil {
			if err.Part == "" || err.Problem == "" {
				t.Fatalf("parseVisitors(%q): error %+v without its part or problem", text, err)
			}
			if msg := err.message(); strings.ContainsAny(strings.TrimPrefix(msg, ":warning: "), "<>") {
				t.Fatalf("parseVisitors(%q): message %q holds markup", text, msg)
			}
			return
		}
		if req.Help {
			return
		}
		checkRequest(t, text, req, now)
		again, err := parseVisitors(render(req), now)
		if err != nil {
			t.Fatalf("parseVisitors(%q) = %+v, but its rendering %q fails: %v", text, req, render(req), err)
		}
		if again != req {
			t.Fatalf("parseVisitors(%q) = %+v, its rendering %q parses to %+v", text, req, render(req), again)
		}
	})
}

// checkRequest fails t unless req, parsed from text at now, keeps the
// documented bounds.
func checkRequest(t *testing.T, text string, req visitorsRequest, now time.Time) {
	t.Helper()
	today := daterange.Midnight(now)
	r := req.Range
	whole := req.Mode.wholeDays()
	switch {
	case !r.First.Equal(daterange.Midnight(r.First)) || !r.Last.Equal(daterange.Midnight(r.Last)):
		t.Fatalf("%q: range %v – %v is not whole UTC days", text, r.First, r.Last)
	case r.First.After(r.Last):
		t.Fatalf("%q: range starts %v after its end %v", text, r.First, r.Last)
	case r.Last.After(today):
		t.Fatalf("%q: range ends %v after today %v", text, r.Last, today)
	case r.First.Before(daterange.HistoryStart(today, whole)):
		t.Fatalf("%q: range starts %v before the history's start %v", text, r.First, daterange.HistoryStart(today, whole))
	case r.Days() < 1 || r.Days() > visitorsHistoryDays:
		t.Fatalf("%q: range of %d days", text, r.Days())
	case r.Today != r.Last.Equal(today):
		t.Fatalf("%q: Today %t but the range ends %v (today %v)", text, r.Today, r.Last, today)
	case r.EndsYesterday && (!whole || !r.Last.Equal(today.AddDate(0, 0, -1))):
		t.Fatalf("%q: EndsYesterday in mode %q with the range ending %v", text, req.Mode, r.Last)
	case req.Mode == modeCompare && (r.Today || r.First.AddDate(0, 0, -r.Days()).Before(daterange.HistoryStart(today, true))):
		t.Fatalf("%q: compare of %v: today, or the range before it outside the history", text, r)
	}
	switch req.Mode {
	case modeSummary, modeCSV:
		if req.Top < 1 || req.Top > maxTop {
			t.Fatalf("%q: top %d", text, req.Top)
		}
	case modeChart:
		if req.Top != 0 || req.Path != "" {
			t.Fatalf("%q: chart with top %d, path %q", text, req.Top, req.Path)
		}
	case modeCompare:
		if req.Top < 1 || req.Top > maxCompareTop {
			t.Fatalf("%q: compare top %d", text, req.Top)
		}
	case modeDigest:
		if req.Digest == "" {
			t.Fatalf("%q: digest without its word", text)
		}
	default:
		t.Fatalf("%q: mode %q", text, req.Mode)
	}
	if (req.Digest != "") != (req.Mode == modeDigest) {
		t.Fatalf("%q: digest %q in mode %q", text, req.Digest, req.Mode)
	}
	if req.Sort != sortTotal && req.Sort != sortHuman && req.Sort != sortAI {
		t.Fatalf("%q: sort %q", text, req.Sort)
	}
	if req.Path != "" && !strings.HasPrefix(req.Path, "/") {
		t.Fatalf("%q: path %q", text, req.Path)
	}
}

// render writes req back as the command text a person would type, escaped
// as Slack sends it.
func render(req visitorsRequest) string {
	var words []string
	if req.Mode != modeDigest {
		words = append(words, req.RangeText)
	}
	if req.topSet > 0 {
		words = append(words, "top="+strconv.Itoa(req.topSet))
	}
	if req.Path != "" {
		words = append(words, "path="+req.Path)
	}
	if req.Sort != sortTotal {
		words = append(words, "sort="+string(req.Sort))
	}
	if req.Mode != modeSummary {
		words = append(words, string(req.Mode))
	}
	if req.Digest != "" {
		words = append(words, req.Digest)
	}
	return mrkdwn.Escape(strings.Join(words, " "))
}
