package visitors

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// Limits of /docs-visitors requests.
const (
	// visitorsHistoryDays is how far back a range may start, today included
	// (yesterday included for chart and compare, which work on whole days;
	// historyStart): the analytics keep about 400 days.
	visitorsHistoryDays = 400
	defaultTop          = 10
	// compareTop and maxCompareTop are how many pages each list of a
	// comparison shows by default and at most.
	compareTop    = 5
	maxCompareTop = 10
	maxTop        = 50
	// maxShownInput bounds the quoted part of bad input.
	maxShownInput = 80
)

// sortColumn is the column pages are ranked by.
type sortColumn string

const (
	sortTotal sortColumn = "total"
	sortHuman sortColumn = "human"
	sortAI    sortColumn = "ai"
)

// dateRange is a span of whole UTC days, both ends included.
type dateRange struct {
	// First and Last are midnights UTC; First <= Last.
	First, Last time.Time
	// Today reports whether Last is today, which is still counting.
	Today bool
	// TodayLeftOut reports that the range as typed reached today and was
	// ended with yesterday (compare works on whole days only).
	TodayLeftOut bool
	// EndsYesterday reports a relative range (7d, this-month, a start
	// alone) that chart and compare ended with yesterday, the last whole
	// day, rather than today.
	EndsYesterday bool
}

// describe names the range for chart and compare: "the last 7 whole days,
// Nov 16 – Nov 22, 2026" when it was ended with yesterday, else String.
func (r dateRange) describe() string {
	if !r.EndsYesterday && !r.TodayLeftOut {
		return r.String()
	}
	if n := r.days(); n > 1 {
		return fmt.Sprintf("the last %d whole days, %s", n, r)
	}
	return "the last whole day, " + r.String()
}

// leftOutNote says that today is not in the range because it is still
// counting, "" when the range was not ended before today.
func (r dateRange) leftOutNote() string {
	if !r.EndsYesterday && !r.TodayLeftOut {
		return ""
	}
	return "Whole UTC days only: today (" + r.Last.AddDate(0, 0, 1).Format("Jan 2") + ") is still counting, so it is left out."
}

// days returns the number of days in the range.
func (r dateRange) days() int { return int(r.Last.Sub(r.First)/(24*time.Hour)) + 1 }

// params returns the API's dateFrom and dateTo; dateTo is exclusive, so it
// is the day after Last.
func (r dateRange) params() (from, to string) {
	return r.First.Format(time.DateOnly), r.Last.AddDate(0, 0, 1).Format(time.DateOnly)
}

// String reads like "Nov 1 – Nov 7, 2025", "Dec 29, 2024 – Jan 4, 2025" or
// "Nov 7, 2025".
func (r dateRange) String() string {
	switch {
	case r.First.Equal(r.Last):
		return r.Last.Format("Jan 2, 2006")
	case r.First.Year() == r.Last.Year():
		return r.First.Format("Jan 2") + " – " + r.Last.Format("Jan 2, 2006")
	}
	return r.First.Format("Jan 2, 2006") + " – " + r.Last.Format("Jan 2, 2006")
}

// visitorsRequest is a parsed /docs-visitors command.
type visitorsRequest struct {
	Help  bool
	Range dateRange
	// RangeText is the range as typed ("7d" when defaulted).
	RangeText string
	Top       int
	// topSet is the top= given, 0 if none.
	topSet int
	// Path is the prefix pages must start with; "" keeps every page.
	Path string
	Sort sortColumn
	// Mode is what to post: the summary (""), a chart, a comparison, a CSV
	// file, or a digest subscription's change.
	Mode mode
	// Digest is the word after `digest`: weekly, daily, off or status.
	Digest string
	// Project is the project's key (bot.ProjectKey), which the buttons of
	// the answer carry; ProjectName is its name as the answer shows it, ""
	// when the bot serves the implicit project alone.
	Project, ProjectName string
}

// mode is the kind of answer a /docs-visitors command asks for.
type mode string

const (
	modeSummary mode = ""
	modeChart   mode = "chart"
	modeCompare mode = "compare"
	modeCSV     mode = "csv"
	modeDigest  mode = "digest"
)

// The words after `digest`.
const (
	digestWeekly = "weekly"
	digestDaily  = "daily"
	digestOff    = "off"
	digestStatus = "status"
)

// inputError is bad command input: the part at fault, and why.
type inputError struct {
	Part, Problem string
}

func (e *inputError) Error() string { return fmt.Sprintf("%q: %s", e.Part, e.Problem) }

