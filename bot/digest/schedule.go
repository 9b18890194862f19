package digest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	// The zone database, so that a zone name works in a static image.
	_ "time/tzdata"
)

// DefaultTime is the schedule when DOCSBOT_DIGEST_TIME is empty.
const DefaultTime = "Mon 09:00 UTC"

// Frequency is how often a channel gets the digest.
type Frequency string

// The frequencies a channel can subscribe to.
const (
	Weekly Frequency = "weekly"
	Daily  Frequency = "daily"
)

// Schedule is when digests are due: weekly ones on Weekday at Hour:Minute
// in Location, daily ones every day at that time.
type Schedule struct {
	Weekday      time.Weekday
	Hour, Minute int
	Location     *time.Location
}

// ErrBadTime marks text that is not a digest time.
var ErrBadTime = errors.New(`not a digest time: want "[weekday] HH:MM [zone]", such as "Mon 09:00 Europe/Paris"`)

// Parse reads a schedule from text such as "Mon 09:00 UTC",
// "monday 9:00 Europe/Paris" or "09:00" (weekday Monday, zone UTC when left
// out). Empty text is DefaultTime.
func Parse(text string) (Schedule, error) {
	if strings.TrimSpace(text) == "" {
		text = DefaultTime
	}
	s := Schedule{Weekday: time.Monday, Location: time.UTC}
	words := strings.Fields(text)
	if len(words) > 0 {
		if wd, ok := parseWeekday(words[0]); ok {
			s.Weekday = wd
			words = words[1:]
		}
	}
	if len(words) == 0 || len(words) > 2 {
		return Schedule{}, fmt.Errorf("%q: %w", text, ErrBadTime)
	}
	h, m, ok := parseClock(words[0])
	if !ok {
		return Schedule{}, fmt.Errorf("%q: %q is not a time of day HH:MM: %w", text, words[0], ErrBadTime)
	}
	s.Hour, s.Minute = h, m
	if len(words) == 2 {
		// "Local" would be the server's zone, different on every machine.
		if strings.EqualFold(words[1], "local") {
			return Schedule{}, fmt.Errorf("%q: name the zone, such as Europe/Paris: %w", text, ErrBadTime)
		}
		loc, err := time.LoadLocation(words[1])
		if err != nil {
			return Schedule{}, fmt.Errorf("%q: unknown time zone %q: %w", text, words[1], errors.Join(ErrBadTime, err))
		}
		s.Location = loc
	}
	return s, nil
}

func parseWeekday(w string) (time.Weekday, bool) {
	for d := time.Sunday; d <= time.Saturday; d++ {
		name := d.String()
		if strings.EqualFold(w, name) || strings.EqualFold(w, name[:3]) {
			return d, true
		}
	}
	return 0, false
}

func parseClock(w string) (hour, minute int, ok bool) {
	hs, ms, found := strings.Cut(w, ":")
	if !found || len(hs) < 1 || len(hs) > 2 || len(ms) != 2 {
		return 0, 0, false
	}
	h, err1 := strconv.Atoi(hs)
	m, err2 := strconv.Atoi(ms)
	if err1 != nil || err2 != nil || h < 0 || h > 23 || m < 0 || m > 59 {
		return 0, 0, false
	}
	return h, m, true
}

// String writes s the way Parse reads it, such as "Mon 09:00 Europe/Paris".
func (s Schedule) String() string {
	return fmt.Sprintf("%s %02d:%02d %s", s.Weekday.String()[:3], s.Hour, s.Minute, s.loc())
}

func (s Schedule) loc() *time.Location {
	if s.Location == nil {
		return time.UTC
	}
	return s.Location
}

// Slot is one posting of a digest.
type Slot struct {
	// Due is when the posting is due.
	Due time.Time
	// Period names the posting: the ISO week of the due day for a weekly
	// digest ("2026-W48"), the due day for a daily one ("2026-11-23").
	Period string
	// First and Last are the UTC days the posting reports (midnights UTC,
	// both included): the whole days that ended before Due.
	First, Last time.Time
}

// Next is the first posting of frequency f due after now.
func (s Schedule) Next(f Frequency, now time.Time) Slot {
	var best time.Time
	for _, due := range s.dues(f, now) {
		if due.After(now) && (best.IsZero() || due.Before(best)) {
			best = due
		}
	}
	return s.slot(f, best)
}

// Latest is the last posting of frequency f due at or before now: the one
// a replica starting after the due time still owes, if not posted.
func (s Schedule) Latest(f Frequency, now time.Time) Slot {
	var best time.Time
	for _, due := range s.dues(f, now) {
		if !due.After(now) && due.After(best) {
			best = due
		}
	}
	return s.slot(f, best)
}

