package main

import (
	"io"
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

// TestChaosModeDefaults checks the defaults that depend on the mode: the
// rolling mode's are those of the run reported in issue 25 (a command every
// 400 ms, 150 results, no posting limit).
func TestChaosModeDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args             []string
		commands         int
		rate, postRate   float64
		wantErr, rolling bool
	}{
		{args: nil, commands: 120, rate: 2, postRate: 1},
		{args: []string{"--rolling"}, commands: 150, rate: 2.5, postRate: 0, rolling: true},
		{args: []string{"--rolling", "--post-rate", "1", "--commands", "30"}, commands: 30, rate: 2.5, postRate: 1, rolling: true},
		{args: []string{"--post-rate", "0", "--rate", "3"}, commands: 120, rate: 3, postRate: 0},
		{args: []string{"--post-rate", "-1"}, wantErr: true},
	}
	for _, tt := range tests {
		var o chaosOptions
		_, err := parseFlags("chaos", tt.args, io.Discard, o.register)
		if tt.wantErr {
			if err == nil {
				t.Errorf("%q: no error", tt.args)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		o = o.withDefaults()
		if o.commands != tt.commands || o.rate != tt.rate || o.postRate != tt.postRate || o.rolling != tt.rolling || o.runs != 1 {
			t.Errorf("%q: commands %d, rate %v, post rate %v, rolling %t, runs %d; want %d, %v, %v, %t, 1",
				tt.args, o.commands, o.rate, o.postRate, o.rolling, o.runs, tt.commands, tt.rate, tt.postRate, tt.rolling)
		}
	}
}
