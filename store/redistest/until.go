package redistest

import (
	"testing"
	"time"
)

// Timeout is how long Until waits before it fails the test: long enough for
// the slowest state a test waits for (a browser page drawn, a process
// serving), since only a failing test waits it out.
const Timeout = 20 * time.Second

// Until is the wait of every test but the end-to-end ones (those wait with
// bottest.Harness.WaitFor, which wakes on the fake Slack's changes): it
// polls cond every few milliseconds until it holds, and fails the test
// with "timed out waiting for <what>" when it does not within Timeout. A
// test waits for a state another goroutine or process makes visible in
// Redis, a test server or a fake this way, never by sleeping, so that a
// loaded machine slows the test down but does not fail it. It needs nothing
// of Redis: tests of packages that do not use Redis wait with it too.
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
