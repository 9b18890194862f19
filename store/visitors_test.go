package store_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// siteSnapshot returns a merged export of n realistic paths.
func siteSnapshot(n int) *store.VisitorsSnapshot {
	sections := []string{"guides", "api-reference/endpoint", "integrations", "components", "settings", "sdk/python", "sdk/typescript"}
	topics := []string{"getting-started", "authentication", "custom-domains", "webhooks", "versioning", "localization", "troubleshooting", "best-practices"}
	snap := &store.VisitorsSnapshot{Totals: store.VisitorCounts{Human: 812345, AI: 234567, Total: 998877}, Requests: (n + 249) / 250}
	snap.Pages = make([]store.VisitorPage, n)
	for i := range snap.Pages {
		h := int64(500000 / (i + 1))
		a := int64(150000/(i+1)) + int64(i%7)
		snap.Pages[i] = store.VisitorPage{
			Path:          fmt.Sprintf("/%s/%s-%d", sections[i%len(sections)], topics[(i/7)%len(topics)], i/56),
			VisitorCounts: store.VisitorCounts{Human: h, AI: a, Total: h + a - min(h, a)/3},
		}
	}
	return snap
}

func TestVisitorsCacheRoundTrip(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	cases := []struct {
		name string
		snap *store.VisitorsSnapshot
	}{
		{"empty site", &store.VisitorsSnapshot{Pages: []store.VisitorPage{}, Requests: 1}},
		{"odd paths", &store.VisitorsSnapshot{
			Totals: store.VisitorCounts{Human: 3, AI: 2, Total: 4},
			Pages: []store.VisitorPage{
				{Path: "", VisitorCounts: store.VisitorCounts{Human: 1}},
				{Path: "/dé/<!channel>&`x`", VisitorCounts: store.VisitorCounts{Human: 2, AI: 2, Total: 3}},
				{Path: "/big", VisitorCounts: store.VisitorCounts{Human: 1 << 40, AI: -1, Total: 1 << 41}},
			},
			Requests: 1,
		}},
		{"613 paths", siteSnapshot(613)},
	}
	for _, tc := range cases {
		key := "proj:" + tc.name
		if err := s.Analytics().SaveVisitors(ctx, key, tc.snap, time.Hour); err != nil {
			t.Fatalf("%s: save: %v", tc.name, err)
		}
		got, err := s.Analytics().LoadVisitors(ctx, key)
		if err != nil {
			t.Fatalf("%s: load: %v", tc.name, err)
		}
		if !reflect.DeepEqual(got.VisitorsSnapshot, tc.snap) {
			t.Errorf("%s: loaded %+v, want %+v", tc.name, got.VisitorsSnapshot, tc.snap)
		}
		if got.Age < 0 || got.Age > time.Minute {
			t.Errorf("%s: age %v of a snapshot just saved", tc.name, got.Age)
		}
		if d := pttl(t, s.Prefix()+"visitors:"+key); d <= 59*time.Minute || d > time.Hour {
			t.Errorf("%s: entry PTTL %v, want the hour it was kept for", tc.name, d)
		}
	}
	if _, err := s.Analytics().LoadVisitors(ctx, "proj:never"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("load of a missing entry: %v, want ErrNotFound", err)
	}
}

// A stale copy stays readable after its fresh period, with an age that tells
// the reader how old it is; it is gone after keep.
func TestVisitorsCacheAgeAndExpiry(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	snap := siteSnapshot(10)
	if err := s.Analytics().SaveVisitors(ctx, "aging", snap, time.Hour); err != nil {
		t.Fatal(err)
	}
	const fresh = 40 * time.Millisecond
	redistest.Until(t, "the entry to age past its fresh period", func() bool {
		got, err := s.Analytics().LoadVisitors(ctx, "aging")
		if err != nil {
			t.Fatal(err)
		}
		return got.Age >= fresh
	})
	// Saving again replaces the entry and resets its age: the new entry is
	// no older than the time since the save began, whereas the old one was
	// already fresh older than that. (Ages are whole milliseconds on the
	// Redis clock, hence the millisecond of slack.)
	saving := time.Now()
	if err := s.Analytics().SaveVisitors(ctx, "aging", snap, time.Hour); err != nil {
		t.Fatal(err)
	}
	got, err := s.Analytics().LoadVisitors(ctx, "aging")
	if err != nil {
		t.Fatal(err)
	}
	if limit := time.Since(saving) + time.Millisecond; got.Age > limit {
		t.Fatalf("after a new save the entry is %v old, more than the %v since the save began: its age was not reset", got.Age, limit)
	}

	if err := s.Analytics().SaveVisitors(ctx, "short", snap, 30*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	redistest.Until(t, "the entry to expire", func() bool {
		_, err := s.Analytics().LoadVisitors(ctx, "short")
		return errors.Is(err, store.ErrNotFound)
	})
	if err := s.Analytics().SaveVisitors(ctx, "bad", snap, 0); err == nil {
		t.Fatal("save with keep 0 succeeded")
	}
}

func TestDecodeVisitorsRejectsCorruptData(t *testing.T) {
	t.Parallel()
	good, err := store.EncodeVisitors(siteSnapshot(50))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]byte{
		"empty":     nil,
		"not gzip":  []byte("hello"),
		"truncated": good[:len(good)/2],
	}
	for name, data := range cases {
		if _, err := store.DecodeVisitors(data); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
	// Well-formed gzip around a broken entry.
	inner := map[string][]byte{
		"unknown format":     {2, 1, 0, 0, 0, 0},
		"page count too big": {1, 1, 0, 0, 0, 200, 1},
		"path cut short":     {1, 1, 0, 0, 0, 1, 10, 'a', 0, 0, 0},
		"counts cut short":   {1, 1, 0, 0, 0, 1, 1, 'a', 0},
		"trailing bytes":     {1, 1, 0, 0, 0, 0, 7},
	}
	for name, raw := range inner {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(raw)
		zw.Close()
		if _, err := store.DecodeVisitors(buf.Bytes()); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
}

func TestVisitorsEntrySize100k(t *testing.T) {
	t.Parallel()
	data, err := store.EncodeVisitors(siteSnapshot(100_000))
	if err != nil {
		t.Fatal(err)
	}
	// Redis takes values up to 512 MB; the entry must stay far below.
	if len(data) > 8<<20 {
		t.Fatalf("100,000 paths encode to %d bytes", len(data))
	}
	t.Logf("100,000 paths: %d bytes cached", len(data))
}

func BenchmarkVisitorsCodec100k(b *testing.B) {
	snap := siteSnapshot(100_000)
	data, err := store.EncodeVisitors(snap)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := store.EncodeVisitors(snap); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(data)), "entry-bytes")
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := store.DecodeVisitors(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
