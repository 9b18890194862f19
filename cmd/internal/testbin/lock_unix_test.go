//go:build unix

package testbin

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestLockIsExclusive checks that a second lock of the file waits while the
// first is held (here: until its context ends) and is had once it is
// released.
func TestLockIsExclusive(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "build.lock")
	unlock, err := lock(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := lock(ctx, path); !errors.Is(err, context.Canceled) {
		t.Fatalf("second lock while the first is held: %v, want it to wait until its context ends", err)
	}
	unlock()
	again, err := lock(t.Context(), path)
	if err != nil {
		t.Fatalf("lock after the first was released: %v", err)
	}
	again()
}
