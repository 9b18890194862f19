package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// TestAckFiguresWithFewAcks checks the acks report is written, as JSON too,
// whatever the number of acks: with one ack the ack rate used to be 0/0
// (NaN), with none -Inf, and --json failed with "unsupported value".
func TestAckFiguresWithFewAcks(t *testing.T) {
	t.Parallel()
	t0 := time.Now()
	sent := []time.Time{t0, t0.Add(time.Second), t0.Add(2 * time.Second)}
	ack := func(after time.Duration) *slacktest.Ack {
		return &slacktest.Ack{Latency: time.Millisecond, At: t0.Add(after + time.Millisecond)}
	}
	tests := []struct {
		name  string
		acks  []*slacktest.Ack
		acked int
		rate  float64
	}{
		{"no ack", []*slacktest.Ack{nil, nil, nil}, 0, 0},
		{"one ack", []*slacktest.Ack{ack(0), nil, nil}, 1, 0},
		{"two acks at one instant", []*slacktest.Ack{ack(0), ack(0), nil}, 2, 0},
		{"three acks over two seconds", []*slacktest.Ack{ack(0), ack(time.Second), ack(2 * time.Second)}, 3, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := &acksResult{Scenario: "acks", Commands: len(sent)}
			res.ackFigures(sent, sent[len(sent)-1], tc.acks, map[int]time.Time{})
			if res.Acked != tc.acked || res.AckedRate != tc.rate || res.SentRate != 1 {
				t.Errorf("acked %d at %v/s, sent at %v/s; want %d at %v/s, sent at 1/s", res.Acked, res.AckedRate, res.SentRate, tc.acked, tc.rate)
			}
			var out bytes.Buffer
			if err := (&commonFlags{json: true}).emit(&out, res, nil); err != nil {
				t.Fatalf("--json report: %v", err)
			}
			var back acksResult
			if err := json.Unmarshal(out.Bytes(), &back); err != nil || back.Acked != tc.acked {
				t.Errorf("the JSON report reads back as acked %d (%v):\n%s", back.Acked, err, out.String())
			}
		})
	}
}
