package ops

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
)

func TestRepeatFilter(t *testing.T) {
	var out bytes.Buffer
	f := NewRepeatFilter(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}), time.Minute)
	clock := slacktest.NewManualClock(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	f.now = clock.Now
	log := slog.New(f)
	down := errors.New("dial unix /tmp/redis.sock: connect: connection refused")

	steps := []struct {
		advance time.Duration
		log     func()
		want    string // the line written, "" for none
	}{
		{0, func() { log.Error("saving the job link failed", "err", down) }, "saving the job link failed"},
		{time.Second, func() { log.Error("saving the job link failed", "err", down) }, ""},
		{time.Second, func() { log.With("job", "j1").Error("saving the job link failed", "err", down) }, ""},
		{0, func() { log.Error("saving the job link failed", "err", errors.New("other")) }, "err=other"},
		{0, func() { log.Info("agent job started") }, "agent job started"},
		{0, func() { log.Info("agent job started") }, "agent job started"},
		{time.Minute, func() { log.Error("saving the job link failed", "err", down) }, `repeated="2 more times`},
		{time.Second, func() { log.Warn("saving the job link failed", "err", down) }, "level=WARN"},
	}
	for i, s := range steps {
		clock.Advance(s.advance)
		out.Reset()
		s.log()
		got := out.String()
		switch {
		case s.want == "" && got != "":
			t.Errorf("step %d: wrote %q, want nothing", i, got)
		case s.want != "" && !strings.Contains(got, s.want):
			t.Errorf("step %d: wrote %q, want a line with %q", i, got, s.want)
		}
	}
}

// TestRepeatFilterWritesTheAttrsAsGiven: loggers made With attributes and
// groups, in any order and depth, write through the filter (whose
// WithAttrs is lazy) the lines the handler alone writes.
func TestRepeatFilterWritesTheAttrsAsGiven(t *testing.T) {
	for _, tc := range []struct {
		name string
		log  func(*slog.Logger)
	}{
		{"none", func(l *slog.Logger) { l.Info("started", "job", "j1") }},
		{"attrs", func(l *slog.Logger) { l.With("work", "w1", "attempt", 2).Info("started", "job", "j1") }},
		{"chained", func(l *slog.Logger) {
			a := l.With("work", "w1")
			b := a.With("root", "1.5")
			a.Info("first")
			b.With("job", "j1").Warn("second", "err", "x")
			b.Info("third")
		}},
		{"groups", func(l *slog.Logger) {
			l.With("work", "w1").WithGroup("job").With("id", "j1").WithGroup("run").Error("failed", "err", "x", "n", 3)
		}},
		{"empty", func(l *slog.Logger) { l.With().WithGroup("").Info("plain") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var direct, filtered bytes.Buffer
			opts := &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
				if a.Key == slog.TimeKey {
					return slog.Attr{}
				}
				return a
			}}
			tc.log(slog.New(slog.NewTextHandler(&direct, opts)))
			tc.log(slog.New(NewRepeatFilter(slog.NewTextHandler(&filtered, opts), time.Minute)))
			if direct.String() != filtered.String() {
				t.Fatalf("through the filter:\n%s\nthe handler alone:\n%s", filtered.String(), direct.String())
			}
		})
	}
}
