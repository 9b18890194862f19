package agent

import (
	"testing"
	"time"
)

func TestElapsedWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "under a minute"},
		{59 * time.Second, "under a minute"},
		{time.Minute, "1 minute"},
		{59*time.Minute + 59*time.Second, "59 minutes"},
		{time.Hour, "1 hour"},
		{2*time.Hour + 5*time.Minute + 30*time.Second, "2 hours 5 minutes"},
		{-time.Minute, "under a minute"}, // a replica's clock behind Redis's
	}
	for _, tt := range tests {
		if got := elapsedWords(tt.d); got != tt.want {
			t.Errorf("elapsedWords(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestProgressChanged(t *testing.T) {
	t.Parallel()
	var p progress
	now := time.Unix(1_800_000_000, 0)
	steps := []struct {
		id           string
		gen          int64
		elapsed      string
		round        int64
		after        time.Duration
		edit, status bool
	}{
		{"j1", 1, "1 min", 1, 0, true, true},                // first seen here
		{"j1", 1, "1 min", 1, time.Second, false, false},    // nothing moved
		{"j1", 1, "2 min", 1, time.Minute, true, false},     // the minute moved
		{"j1", 1, "2 min", 2, time.Second, false, true},     // the status round moved
		{"j1", 2, "2 min", 2, time.Second, true, true},      // a follow-up's run
		{"j1", 2, "2 min", 2, 11 * time.Minute, true, true}, // forgotten meanwhile
	}
	for i, st := range steps {
		now = now.Add(st.after)
		edit, status := p.changed(st.id, st.gen, st.elapsed, st.round, now)
		if edit != st.edit || status != st.status {
			t.Errorf("step %d: changed = %v, %v; want %v, %v", i, edit, status, st.edit, st.status)
		}
	}
}
