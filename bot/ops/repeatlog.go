package ops

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// RepeatFilter is a slog.Handler that lets the first record of each kind
// through and holds back the same record repeated within an interval; the
// next one let through after the interval carries "repeated", the number
// held back. A kind is the level, the message and the error's text, so an
// outage of Redis logs a line per interval and problem, not per attempt.
// Records below warning level always pass.
//
// WithAttrs is lazy: the attributes are handed to next the first time a
// record is handled, not when a logger is made With them. Most loggers made
// for a piece of work log nothing or a line, and a text or JSON handler
// formats its attributes as it is given them (BENCHMARKS.md, "Frames read
// once").
type RepeatFilter struct {
	next     slog.Handler
	interval time.Duration
	now      func() time.Time
	state    *repeatState
	// attrs are not yet given to next; withAttrs is next with them, made
	// once.
	attrs     []slog.Attr
	once      sync.Once
	withAttrs slog.Handler
}

type repeatState struct {
	mu   sync.Mutex
	seen map[string]*repeatCount
}

type repeatCount struct {
	last time.Time // when a record of this kind was last let through
	held int       // records held back since
}

// NewRepeatFilter wraps next; interval is how long identical warnings and
// errors are held back after one went through.
func NewRepeatFilter(next slog.Handler, interval time.Duration) *RepeatFilter {
	return &RepeatFilter{next: next, interval: interval, now: time.Now,
		state: &repeatState{seen: map[string]*repeatCount{}}}
}

// Enabled reports whether next handles level.
func (f *RepeatFilter) Enabled(ctx context.Context, level slog.Level) bool {
	return f.next.Enabled(ctx, level)
}

// handler is next with the attributes given to WithAttrs.
func (f *RepeatFilter) handler() slog.Handler {
	if len(f.attrs) == 0 {
		return f.next
	}
	f.once.Do(func() { f.withAttrs = f.next.WithAttrs(f.attrs) })
	return f.withAttrs
}

// Handle passes r on unless an identical record went through within the
// interval.
func (f *RepeatFilter) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn {
		return f.handler().Handle(ctx, r)
	}
	key := r.Level.String() + "\x00" + r.Message
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "err" {
			key += "\x00" + a.Value.String()
		}
		return true
	})
	now := f.now()
	f.state.mu.Lock()
	c := f.state.seen[key]
	if c != nil && now.Sub(c.last) < f.interval {
		c.held++
		f.state.mu.Unlock()
		return nil
	}
	held := 0
	if c != nil {
		held = c.held
	}
	f.state.seen[key] = &repeatCount{last: now}
	if len(f.state.seen) > 1000 { // forget kinds not seen for a while
		for k, v := range f.state.seen {
			if now.Sub(v.last) > f.interval {
				delete(f.state.seen, k)
			}
		}
	}
	f.state.mu.Unlock()
	if held > 0 {
		r = r.Clone()
		r.AddAttrs(slog.String("repeated", strconv.Itoa(held)+" more times since the last such line"))
	}
	return f.handler().Handle(ctx, r)
}

// WithAttrs returns a filter over next.WithAttrs, made when first needed,
// sharing this one's counts.
func (f *RepeatFilter) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return f
	}
	all := make([]slog.Attr, 0, len(f.attrs)+len(attrs))
	all = append(append(all, f.attrs...), attrs...)
	return &RepeatFilter{next: f.next, attrs: all, interval: f.interval, now: f.now, state: f.state}
}

// WithGroup returns a filter over next.WithGroup sharing this one's counts;
// the attributes before it are given to next first.
func (f *RepeatFilter) WithGroup(name string) slog.Handler {
	return &RepeatFilter{next: f.handler().WithGroup(name), interval: f.interval, now: f.now, state: f.state}
}
