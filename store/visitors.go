package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"
)

// VisitorCounts holds unique-visitor counts. Total is deduplicated across
// human and AI traffic: it is not Human+AI.
type VisitorCounts struct {
	Human, AI, Total int64
}

// VisitorPage is the unique-visitor counts of one page path.
type VisitorPage struct {
	Path string
	VisitorCounts
}

// VisitorsSnapshot is the whole visitors export of one date range, merged
// from all its pages, as the cache keeps it.
type VisitorsSnapshot struct {
	// Totals are the site-wide unique visitors.
	Totals VisitorCounts
	// Pages are the per-path counts in the order the service sent them.
	Pages []VisitorPage
	// Requests is the number of requests the export took.
	Requests int
}

// CachedVisitors is a snapshot read back from the cache, with its age on the
// Redis clock.
type CachedVisitors struct {
	*VisitorsSnapshot
	// Age is how long ago the snapshot was saved.
	Age time.Duration
}

// luaSaveVisitors: KEYS entry; ARGV data, keep ms. Saves the data with the
// Redis time it was saved at.
const luaSaveVisitors = luaNow + `
local now = now_ms()
redis.call('HSET', KEYS[1], 'd', ARGV[1], 'at', now)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 0
`

// luaLoadVisitors: KEYS entry. Returns {} or {data, age ms}.
const luaLoadVisitors = luaNow + `
local f = redis.call('HMGET', KEYS[1], 'd', 'at')
if not f[1] or not f[2] then return {} end
local now = now_ms()
return {f[1], math.max(now - tonumber(f[2]), 0)}
`

// visitorsKey is the key of a cache entry: {p}visitors:{key}, a hash with the
// encoded snapshot (d) and the unix ms it was saved at (at).
func (s *Store) visitorsKey(key string) string { return s.prefix + "visitors:" + key }

// SaveVisitors caches snap under key (any string, such as a project and a
// date range) for keep, replacing what was there. Readers decide from the
// entry's age whether it is fresh; keep is how long it stays usable at all.
func (ac Analytics) SaveVisitors(ctx context.Context, key string, snap *VisitorsSnapshot, keep time.Duration) error {
	s := ac.s
	if keep < time.Millisecond {
		return fmt.Errorf("store: save visitors %q: keep %v must be at least 1ms", key, keep)
	}
	data, err := EncodeVisitors(snap)
	if err != nil {
		return wrapErr(err, "store: save visitors %q", key)
	}
	if err := s.sc.saveVisitors.Run(ctx, s.rdb, []string{s.visitorsKey(key)}, data, millis(keep)).Err(); err != nil {
		return wrapErr(err, "store: save visitors %q", key)
	}
	return nil
}

// LoadVisitors returns the snapshot cached under key and its age, or
// ErrNotFound when there is none (never saved, or expired).
func (ac Analytics) LoadVisitors(ctx context.Context, key string) (*CachedVisitors, error) {
	s := ac.s
	res, err := s.sc.loadVisitors.Run(ctx, s.rdb, []string{s.visitorsKey(key)}).Slice()
	if err != nil {
		return nil, wrapErr(err, "store: load visitors %q", key)
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("store: visitors %q: %w", key, ErrNotFound)
	}
	data, ok1 := res[0].(string)
	age, ok2 := res[1].(int64)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("store: load visitors %q: unexpected script reply", key)
	}
	snap, err := DecodeVisitors([]byte(data))
	if err != nil {
		return nil, wrapErr(err, "store: load visitors %q", key)
	}
	return &CachedVisitors{VisitorsSnapshot: snap, Age: time.Duration(age) * time.Millisecond}, nil
}

// visitorsFormat is the first byte of an encoded snapshot, so that a later
// format can tell old entries apart.
const visitorsFormat = 1

// maxVisitorsRaw bounds the decompressed size of a snapshot (about ten
// million paths), so a corrupt entry cannot exhaust memory.
const maxVisitorsRaw = 1 << 30

