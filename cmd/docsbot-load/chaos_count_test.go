package main

import (
	"testing"

	"github.com/docsbot/docsbot/bot/slacktest"
)

func TestReplyOutcome(t *testing.T) {
	t.Parallel()
	acked := slacktest.EventFate{Acked: true, Attempt: 1}
	lastLost := slacktest.EventFate{Attempt: 3, GaveUp: true, LastLost: true}
	lastHeld := slacktest.EventFate{Attempt: 3, GaveUp: true}
	pending := slacktest.EventFate{Attempt: 2}
	tests := []struct {
		name string
		sent int
		told bool
		fate slacktest.EventFate
		want string
	}{
		{"sent once", 1, false, acked, replyDone},
		{"sent twice", 2, false, acked, replyDoubled},
		{"acked, not sent, told", 0, true, acked, replyTold},
		{"last try told though unacked", 0, true, lastHeld, replyTold},
		{"acked, not sent, nobody told", 0, false, acked, replyLost},
		{"never acked, the last try's replica died", 0, false, lastLost, replyGivenUp},
		{"never acked, the last try's replica stayed connected", 0, false, lastHeld, replyLost},
		{"never acked, Slack still sending", 0, false, pending, replyLost},
		{"unknown to Slack", 0, false, slacktest.EventFate{}, replyLost},
		// A lost last try with an ack is not Slack's: the ack made it docsbot's.
		{"acked and the last try's connection closed", 0, false, slacktest.EventFate{Acked: true, Attempt: 3, GaveUp: true, LastLost: true}, replyLost},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := replyOutcome(tc.sent, tc.told, tc.fate); got != tc.want {
				t.Errorf("replyOutcome(%d, %t, %+v) = %q, want %q", tc.sent, tc.told, tc.fate, got, tc.want)
			}
		})
	}
}
