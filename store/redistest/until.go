package redistest

import (
	"testing"
	"time"
)

// Timeout is how long Until waits before it fails the test.
const Timeout = 10 * time.Second

// Until polls cond every few milliseconds until it holds, and fails the test
// with "timed out waiting for <what>" when it does not within Timeout: a
// test waits for a state another goroutine or process makes visible in Redis
// (or a server's state) this way, so that a loaded machine slows the test
// down but does not fail it.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