// message is what the user reads: the bad part quoted (escaped), the problem.
func (e *inputError) message() string {
	part := strings.ReplaceAll(mrkdwn.Cut(e.Part, maxShownInput), "`", "'")
	return ":warning: I can't use `" + mrkdwn.Escape(part) + "`: " + e.Problem + "."
}

var (
	relativePattern = regexp.MustCompile(`^(\d+)([dw])$`)
	datePattern     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// parseVisitors reads the text of a /docs-visitors command typed at now.
// Words are separated by spaces; keywords are case-insensitive.
func parseVisitors(text string, now time.Time) (visitorsRequest, *inputError) {
	req := visitorsRequest{Top: defaultTop, Sort: sortTotal}
	today := midnight(now)
	seen := map[string]bool{}
	// The range word is read as it is met, so that its errors come in the
	// order typed, and again once the mode is known: chart and compare end
	// a relative range with yesterday (wholeDays).
	rangeWord := ""
	words := strings.Fields(mrkdwn.Unescape(text))
	for i := 0; i < len(words); i++ {
		word := words[i]
		lower := strings.ToLower(word)
		if lower == "help" {
			return visitorsRequest{Help: true}, nil
		}
		if m := mode(lower); m == modeChart || m == modeCompare || m == modeCSV || m == modeDigest {
			if req.Mode != modeSummary {
				return req, &inputError{word, "ask for one of `chart`, `compare`, `csv` and `digest` at a time"}
			}
			req.Mode = m
			if m == modeDigest {
				if i+1 == len(words) {
					return req, &inputError{word, "say `digest weekly`, `digest daily`, `digest off` or `digest status`"}
				}
				i++
				switch d := strings.ToLower(words[i]); d {
				case digestWeekly, digestDaily, digestOff, digestStatus:
					req.Digest = d
				default:
					return req, &inputError{words[i], "after `digest` comes `weekly`, `daily`, `off` or `status`"}
				}
			}
			seen["mode:"+lower] = true
			continue
		}
		if key, val, ok := strings.Cut(word, "="); ok {
			key = strings.ToLower(key)
			if seen[key] {
				return req, &inputError{word, key + "= is given twice"}
			}
			seen[key] = true
			if err := req.option(key, val, word); err != nil {
				return req, err
			}
			continue
		}
		r, err := parseRange(lower, today, false)
		if err != nil {
			// A start one day further back fits the whole days of chart
			// and compare, and the mode may come later in the text: an
			// error that depends on the mode is told once it is known.
			if _, errWhole := parseRange(lower, today, true); errWhole != nil && errWhole.Problem == err.Problem {
				err.Part = word
				return req, err
			}
		}
		if seen["range"] {
			return req, &inputError{word, "only one date range can be given (the range is `" + mrkdwn.Escape(req.RangeText) + "`)"}
		}
		seen["range"] = true
		req.Range, req.RangeText, rangeWord = r, word, lower
	}
	if err := req.checkMode(seen); err != nil {
		return req, err
	}
	if !seen["range"] {
		req.RangeText, rangeWord = "7d", "7d"
	}
	whole := req.Mode.wholeDays()
	r, err := parseRange(rangeWord, today, whole)
	if err != nil {
		err.Part = req.RangeText
		return req, err
	}
	req.Range = r
	if req.Mode == modeCompare && r.Today {
		// Compare sets whole days against whole days: a range typed up to
		// today ends with yesterday, and the comparison says so.
		if r.First.Equal(today) {
			return req, &inputError{req.RangeText, "`compare` works on whole days, and today (" + today.Format("Jan 2") +
				" UTC) is not over yet: compare `yesterday`, or a range that ends by yesterday"}
		}
		req.Range = dateRange{First: r.First, Last: today.AddDate(0, 0, -1), TodayLeftOut: true}
	}
	if req.Mode == modeCompare {
		// The previous range must lie within the analytics' history too.
		earliest := historyStart(today, whole)
		if prev := req.Range.First.AddDate(0, 0, -req.Range.days()); prev.Before(earliest) {
			return req, &inputError{req.RangeText, fmt.Sprintf("`compare` needs the %d days before it too, and the analytics keep only the last %d days (the longest range to compare is %dd)",
				req.Range.days(), visitorsHistoryDays, visitorsHistoryDays/2)}
		}
	}
	return req, nil
}

// checkMode refuses the options a mode has no use for, so that nothing is
// asked of the API for a command that cannot mean what was typed. seen holds
// the options and the range given.
func (req *visitorsRequest) checkMode(seen map[string]bool) *inputError {
	refuse := func(keys []string, why string) *inputError {
		for _, k := range keys {
			if seen[k] {
				word := k + "="
				if k == "range" {
					word = req.RangeText
				}
				return &inputError{word, why}
			}
		}
		return nil
	}
	switch req.Mode {
	case modeChart:
		req.Top = 0
		return refuse([]string{"top", "path", "sort"}, "`chart` draws the site's daily totals, so it takes only a range")
	case modeCompare:
		if req.topSet > maxCompareTop {
			return &inputError{fmt.Sprintf("top=%d", req.topSet), fmt.Sprintf("`compare` lists at most %d pages in each list", maxCompareTop)}
		}
		req.Top = compareTop
		if req.topSet > 0 {
			req.Top = req.topSet
		}
		return refuse([]string{"sort"}, "`compare` ranks pages by their change in total visitors")
	case modeCSV:
		return refuse([]string{"top", "sort"}, "`csv` lists every page, in the API's order")
	case modeDigest:
		return refuse([]string{"range", "top", "path", "sort"}, "`digest "+req.Digest+"` takes nothing else: the digest reports the last week (or day)")
	}
	return nil
}

// option applies one key=value word.
func (req *visitorsRequest) option(key, val, word string) *inputError {
	switch key {
	case "top":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 || n > maxTop {
			return &inputError{word, fmt.Sprintf("top must be a whole number from 1 to %d", maxTop)}
		}
		req.Top, req.topSet = n, n
	case "path":
		if val == "" {
			return &inputError{word, "path needs a prefix, such as `path=/api-reference`"}
		}
		if !strings.HasPrefix(val, "/") {
			val = "/" + val
		}
		req.Path = val
	case "sort":
		switch c := sortColumn(strings.ToLower(val)); c {
		case sortTotal, sortHuman, sortAI:
			req.Sort = c
		default:
			return &inputError{word, "sort must be `total`, `human` or `ai`"}
		}
	default:
		return &inputError{word, "the options are `top=`, `path=` and `sort=`"}
	}
	return nil
}

// wholeDays reports whether the mode works on whole days only: a relative
// range (7d, 12w, this-month, a start date alone) ends with yesterday, the
// last day that is over, instead of today, which is still counting. The
// summary, the CSV and the digest's own ranges keep today.
func (m mode) wholeDays() bool { return m == modeChart || m == modeCompare }

// historyStart is the earliest day a range may start: the analytics keep
// visitorsHistoryDays days, counted back from today, or from yesterday for
// the modes that work on whole days (so that 400d still fits).
func historyStart(today time.Time, wholeDays bool) time.Time {
	end := today
	if wholeDays {
		end = today.AddDate(0, 0, -1)
	}
	return end.AddDate(0, 0, -(visitorsHistoryDays - 1))
}

// parseRange reads one range word (lower case) relative to today. With
// wholeDays, a relative range ends with yesterday (the last closed day)
// rather than today; ranges that name their last day (today, a..b) keep it.
func parseRange(word string, today time.Time, wholeDays bool) (dateRange, *inputError) {
	// end is where a relative range ends.
	end := today
	if wholeDays {
		end = today.AddDate(0, 0, -1)
	}
	var first, last time.Time
	switch word {
	case "today":
		first, last = today, today
	case "yesterday":
		first = today.AddDate(0, 0, -1)
		last = first
	case "this-month":
		first, last = time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC), end
		if last.Before(first) {
			return dateRange{}, &inputError{word, "this month has no whole day yet (today, the 1st, is still counting): try `last-month`, or `this-month` without `chart` or `compare`"}
		}
	case "last-month":
		// Day 0 of this month is the last day of the previous one.
		last = time.Date(today.Year(), today.Month(), 0, 0, 0, 0, 0, time.UTC)
		first = time.Date(last.Year(), last.Month(), 1, 0, 0, 0, 0, time.UTC)
	default:
		var err *inputError
		first, last, err = parseSpan(word, today, end)
		if err != nil {
			return dateRange{}, err
		}
	}
	r, err := checkRange(word, first, last, today, wholeDays)
	// Ranges whose end follows the clock; the others name their last day.
	relative := word == "this-month" || relativePattern.MatchString(word) || datePattern.MatchString(word)
	r.EndsYesterday = wholeDays && relative && err == nil && r.Last.Equal(end) && end.Before(today)
	return r, err
}

