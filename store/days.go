package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// DayTotals is the site-wide unique visitors of one day, as the day cache
// keeps it.
type DayTotals struct {
	// Date is the day: its UTC calendar date counts, the time of day is
	// ignored.
	Date time.Time
	VisitorCounts
}

// CachedDays is what the day cache holds of a range of days.
type CachedDays struct {
	// Found are the days cached, in date order.
	Found []DayTotals
	// Missing are the days of the range not cached (never saved, or
	// expired), as midnights UTC in date order.
	Missing []time.Time
}

const (
	// OpenDays is the number of latest days, today included, whose counts
	// may still change: the docs API counts today as it goes, and
	// yesterday's late visits arrive for a while. Older days are closed.
	OpenDays = 2
	// ClosedDayKeep is how long the day cache keeps a closed day: about as
	// long as the analytics keep the day at all.
	ClosedDayKeep = 400 * 24 * time.Hour
	// MaxDaysPerCall bounds the days one SaveDays or LoadDays handles.
	MaxDaysPerCall = 1000
)

// DayClosed reports whether date no longer changes when today is today
// (both as UTC dates): it is older than the OpenDays latest days.
func DayClosed(date, today time.Time) bool {
	return !utcDay(date).After(utcDay(today).AddDate(0, 0, -OpenDays))
}

// utcDay is midnight UTC of t's UTC calendar date.
func utcDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// dayKey is the key of a cached day, a string "human,ai,total":
// {p}day:{<project>}:<YYYY-MM-DD>, the braces a hash tag, so that a project's
// days share a Cluster slot and one MGET reads a range.
func (s *Store) dayKey(project string, date time.Time) string {
	return s.prefix + "day:{" + project + "}:" + utcDay(date).Format(time.DateOnly)
}

// SaveDays caches the daily totals of project in one round trip: a closed
// day (DayClosed, decided with today) for ClosedDayKeep, a day still open
// for openKeep (such as the visitors cache's freshness), replacing what was
// cached.
func (ac Analytics) SaveDays(ctx context.Context, project string, days []DayTotals, today time.Time, openKeep time.Duration) error {
	s := ac.s
	switch {
	case project == "":
		return fmt.Errorf("store: save days: no project: %w", ErrInvalid)
	case openKeep < time.Millisecond:
		return fmt.Errorf("store: save days: keep %v of open days must be at least 1ms: %w", openKeep, ErrInvalid)
	case len(days) > MaxDaysPerCall:
		return fmt.Errorf("store: save days: %d days at once, at most %d: %w", len(days), MaxDaysPerCall, ErrInvalid)
	case len(days) == 0:
		return nil
	}
	_, err := s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, d := range days {
			keep := openKeep
			if DayClosed(d.Date, today) {
				keep = ClosedDayKeep
			}
			p.Set(ctx, s.dayKey(project, d.Date), encodeDay(d.VisitorCounts), keep)
		}
		return nil
	})
	if err != nil {
		return wrapErr(err, "store: save %d days of %q", len(days), project)
	}
	return nil
}

// LoadDays reads the cached daily totals of project from first to last
// (UTC dates, both included) in one round trip, and lists the days missing.
// An entry that does not parse counts as missing, so that saving the day
// again repairs it.
func (ac Analytics) LoadDays(ctx context.Context, project string, first, last time.Time) (*CachedDays, error) {
	s := ac.s
	first, last = utcDay(first), utcDay(last)
	n := int(last.Sub(first)/(24*time.Hour)) + 1
	switch {
	case project == "":
		return nil, fmt.Errorf("store: load days: no project: %w", ErrInvalid)
	case n < 1:
		return nil, fmt.Errorf("store: load days: range ends %s before it starts %s: %w", last.Format(time.DateOnly), first.Format(time.DateOnly), ErrInvalid)
	case n > MaxDaysPerCall:
		return nil, fmt.Errorf("store: load days: %d days at once, at most %d: %w", n, MaxDaysPerCall, ErrInvalid)
	}
	keys := make([]string, n)
	for i := range keys {
		keys[i] = s.dayKey(project, first.AddDate(0, 0, i))
	}
	vals, err := s.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, wrapErr(err, "store: load days of %q", project)
	}
	out := &CachedDays{Found: make([]DayTotals, 0, n)}
	for i, v := range vals {
		date := first.AddDate(0, 0, i)
		str, ok := v.(string)
		if !ok {
			out.Missing = append(out.Missing, date)
			continue
		}
		c, err := decodeDay(str)
		if err != nil {
			out.Missing = append(out.Missing, date)
			continue
		}
		out.Found = append(out.Found, DayTotals{Date: date, VisitorCounts: c})
	}
	return out, nil
}

