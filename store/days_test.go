package store_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

func day(tb testing.TB, s string) time.Time {
	tb.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func TestDayClosed(t *testing.T) {
	t.Parallel()
	today := day(t, "2026-11-22").Add(23 * time.Hour)
	cases := []struct {
		date   string
		closed bool
	}{
		{"2026-11-23", false},
		{"2026-11-22", false},
		{"2026-11-21", false},
		{"2026-11-20", true},
		{"2025-11-22", true},
	}
	for _, tc := range cases {
		if got := store.DayClosed(day(t, tc.date), today); got != tc.closed {
			t.Errorf("DayClosed(%s) on 2026-11-22 = %t, want %t", tc.date, got, tc.closed)
		}
	}
}

func TestDayCacheRoundTrip(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	today := day(t, "2026-11-22")
	var days []store.DayTotals
	for i := range 10 {
		if i == 4 || i == 5 {
			continue // not fetched: missing
		}
		d := today.AddDate(0, 0, i-9) // 2026-11-13 .. 2026-11-22
		days = append(days, store.DayTotals{Date: d.Add(7 * time.Hour), VisitorCounts: store.VisitorCounts{Human: int64(1000 + i), AI: int64(i), Total: int64(1000 + i)}})
	}
	if err := s.Analytics().SaveDays(ctx, "proj-a", days, today, time.Hour); err != nil {
		t.Fatalf("SaveDays: %v", err)
	}
	got, err := s.Analytics().LoadDays(ctx, "proj-a", day(t, "2026-11-13"), today)
	if err != nil {
		t.Fatalf("LoadDays: %v", err)
	}
	want := make([]store.DayTotals, len(days))
	for i, d := range days {
		want[i] = store.DayTotals{Date: d.Date.Truncate(24 * time.Hour), VisitorCounts: d.VisitorCounts}
	}
	if !reflect.DeepEqual(got.Found, want) {
		t.Errorf("found %+v\nwant %+v", got.Found, want)
	}
	if wantMissing := []time.Time{day(t, "2026-11-17"), day(t, "2026-11-18")}; !reflect.DeepEqual(got.Missing, wantMissing) {
		t.Errorf("missing %v, want %v", got.Missing, wantMissing)
	}

	// Closed days are kept long, the last two short.
	for _, tc := range []struct {
		date     string
		min, max time.Duration
	}{
		{"2026-11-20", store.ClosedDayKeep - time.Hour, store.ClosedDayKeep},
		{"2026-11-21", 59 * time.Minute, time.Hour},
		{"2026-11-22", 59 * time.Minute, time.Hour},
	} {
		if d := pttl(t, s.Prefix()+"day:{proj-a}:"+tc.date); d < tc.min || d > tc.max {
			t.Errorf("%s kept %v, want %v to %v", tc.date, d, tc.min, tc.max)
		}
	}

	// Another project sees none of it; a range of one day works.
	other, err := s.Analytics().LoadDays(ctx, "proj-b", today, today)
	if err != nil || len(other.Found) != 0 || len(other.Missing) != 1 {
		t.Errorf("another project: %+v, %v; want one day missing", other, err)
	}
}

// An entry that does not parse is reported missing, so that the day is
// fetched and saved again.
func TestDayCacheUnreadableEntryIsMissing(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	d := day(t, "2026-11-01")
	if err := rdb.Set(t.Context(), s.Prefix()+"day:{p}:2026-11-01", "12,x,3", time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	got, err := s.Analytics().LoadDays(t.Context(), "p", d, d)
	if err != nil || len(got.Found) != 0 || len(got.Missing) != 1 {
		t.Fatalf("LoadDays = %+v, %v; want the day missing", got, err)
	}
}

func TestDayCacheExpiry(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	today := day(t, "2026-11-22")
	if err := s.Analytics().SaveDays(t.Context(), "p", []store.DayTotals{{Date: today}}, today, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	redistest.Until(t, "today's entry to expire", func() bool {
		got, err := s.Analytics().LoadDays(t.Context(), "p", today, today)
		if err != nil {
			t.Fatal(err)
		}
		return len(got.Missing) == 1
	})
}

func TestDayCacheRejects(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	today := day(t, "2026-11-22")
	many := make([]store.DayTotals, store.MaxDaysPerCall+1)
	saves := map[string]error{
		"no project": s.Analytics().SaveDays(ctx, "", []store.DayTotals{{Date: today}}, today, time.Hour),
		"no keep":    s.Analytics().SaveDays(ctx, "p", []store.DayTotals{{Date: today}}, today, 0),
		"too many":   s.Analytics().SaveDays(ctx, "p", many, today, time.Hour),
	}
	_, backwards := s.Analytics().LoadDays(ctx, "p", today, today.AddDate(0, 0, -1))
	_, long := s.Analytics().LoadDays(ctx, "p", today.AddDate(0, 0, -store.MaxDaysPerCall), today)
	_, noProject := s.Analytics().LoadDays(ctx, "", today, today)
	saves["load backwards"], saves["load too long"], saves["load no project"] = backwards, long, noProject
	for name, err := range saves {
		if !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	if err := s.Analytics().SaveDays(ctx, "p", nil, today, time.Hour); err != nil {
		t.Errorf("saving no days: %v", err)
	}
}

// BenchmarkDayCache400 saves and reads back the 400 days of the longest
// chart, each in one round trip.
func BenchmarkDayCache400(b *testing.B) {
	s := newStore(b)
	today := day(b, "2026-11-22")
	days := make([]store.DayTotals, 400)
	for i := range days {
		days[i] = store.DayTotals{Date: today.AddDate(0, 0, i-399), VisitorCounts: store.VisitorCounts{Human: 12_345 + int64(i), AI: 2_345, Total: 13_579}}
	}
	b.Run("save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := s.Analytics().SaveDays(b.Context(), "bench", days, today, time.Hour); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			got, err := s.Analytics().LoadDays(b.Context(), "bench", days[0].Date, today)
			if err != nil || len(got.Found) != 400 {
				b.Fatalf("LoadDays: %d days, %v", len(got.Found), err)
			}
		}
	})
}

func TestRangeTotals(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	today := day(t, "2026-11-22")
	first, last := day(t, "2026-11-01"), day(t, "2026-11-07")
	if _, err := s.Analytics().LoadRangeTotals(ctx, "p", first, last); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("LoadRangeTotals before saving: %v, want ErrNotFound", err)
	}
	want := store.VisitorCounts{Human: 900, AI: 300, Total: 1100}
	if err := s.Analytics().SaveRangeTotals(ctx, "p", first, last, want, today, time.Hour); err != nil {
		t.Fatalf("SaveRangeTotals: %v", err)
	}
	got, err := s.Analytics().LoadRangeTotals(ctx, "p", first.Add(5*time.Hour), last)
	if err != nil || got != want {
		t.Fatalf("LoadRangeTotals = %+v, %v; want %+v", got, err, want)
	}
	// Another range or project shares nothing.
	if _, err := s.Analytics().LoadRangeTotals(ctx, "p", first, last.AddDate(0, 0, 1)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another range: %v, want ErrNotFound", err)
	}
	if _, err := s.Analytics().LoadRangeTotals(ctx, "q", first, last); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another project: %v, want ErrNotFound", err)
	}
	// A range reaching an open day lasts openKeep.
	if err := s.Analytics().SaveRangeTotals(ctx, "p", first, today, want, today, 20*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	redistest.Until(t, "the open range's totals to expire", func() bool {
		_, err := s.Analytics().LoadRangeTotals(ctx, "p", first, today)
		return errors.Is(err, store.ErrNotFound)
	})
	if err := s.Analytics().SaveRangeTotals(ctx, "", first, last, want, today, time.Hour); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("no project: %v, want ErrInvalid", err)
	}
}

