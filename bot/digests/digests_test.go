package digests_test

import (
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/digests"
)

// TestDigestLastTry: a posting handed back is skipped (and its subscriber
// told) when its next try, at the first tick after the wait, could come
// only once its window is over.
func TestDigestLastTry(t *testing.T) {
	t.Parallel()
	end := time.Date(2025, 11, 11, 9, 0, 0, 0, time.UTC)
	const tick = time.Minute
	for _, tc := range []struct {
		name string
		now  time.Time
		wait time.Duration
		want bool
	}{
		{"next tick well inside the window", end.Add(-time.Hour), 0, false},
		{"next tick just inside", end.Add(-tick - time.Second), 0, false},
		{"next tick at the end", end.Add(-tick), 0, true},
		{"next tick past the end", end.Add(-time.Second), 0, true},
		{"a wait inside the window", end.Add(-time.Hour), 10 * time.Minute, false},
		{"a wait whose tick may fall past the end", end.Add(-10*time.Minute - 30*time.Second), 10 * time.Minute, true},
		{"a wait past the end", end.Add(-5 * time.Minute), 10 * time.Minute, true},
		{"after the end", end.Add(time.Minute), 0, true},
	} {
		if got := digests.LastTry(end, tc.now, tc.wait, tick); got != tc.want {
			t.Errorf("%s: DigestLastTry(now %s, wait %v) = %t, want %t", tc.name, tc.now.Format(time.TimeOnly), tc.wait, got, tc.want)
		}
	}
}
