package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestAcksRunsHoldTheGoalToTheMedian: several runs are judged by the median
// of their ratios, not by any one run, in the text and the JSON reports;
// a run's problems are the series'.
func TestAcksRunsHoldTheGoalToTheMedian(t *testing.T) {
	t.Parallel()
	run := func(docsbot, bare, rss float64, issues ...string) *acksResult {
		r := &acksResult{Scenario: "acks", LoadStart: "0.10"}
		r.CPUPerCmdMs, r.issues = docsbot, issues
		r.Bare = &acksPeer{}
		r.Bare.CPUPerCmdMs = bare
		r.Ratios = &acksRatios{CPUPerCmd: docsbot / bare, RSS: rss}
		return r
	}
	tests := []struct {
		name     string
		runs     []*acksResult
		median   float64
		met      bool
		problems int
	}{
		{"one run under, most over", []*acksResult{run(2.0, 1.1, 1.2), run(2.8, 1.1, 1.2), run(3.0, 1.2, 1.2)}, 3.0 / 1.2, false, 0},
		{"most under", []*acksResult{run(2.0, 1.1, 1.2), run(2.1, 1.1, 1.3), run(3.0, 1.2, 1.1, "bot log lines")}, 2.1 / 1.1, true, 1},
		{"an even number: the middle two", []*acksResult{run(2.0, 1.0, 1.2), run(2.2, 1.0, 1.2), run(1.8, 1.0, 1.2), run(2.6, 1.0, 1.2)}, 2.1, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &acksRuns{Scenario: "acks", Peer: peerBare, Runs: tc.runs}
			a.MedianCPURatio = median(a.ratios(func(q *acksRatios) float64 { return q.CPUPerCmd }))
			if diff := a.MedianCPURatio - tc.median; diff > 1e-9 || diff < -1e-9 {
				t.Fatalf("median %.4f, want %.4f", a.MedianCPURatio, tc.median)
			}
			var goalRow *row
			for _, s := range a.sections() {
				for i, r := range s.rows {
					if strings.HasPrefix(r.name, "median docsbot / bare: CPU") {
						goalRow = &s.rows[i]
					}
				}
			}
			if goalRow == nil || goalRow.met == nil || *goalRow.met != tc.met {
				t.Fatalf("the median's goal row %+v, want met %v", goalRow, tc.met)
			}
			if n := len(a.problems()); n != tc.problems {
				t.Errorf("%d problems (%v), want %d", n, a.problems(), tc.problems)
			}
			var out bytes.Buffer
			if err := json.NewEncoder(&out).Encode(a); err != nil {
				t.Fatal(err)
			}
			var back acksRuns
			if err := json.Unmarshal(out.Bytes(), &back); err != nil || len(back.Runs) != len(tc.runs) || back.MedianCPURatio != a.MedianCPURatio {
				t.Fatalf("JSON %s read back as %+v, %v", out.Bytes(), back, err)
			}
		})
	}
}