// dues lists the due times of f on the local days from eight days before
// now to eight days after, which hold the latest and the next.
func (s Schedule) dues(f Frequency, now time.Time) []time.Time {
	loc := s.loc()
	y, m, d := now.In(loc).Date()
	var out []time.Time
	for i := -8; i <= 8; i++ {
		day := time.Date(y, m, d+i, 12, 0, 0, 0, loc)
		if f != Daily && day.Weekday() != s.Weekday {
			continue
		}
		dy, dm, dd := day.Date()
		out = append(out, wallClock(dy, dm, dd, s.Hour, s.Minute, loc))
	}
	return out
}

// slot describes the posting of f due at due.
func (s Schedule) slot(f Frequency, due time.Time) Slot {
	local := due.In(s.loc())
	sl := Slot{Due: due}
	y, m, d := due.UTC().Date()
	sl.Last = time.Date(y, m, d-1, 0, 0, 0, 0, time.UTC)
	if f == Daily {
		sl.Period = local.Format(time.DateOnly)
		sl.First = sl.Last
	} else {
		wy, wn := local.ISOWeek()
		sl.Period = fmt.Sprintf("%04d-W%02d", wy, wn)
		sl.First = sl.Last.AddDate(0, 0, -6)
	}
	return sl
}

// wallClock is the first instant the clock in loc shows hour:minute on the
// given day. When the clock skips that time (moving forward), it is the
// instant of the jump; when it shows it twice (moving back), the first.
func wallClock(y int, m time.Month, d, hour, minute int, loc *time.Location) time.Time {
	t := time.Date(y, m, d, hour, minute, 0, 0, loc)
	want := time.Date(y, m, d, hour, minute, 0, 0, time.UTC)
	got := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), 0, 0, time.UTC)
	switch {
	case got.Before(want):
		// In a gap, t before the jump: the jump ends t's zone period.
		_, end := t.ZoneBounds()
		return end
	case got.After(want):
		// In a gap, t after the jump: the jump starts t's zone period.
		start, _ := t.ZoneBounds()
		return start
	}
	// Shown twice: an earlier instant with the same clock lies in the zone
	// period before t's.
	start, _ := t.ZoneBounds()
	if start.IsZero() {
		return t
	}
	_, offT := t.Zone()
	_, offPrev := start.Add(-time.Second).Zone()
	if offPrev > offT {
		if e := t.Add(-time.Duration(offPrev-offT) * time.Second); e.Before(start) {
			return e
		}
	}
	return t
}

// Window is how long after its due time a posting of f is still owed: a
// replica that starts (or a Redis that comes back) within it posts the
// digest late; after it, the posting is skipped and the next one waits.
func (f Frequency) Window() time.Duration {
	if f == Daily {
		return 6 * time.Hour
	}
	return 24 * time.Hour
}

// Keep is how long the record of a posting's claim must last
// (store.Digests.ClaimDigest's keep): past the posting's Window, so that no replica
// sees a posted run as never claimed, and shorter than two periods.
func (f Frequency) Keep() time.Duration {
	if f == Daily {
		return 24*time.Hour + f.Window()
	}
	return 7*24*time.Hour + f.Window()
}

// Owed returns the posting of f that is owed at now, if any: the latest one
// due, when it came due less than f.Window() ago. Whether it was posted
// already is the store's to say (store.Digests.ClaimDigest).
func (s Schedule) Owed(f Frequency, now time.Time) (Slot, bool) {
	sl := s.Latest(f, now)
	return sl, now.Sub(sl.Due) < f.Window()
}

// Text reads like "Mondays at 09:00 UTC" or "every day at 09:00
// Europe/Paris": when postings of f are due.
func (s Schedule) Text(f Frequency) string {
	at := fmt.Sprintf("%02d:%02d %s", s.Hour, s.Minute, s.Location)
	if f == Daily {
		return "every day at " + at
	}
	return s.Weekday.String() + "s at " + at
}

// NextText reads like "Mon Nov 10 at 09:00 UTC": when the next posting of f
// after now is due, in the schedule's zone.
func (s Schedule) NextText(f Frequency, now time.Time) string {
	return s.Next(f, now).Due.In(s.Location).Format("Mon Jan 2 at 15:04 MST")
}

// AnyOwed reports whether a posting of some frequency is owed at now, so
// that a digest loop reads its subscriptions only then.
func (s Schedule) AnyOwed(now time.Time) bool {
	for _, f := range []Frequency{Weekly, Daily} {
		if _, ok := s.Owed(f, now); ok {
			return true
		}
	}
	return false
}