func encodeDay(c VisitorCounts) string {
	b := make([]byte, 0, 32)
	b = strconv.AppendInt(b, c.Human, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, c.AI, 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, c.Total, 10)
	return string(b)
}

var errBadDay = errors.New("not human,ai,total")

func decodeDay(s string) (VisitorCounts, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return VisitorCounts{}, errBadDay
	}
	var n [3]int64
	for i, p := range parts {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return VisitorCounts{}, errBadDay
		}
		n[i] = v
	}
	return VisitorCounts{Human: n[0], AI: n[1], Total: n[2]}, nil
}

// rangeTotalsKey is the key of a range's cached unique totals:
// {p}days:{project}:{first}..{last}, a string "human,ai,total".
func (s *Store) rangeTotalsKey(project string, first, last time.Time) string {
	return s.prefix + "days:" + project + ":" + utcDay(first).Format(time.DateOnly) + ".." + utcDay(last).Format(time.DateOnly)
}

// SaveRangeTotals caches the unique visitors of the whole range first..last
// (UTC dates, both included; not the sum of its days): for ClosedDayKeep when
// every day of it is closed (DayClosed with today), else for openKeep.
func (ac Analytics) SaveRangeTotals(ctx context.Context, project string, first, last time.Time, c VisitorCounts, today time.Time, openKeep time.Duration) error {
	s := ac.s
	switch {
	case project == "":
		return fmt.Errorf("store: save range totals: no project: %w", ErrInvalid)
	case openKeep < time.Millisecond:
		return fmt.Errorf("store: save range totals: keep %v of open days must be at least 1ms: %w", openKeep, ErrInvalid)
	}
	keep := openKeep
	if DayClosed(last, today) {
		keep = ClosedDayKeep
	}
	if err := s.rdb.Set(ctx, s.rangeTotalsKey(project, first, last), encodeDay(c), keep).Err(); err != nil {
		return wrapErr(err, "store: save range totals of %q", project)
	}
	return nil
}

// LoadRangeTotals reads the cached unique visitors of the range first..last,
// or ErrNotFound.
func (ac Analytics) LoadRangeTotals(ctx context.Context, project string, first, last time.Time) (VisitorCounts, error) {
	s := ac.s
	if project == "" {
		return VisitorCounts{}, fmt.Errorf("store: load range totals: no project: %w", ErrInvalid)
	}
	v, err := s.rdb.Get(ctx, s.rangeTotalsKey(project, first, last)).Result()
	if errors.Is(err, redis.Nil) {
		return VisitorCounts{}, fmt.Errorf("store: range totals of %q: %w", project, ErrNotFound)
	}
	if err != nil {
		return VisitorCounts{}, wrapErr(err, "store: load range totals of %q", project)
	}
	c, err := decodeDay(v)
	if err != nil {
		return VisitorCounts{}, fmt.Errorf("store: range totals of %q: %w", project, ErrNotFound)
	}
	return c, nil
}

// closedExportKey is the marker of a visitors cache entry (SaveVisitors)
// fetched when every day of its range was closed: {p}closed:<key>.
func (s *Store) closedExportKey(key string) string { return s.prefix + "closed:" + key }

// MarkClosedExport records, for keep, that the visitors cache entry key was
// fetched when every day of its range was already closed (DayClosed): its
// numbers no longer change, so it stays good past the cache's freshness. Mark
// only after the entry is saved, and only an entry fetched once its range
// was closed: a copy fetched while a day was open must not be taken as final
// when the day closes later.
func (ac Analytics) MarkClosedExport(ctx context.Context, key string, keep time.Duration) error {
	s := ac.s
	switch {
	case key == "":
		return fmt.Errorf("store: mark closed export: no key: %w", ErrInvalid)
	case keep < time.Millisecond:
		return fmt.Errorf("store: mark closed export: keep %v must be at least 1ms: %w", keep, ErrInvalid)
	}
	if err := s.rdb.Set(ctx, s.closedExportKey(key), "1", keep).Err(); err != nil {
		return wrapErr(err, "store: mark closed export %q", key)
	}
	return nil
}

// ClosedExport reports whether the visitors cache entry key was marked by
// MarkClosedExport (and the mark has not expired).
func (ac Analytics) ClosedExport(ctx context.Context, key string) (bool, error) {
	s := ac.s
	if key == "" {
		return false, fmt.Errorf("store: closed export: no key: %w", ErrInvalid)
	}
	n, err := s.rdb.Exists(ctx, s.closedExportKey(key)).Result()
	if err != nil {
		return false, wrapErr(err, "store: closed export %q", key)
	}
	return n == 1, nil
}
