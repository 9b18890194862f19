package humanize

import (
	"fmt"
	"time"
)

// Duration says d in words, the one way docsbot words a length of time:
// "45 seconds", "1 minute", "10 minutes", "2 hours 5 minutes", "24 hours",
// "3 days". It rounds down: a cache kept "10 minutes" is never shown
// longer than it is kept. Minutes go with hours under 10 hours, where they
// still tell something; from two days on, days alone.
func Duration(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d < time.Minute:
		return count(int(d/time.Second), "second")
	case d < time.Hour:
		return count(int(d/time.Minute), "minute")
	case d < 48*time.Hour:
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		if m == 0 || h >= 10 {
			return count(h, "hour")
		}
		return count(h, "hour") + " " + count(m, "minute")
	}
	return count(int(d/(24*time.Hour)), "day")
}

// Ago says how long ago something was: "less than a minute ago", else
// Duration and "ago" ("3 minutes ago").
func Ago(d time.Duration) string {
	if d < time.Minute {
		return "less than a minute ago"
	}
	return Duration(d) + " ago"
}

// In says when to try again, d from now: "in 20 seconds (at 14:05 UTC)",
// "in about 3 minutes (at 14:07 UTC)"; "in a few minutes" when d is not
// known (zero or less).
func In(d time.Duration, now time.Time) string {
	if d <= 0 {
		return "in a few minutes"
	}
	at := now.Add(d).UTC().Format("15:04")
	if d < time.Minute {
		return fmt.Sprintf("in %s (at %s UTC)", Duration(RoundUp(d)), at)
	}
	return fmt.Sprintf("in about %s (at %s UTC)", Duration(d.Round(time.Minute)), at)
}

// count is n of unit, with the plural's s.
func count(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
