package sandbox

import (
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/digest"
)

// TestDigestSchedule: the sandbox's digests come due on the first minute at
// least sandboxDigestDelay after it starts, in UTC, daily and weekly alike.
func TestDigestSchedule(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		now, due time.Time
	}{
		{"on the minute", time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), time.Date(2026, 11, 23, 12, 2, 0, 0, time.UTC)},
		{"within a minute", time.Date(2026, 11, 23, 12, 0, 30, 0, time.UTC), time.Date(2026, 11, 23, 12, 3, 0, 0, time.UTC)},
		{"over midnight", time.Date(2026, 11, 22, 23, 59, 10, 0, time.UTC), time.Date(2026, 11, 23, 0, 2, 0, 0, time.UTC)},
		{"another zone", time.Date(2026, 11, 23, 13, 0, 0, 0, paris), time.Date(2026, 11, 23, 12, 2, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := digestSchedule(tt.now)
			for _, f := range []digest.Frequency{digest.Daily, digest.Weekly} {
				if got := s.Next(f, tt.now).Due; !got.Equal(tt.due) {
					t.Errorf("the next %s digest is due %v, want %v", f, got, tt.due)
				}
			}
		})
	}
}
