package store

import (
	"context"
	"fmt"
	"time"
)

// A report is an analytics answer other than the visitors export (a docs
// health view of a project and a range), cached for every replica as its
// feature encoded it, with the Redis time it was saved at, by the same
// scripts as the visitors cache:
//
//	{p}report:<key>                      hash: a cached report (d) and when it was saved (at)

func (s *Store) reportKey(key string) string { return s.prefix + "report:" + key }

// CachedReport is a report read back from the cache, with its age on the
// Redis clock.
type CachedReport struct {
	Data []byte
	Age  time.Duration
}

// SaveReport caches data under key for keep, replacing what was there.
func (ac Analytics) SaveReport(ctx context.Context, key string, data []byte, keep time.Duration) error {
	s := ac.s
	if key == "" || keep < time.Millisecond {
		return fmt.Errorf("store: save report %q for %v: %w", key, keep, ErrInvalid)
	}
	if err := s.sc.saveVisitors.Run(ctx, s.rdb, []string{s.reportKey(key)}, data, millis(keep)).Err(); err != nil {
		return wrapErr(err, "store: save report %q", key)
	}
	return nil
}

// LoadReport returns the report cached under key and its age, or
// ErrNotFound when there is none.
func (ac Analytics) LoadReport(ctx context.Context, key string) (*CachedReport, error) {
	s := ac.s
	res, err := s.sc.loadVisitors.Run(ctx, s.rdb, []string{s.reportKey(key)}).Slice()
	if err != nil {
		return nil, wrapErr(err, "store: load report %q", key)
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("store: report %q: %w", key, ErrNotFound)
	}
	data, ok1 := res[0].(string)
	age, ok2 := res[1].(int64)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("store: load report %q: unexpected script reply", key)
	}
	return &CachedReport{Data: []byte(data), Age: time.Duration(age) * time.Millisecond}, nil
}
