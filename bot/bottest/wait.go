package bottest

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// WaitTimeout is how long WaitFor waits before it fails the test.
const WaitTimeout = 15 * time.Second

// idleTimeout is how long Idle waits: a post waiting for a job to start in
// its thread waits up to 16s between looks.
const idleTimeout = 45 * time.Second

// WaitFor is the wait of end-to-end tests (redistest.Until is the one of
// the others): it re-checks cond on every change in the fake Slack and
// every 10ms (conditions on the API server change without Slack seeing it)
// until it holds, failing the test after WaitTimeout with the bots' logs.
func (h *Harness) WaitFor(what string, cond func() bool) {
	h.T.Helper()
	h.waitWithin(what, WaitTimeout, cond)
}

// waitWithin is WaitFor failing after d.
func (h *Harness) waitWithin(what string, d time.Duration, cond func() bool) {
	h.T.Helper()
	changes, unsubscribe := h.Slack.Changes()
	defer unsubscribe()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(d)
	for !cond() {
		select {
		case <-changes:
		case <-tick.C:
		case <-deadline:
			h.T.Fatalf("waiting for %s: not true after %s\nlogs:\n%s", what, d, h.Logs.String())
		}
	}
}

// Idle waits until the inbox is empty: every command, post and click taken
// and done, those waiting for a job to start in their thread too (the jobs
// may still run). Such a post waits up to 16s between looks, so Idle waits
// longer than WaitFor.
func (h *Harness) Idle() {
	h.T.Helper()
	st := h.OpenStore()
	h.waitWithin("an empty inbox", idleTimeout, func() bool {
		n, err := st.Inbox().Queued(context.Background())
		return err == nil && n == 0
	})
}

// WaitLogged waits until the bots have logged msg n times: positive proof
// that redelivered envelopes were seen and dropped.
func (h *Harness) WaitLogged(msg string, n int) {
	h.T.Helper()
	h.WaitFor(fmt.Sprintf("%d log lines %q", n, msg), func() bool {
		return strings.Count(h.Logs.String(), "msg=\""+msg+"\"") >= n
	})
}

// WaitForEphemeral waits until user was shown, privately (an ephemeral
// message, a response_url's answer), a text holding part, and returns that
// text.
func (h *Harness) WaitForEphemeral(user, part string) string {
	h.T.Helper()
	var text string
	h.WaitFor(fmt.Sprintf("%s told %q privately", user, part), func() bool {
		for _, m := range h.Slack.Ephemerals(user) {
			if strings.Contains(m.Text, part) {
				text = m.Text
				return true
			}
		}
		return false
	})
	return text
}