// EncodeVisitors writes snap compactly: a format byte, the request count,
// the totals and then each page as its path (length and bytes) and counts, all
// numbers as varints, the whole gzip-compressed. 100,000 paths take about
// 1 MB.
func EncodeVisitors(snap *VisitorsSnapshot) ([]byte, error) {
	if snap == nil {
		return nil, errors.New("encode visitors: nil snapshot")
	}
	raw := make([]byte, 0, 32+len(snap.Pages)*40)
	raw = append(raw, visitorsFormat)
	raw = binary.AppendUvarint(raw, uint64(max(snap.Requests, 0)))
	raw = appendCounts(raw, snap.Totals)
	raw = binary.AppendUvarint(raw, uint64(len(snap.Pages)))
	for _, p := range snap.Pages {
		raw = binary.AppendUvarint(raw, uint64(len(p.Path)))
		raw = append(raw, p.Path...)
		raw = appendCounts(raw, p.VisitorCounts)
	}
	var out bytes.Buffer
	out.Grow(len(raw) / 3)
	zw, err := gzip.NewWriterLevel(&out, gzip.BestSpeed)
	if err != nil {
		return nil, wrapErr(err, "encode visitors")
	}
	if _, err := zw.Write(raw); err != nil {
		return nil, wrapErr(err, "encode visitors")
	}
	if err := zw.Close(); err != nil {
		return nil, wrapErr(err, "encode visitors")
	}
	return out.Bytes(), nil
}

func appendCounts(b []byte, c VisitorCounts) []byte {
	b = binary.AppendVarint(b, c.Human)
	b = binary.AppendVarint(b, c.AI)
	return binary.AppendVarint(b, c.Total)
}

// DecodeVisitors reads what EncodeVisitors wrote.
func DecodeVisitors(data []byte) (*VisitorsSnapshot, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, wrapErr(err, "decode visitors")
	}
	raw, err := io.ReadAll(io.LimitReader(zr, maxVisitorsRaw+1))
	if err != nil {
		return nil, wrapErr(err, "decode visitors")
	}
	if len(raw) > maxVisitorsRaw {
		return nil, errors.New("decode visitors: entry too large")
	}
	// Paths are cut from one string holding the whole entry: one allocation
	// instead of one per path.
	d := snapDecoder{b: raw, all: string(raw)}
	if f := d.byte(); f != visitorsFormat {
		return nil, fmt.Errorf("decode visitors: unknown format %d", f)
	}
	snap := &VisitorsSnapshot{Requests: int(d.uvarint())}
	snap.Totals = d.counts()
	n := d.uvarint()
	// Each page takes at least 4 bytes, which bounds a corrupt count.
	if n > uint64(len(raw))/4 {
		return nil, errors.New("decode visitors: corrupt page count")
	}
	snap.Pages = make([]VisitorPage, n)
	for i := range snap.Pages {
		l := d.uvarint()
		snap.Pages[i] = VisitorPage{Path: d.str(l), VisitorCounts: d.counts()}
	}
	if d.err != nil {
		return nil, wrapErr(d.err, "decode visitors")
	}
	if len(d.b) != 0 {
		return nil, errors.New("decode visitors: trailing bytes")
	}
	return snap, nil
}

// snapDecoder reads varints and strings, remembering the first error. all is
// the whole input as a string; b is what is left of it.
type snapDecoder struct {
	b   []byte
	all string
	err error
}

var errSnapTruncated = errors.New("truncated entry")

func (d *snapDecoder) byte() byte {
	if d.err != nil || len(d.b) == 0 {
		d.err = errSnapTruncated
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *snapDecoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errSnapTruncated
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *snapDecoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errSnapTruncated
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *snapDecoder) counts() VisitorCounts {
	return VisitorCounts{Human: d.varint(), AI: d.varint(), Total: d.varint()}
}

func (d *snapDecoder) str(n uint64) string {
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.b)) {
		d.err = errSnapTruncated
		return ""
	}
	at := len(d.all) - len(d.b)
	d.b = d.b[n:]
	return d.all[at : at+int(n)]
}
