package visitors

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/daterange"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// Limits of /docs-visitors requests.
const (
	// visitorsHistoryDays is how far back a range may start, today included
	// (yesterday included for chart and compare, which work on whole days;
	// historyStart): the analytics keep about 400 days.
	visitorsHistoryDays = daterange.HistoryDays
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

var ()

// parseVisitors reads the text of a /docs-visitors command typed at now.
// Words are separated by spaces; keywords are case-insensitive.
func parseVisitors(text string, now time.Time) (visitorsRequest, *inputError) {
	req := visitorsRequest{Top: defaultTop, Sort: sortTotal}
	today := daterange.Midnight(now)
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
				if err := req.digestWord(words[i]); err != nil {
					return req, err
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
	if err := req.settleRange(rangeWord, today); err != nil {
		return req, err
	}
	return req, nil
}

// digestWord reads the word after `digest`: what to do with the digest.
func (req *visitorsRequest) digestWord(word string) *inputError {
	switch d := strings.ToLower(word); d {
	case digestWeekly, digestDaily, digestOff, digestStatus:
		req.Digest = d
		return nil
	}
	return &inputError{word, "after `digest` comes `weekly`, `daily`, `off` or `status`"}
}

// settleRange reads the range word (rangeWord, as typed lower-cased) again
// once the mode is known: chart and compare end a relative range with
// yesterday (wholeDays), and compare sets whole days against the whole days
// before them, which must lie within the analytics' history too.
func (req *visitorsRequest) settleRange(rangeWord string, today time.Time) *inputError {
	whole := req.Mode.wholeDays()
	r, err := parseRange(rangeWord, today, whole)
	if err != nil {
		err.Part = req.RangeText
		return err
	}
	req.Range = r
	if req.Mode == modeCompare && r.Today {
		// Compare sets whole days against whole days: a range typed up to
		// today ends with yesterday, and the comparison says so.
		if r.First.Equal(today) {
			return &inputError{req.RangeText, "`compare` works on whole days, and today (" + today.Format("Jan 2") +
				" UTC) is not over yet: compare `yesterday`, or a range that ends by yesterday"}
		}
		req.Range = dateRange{First: r.First, Last: today.AddDate(0, 0, -1), TodayLeftOut: true}
	}
	if req.Mode == modeCompare {
		earliest := daterange.HistoryStart(today, whole)
		if prev := req.Range.First.AddDate(0, 0, -req.Range.Days()); prev.Before(earliest) {
			return &inputError{req.RangeText, fmt.Sprintf("`compare` needs the %d days before it too, and the analytics keep only the last %d days (the longest range to compare is %dd)",
				req.Range.Days(), visitorsHistoryDays, visitorsHistoryDays/2)}
		}
	}
	return nil
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

// dateRange is a span of whole UTC days (daterange.Range).
type dateRange = daterange.Range

// parseRange reads one range word (daterange.Parse), its error as the
// command's.
func parseRange(word string, today time.Time, wholeDays bool) (dateRange, *inputError) {
	r, err := daterange.Parse(word, today, wholeDays)
	if err != nil {
		return r, &inputError{err.Part, err.Problem}
	}
	return r, nil
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