// parseSpan reads "7d", "12w", "2025-11-01" and "2025-11-01..2025-11-07";
// the relative ones and a start alone end on end (today, or yesterday for
// whole days).
func parseSpan(word string, today, end time.Time) (first, last time.Time, _ *inputError) {
	if m := relativePattern.FindStringSubmatch(word); m != nil {
		// Only digits: Atoi fails only on numbers too large for an int.
		n, err := strconv.Atoi(m[1])
		days := n
		if err == nil && m[2] == "w" && n <= visitorsHistoryDays {
			days = n * 7
		}
		switch {
		case err != nil || days > visitorsHistoryDays:
			return first, last, &inputError{word, fmt.Sprintf("that is longer than the %d days the analytics keep", visitorsHistoryDays)}
		case n < 1:
			return first, last, &inputError{word, "the number of days or weeks must be at least 1"}
		}
		return end.AddDate(0, 0, -(days - 1)), end, nil
	}
	if a, b, ok := strings.Cut(word, ".."); ok {
		first, err := parseDay(a, word)
		if err != nil {
			return first, last, err
		}
		last, err := parseDay(b, word)
		if err != nil {
			return first, last, err
		}
		if first.After(last) {
			return first, last, &inputError{word, "the start is after the end"}
		}
		return first, last, nil
	}
	if datePattern.MatchString(word) {
		first, err := parseDay(word, word)
		// A start of today has no whole day before its end: it is today's
		// range, as typed.
		return first, maxTime(first, end), err
	}
	return first, last, &inputError{word, "that is not a date range or an option"}
}

