package bot

import (
	"fmt"
	"testing"

	"github.com/docsbot/docsbot/store"
)

func TestRetryGivesUpOnlyOnWhatRetryingCannotChange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		err       error
		permanent bool
	}{
		{"conflict", fmt.Errorf("link: %w", store.ErrConflict), true},
		{"not found", fmt.Errorf("job: %w", store.ErrNotFound), true},
		{"invalid call", fmt.Errorf("link: %w", store.ErrInvalid), true},
		{"no permission", fmt.Errorf("link: %w", store.ErrNoPerm), true},
		{"out of memory", fmt.Errorf("link: %w", store.ErrFull), true},
		{"unreachable", fmt.Errorf("link: %w", store.ErrUnreachable), false},
		{"read-only during a failover", fmt.Errorf("link: %w", store.ErrReadOnly), false},
		{"loading", fmt.Errorf("link: %w", store.ErrLoading), false},
	}
	for _, tt := range tests {
		if got := permanentStoreError(tt.err); got != tt.permanent {
			t.Errorf("%s: permanent = %v, want %v", tt.name, got, tt.permanent)
		}
	}
}