func TestClosedExportMark(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	const key = "proj-a:2026-11-01:2026-11-08"
	if ok, err := s.Analytics().ClosedExport(ctx, key); err != nil || ok {
		t.Fatalf("ClosedExport before any mark = %t, %v; want false, nil", ok, err)
	}
	// The mark lasts long enough to be seen on a loaded machine, and expires
	// well within redistest.Timeout.
	if err := s.Analytics().MarkClosedExport(ctx, key, 2*time.Second); err != nil {
		t.Fatalf("MarkClosedExport: %v", err)
	}
	if ok, err := s.Analytics().ClosedExport(ctx, key); err != nil || !ok {
		t.Fatalf("ClosedExport after the mark = %t, %v; want true, nil", ok, err)
	}
	if ok, err := s.Analytics().ClosedExport(ctx, "proj-b:2026-11-01:2026-11-08"); err != nil || ok {
		t.Errorf("ClosedExport of another entry = %t, %v; want false, nil", ok, err)
	}
	redistest.Until(t, "the mark to expire", func() bool {
		ok, err := s.Analytics().ClosedExport(ctx, key)
		return err == nil && !ok
	})
	for _, tc := range []struct {
		key  string
		keep time.Duration
	}{{"", time.Hour}, {key, 0}} {
		if err := s.Analytics().MarkClosedExport(ctx, tc.key, tc.keep); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("MarkClosedExport(%q, %v) = %v, want ErrInvalid", tc.key, tc.keep, err)
		}
	}
	if _, err := s.Analytics().ClosedExport(ctx, ""); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("ClosedExport(\"\") = %v, want ErrInvalid", err)
	}
}
