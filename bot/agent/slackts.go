package agent

import (
	"strconv"
	"strings"
)

// A Slack message ts is "seconds.micros" ("1700000000.000100"): it names a
// message in its channel and orders the channel's messages. As strings they
// order only while they have the same width, so they are compared as
// numbers.

// tsBefore reports whether the message of Slack ts a was posted before the
// one of ts b; false when either is not a ts.
func tsBefore(a, b string) bool {
	as, au, okA := parseTS(a)
	bs, bu, okB := parseTS(b)
	if !okA || !okB {
		return false
	}
	return as < bs || as == bs && au < bu
}

// parseTS splits a Slack ts into its seconds and microseconds.
func parseTS(ts string) (sec, micro int64, ok bool) {
	s, frac, dot := strings.Cut(ts, ".")
	if !digits(s) || len(frac) > 6 || dot && !digits(frac) {
		return 0, 0, false
	}
	sec, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	if dot {
		micro, _ = strconv.ParseInt(frac+strings.Repeat("0", 6-len(frac)), 10, 64)
	}
	return sec, micro, true
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