// parseDay reads one YYYY-MM-DD date; whole is the word it is part of.
func parseDay(s, whole string) (time.Time, *inputError) {
	if !datePattern.MatchString(s) {
		return time.Time{}, &inputError{whole, "dates are written YYYY-MM-DD, such as 2025-11-01"}
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, &inputError{whole, mrkdwn.Escape(s) + " is not a day of the calendar"}
	}
	return t, nil
}

// checkRange applies the rules every range shares: it lies within the
// analytics' history (historyStart), starts no later than today, and ends
// today at the latest.
func checkRange(word string, first, last, today time.Time, wholeDays bool) (dateRange, *inputError) {
	earliest := historyStart(today, wholeDays)
	switch {
	case first.After(today):
		return dateRange{}, &inputError{word, "it starts after today (" + today.Format(time.DateOnly) + " UTC)"}
	case first.Before(earliest):
		return dateRange{}, &inputError{word, fmt.Sprintf("the analytics keep only the last %d days, so the earliest start is %s",
			visitorsHistoryDays, earliest.Format(time.DateOnly))}
	}
	// A range that reaches past today stops at today: later days have no data.
	last = minTime(last, today)
	return dateRange{First: first, Last: last, Today: last.Equal(today)}, nil
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// midnight returns the start of t's UTC day.
func midnight(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// visitorsUsage is the short usage shown with bad input and in the help.
func visitorsUsage() string {
	return strings.Join([]string{
		"*Usage:* `" + Command + " [range] [top=N] [path=PREFIX] [sort=total|human|ai] [chart|compare|csv]`",
		"*Range* (whole days in UTC; default `7d`):",
		"• `7d`, `30d`, `12w`: the last N days or weeks, today included (for `chart` and `compare`: whole days, ending yesterday)",
		"• `2025-11-01..2025-11-07`: from the first day to the last, both included",
		"• `2025-11-01`: from that day through today (through yesterday for `chart` and `compare`)",
		"• `today`, `yesterday`, `this-month`, `last-month`",
		fmt.Sprintf("Ranges can reach back %d days.", visitorsHistoryDays),
		"*Options:*",
		fmt.Sprintf("• `top=N`: how many pages to list (default %d, at most %d)", defaultTop, maxTop),
		"• `path=/api-reference`: only pages whose path starts with this prefix",
		"• `sort=human` or `sort=ai`: rank pages by that column instead of the total",
		"*Instead of the summary:*",
		"• `chart`: a chart of the daily unique visitors, human and AI (`" + Command + " 30d chart`); today, still counting, is drawn dotted when the range names it",
		"• `compare`: the range against the one before it, with the pages that rose and fell most (`" + Command + " 7d compare`); whole days only, so a range typed up to today ends with yesterday",
		"• `csv`: every page of the range as a CSV file",
		"• `digest weekly`, `digest daily`, `digest off`, `digest status`: post the last week's (or day's) summary in this channel on schedule",
	}, "\n")
}

// visitorsHelp is the text of `/docs-visitors help`.
func visitorsHelp() string {
	return strings.Join([]string{
		"*" + Command + "* posts a summary of the docs' unique visitors in this channel: site-wide totals (human, AI) and the top pages.",
		"",
		visitorsUsage(),
		"",
		"• Example: `" + Command + " 30d top=20 path=/guides sort=ai`",
		"• Results are reused for a few minutes, so asking again is free.",
	}, "\n")
}
