package main

import (
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// How long work waited, as a person sees it: from a slash command to its
// first visible post, from a thread reply to its message reaching the agent.
// A rolling update must not show here (issue 40: at most 10 s, where a
// replica that left its work to expire made it wait a 30 s lease).

// waitGoal is the longest an acknowledged command or reply may wait, faults
// included.
const waitGoal = 10 * time.Second

// waits keeps when each follow-up reached the agent, by its text.
type waits struct {
	sent map[string]time.Time
}

// sentOn records that the message text reached the agent at at; the first
// arrival counts.
func (w *waits) sentOn(text string, at time.Time) {
	if w.sent == nil {
		w.sent = map[string]time.Time{}
	}
	if first, ok := w.sent[text]; !ok || at.Before(first) {
		w.sent[text] = at
	}
}

// replyWait is how long reply rp waited to reach the agent, 0 when it never
// did (counted elsewhere as told, given up or lost).
func (w *waits) replyWait(rp chaosReplyRec) time.Duration {
	at, ok := w.sent[chaosReply(rp.index)]
	if !ok {
		return 0
	}
	return max(at.Sub(rp.sentAfter), 0)
}

// firstPost is how long command c waited for its first visible post: the
// root message, or an earlier reply to its response URL (a "queued"
// notice counts: the person sees the command was taken).
func firstPost(sl *slacktest.Server, c chaosCommand, root slacktest.Message) time.Duration {
	first := tsTime(root.TS)
	ok := !first.IsZero()
	for _, p := range sl.ResponsePosts(c.trigger) {
		if p.Error == "" && (!ok || p.At.Before(first)) {
			first, ok = p.At, true
		}
	}
	if !ok {
		return 0
	}
	return max(first.Sub(c.sentAt), 0)
}

// firstPostRow and replyRow report the waits: a goal through rolling
// updates, where work is handed over; a figure where replicas are killed,
// whose work waits for its lease to end.
func (r *chaosResult) firstPostRow() row {
	return r.waitRow("slowest first post after a command", r.FirstPostMax)
}

func (r *chaosResult) replyRow() row {
	return r.waitRow("slowest follow-up to reach the agent", r.ReplyMax)
}

func (r *chaosResult) waitRow(what string, d time.Duration) row {
	if !r.Rolling {
		return fig(what, "%s (a killed replica's work waits for its lease)", ms(d))
	}
	return goal(what, ms(d), "≤ 10 s", d <= waitGoal)
}
