// Package humanize writes numbers and waits the one way docsbot shows them
// to people, in Slack (the bot's features) and in a terminal (the command
// line): counts with a comma between groups of three digits, shares as
// percentages with one decimal, waits in whole seconds rounded up. It knows
// nothing of Slack, of the docs API or of a terminal.
package humanize

import (
	"strconv"
	"time"
)

// Count writes n with a comma between groups of three digits, such as
// 12,345: the one way docsbot shows a visitor count.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	b := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return sign + string(b)
}

// Percent is part as a percentage of whole with one decimal, such as
// "12.5%"; ok is false when whole is not positive.
func Percent(part, whole int64) (s string, ok bool) {
	if whole <= 0 {
		return "", false
	}
	return strconv.FormatFloat(100*float64(part)/float64(whole), 'f', 1, 64) + "%", true
}

// RoundUp rounds d up to whole seconds, for retry hints: a wait shown
// shorter than asked for would send the person back too early.
func RoundUp(d time.Duration) time.Duration {
	return (d + time.Second - 1).Truncate(time.Second)
}
