package visitors

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// TestDigestWait: a digest handed back waits for what refused it: the
// analytics budget's free time or the docs API's Retry-After, however
// wrapped; anything else is tried at the next tick.
func TestDigestWait(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want time.Duration
	}{
		{"budget", fmt.Errorf("export: %w", &budgetError{Need: 3, Grant: store.Grant{RetryAfter: 90 * time.Second}}), 90 * time.Second},
		{"budget with no time", &budgetError{Need: 3, Grant: store.Grant{RetryAfter: -time.Second}}, 0},
		{"rate limited", fmt.Errorf("page 2: %w", &docsapi.APIError{StatusCode: 429, RetryAfter: 30 * time.Second}), 30 * time.Second},
		{"server error", &docsapi.APIError{StatusCode: 503}, 0},
		{"other", errors.New("connection reset"), 0},
	} {
		if got := digestWait(tc.err); got != tc.want {
			t.Errorf("%s: wait %v, want %v", tc.name, got, tc.want)
		}
	}
}
