package main

import (
	"context"
	"fmt"
	"slices"
)

// acksRuns is the report of acks --runs N: each run's CPU a command beside
// its peer, and the median of the ratios, which the goal is held to. One
// run of a bot's CPU moves by a third from one run to the next on a quiet
// machine (BENCHMARKS.md, "Frames read once"); the ratio within a run, over
// several runs, moves much less.
type acksRuns struct {
	Scenario string        `json:"scenario"`
	Peer     string        `json:"peer"`
	Runs     []*acksResult `json:"runs"`
	// MedianCPURatio and MedianRSSRatio are the medians of docsbot's CPU a
	// command and resident memory at the end over its peer's.
	MedianCPURatio float64 `json:"median_cpu_per_command_ratio"`
	MedianRSSRatio float64 `json:"median_rss_ratio"`
}

// runAcksSeries runs the acks scenario o.runs times, building the bot once.
// One run is reported as it is; more, as acksRuns.
func runAcksSeries(ctx context.Context, e env, o acksOptions) (report, error) {
	if o.runs <= 1 {
		res, err := runAcks(ctx, e, o)
		if res == nil {
			return nil, err
		}
		return res, err
	}
	if o.peer == peerNone {
		return nil, fmt.Errorf("acks: --runs %d needs a peer to take ratios to (--peer bare or same-work)", o.runs)
	}
	bin, cleanup, err := botBinaryAs(ctx, e, o.release)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	e.bin = bin
	out := &acksRuns{Scenario: "acks", Peer: o.peer}
	for k := range o.runs {
		e.log.Info("acks: run", "run", k+1, "of", o.runs)
		res, err := runAcks(ctx, e, o)
		if err != nil {
			return nil, fmt.Errorf("acks: run %d of %d: %w", k+1, o.runs, err)
		}
		out.Runs = append(out.Runs, res)
	}
	out.MedianCPURatio = median(out.ratios(func(q *acksRatios) float64 { return q.CPUPerCmd }))
	out.MedianRSSRatio = median(out.ratios(func(q *acksRatios) float64 { return q.RSS }))
	return out, nil
}

// ratios is figure of each run's ratios to its peer, in run order.
func (a *acksRuns) ratios(figure func(*acksRatios) float64) []float64 {
	var out []float64
	for _, r := range a.Runs {
		if q := r.peerRatios(); q != nil {
			out = append(out, figure(q))
		}
	}
	return out
}

// peerRatios is r's ratios to its peer, nil for none.
func (r *acksResult) peerRatios() *acksRatios {
	if r.Ratios != nil {
		return r.Ratios
	}
	return r.SameWorkRatios
}

// peerCPU is the peer's CPU a command in r, 0 for none.
func (r *acksResult) peerCPU() float64 {
	switch {
	case r.Bare != nil:
		return r.Bare.CPUPerCmdMs
	case r.SameWork != nil:
		return r.SameWork.CPUPerCmdMs
	}
	return 0
}

// median of vs (the mean of the middle two for an even count); 0 for none.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(vs))
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// cpuTarget is the goal of docsbot's CPU a command over peer's.
func cpuTarget(peer string) float64 {
	if peer == peerSameWork {
		return targetSameCPU
	}
	return targetPeerCPU
}

func (a *acksRuns) title() string {
	return fmt.Sprintf("docsbot-load acks, %d runs beside the %s bot", len(a.Runs), a.Peer)
}

func (a *acksRuns) problems() []string {
	var out []string
	for i, r := range a.Runs {
		for _, p := range r.problems() {
			out = append(out, fmt.Sprintf("run %d: %s", i+1, p))
		}
	}
	return out
}

func (a *acksRuns) sections() []section {
	var rows []row
	for i, r := range a.Runs {
		q := r.peerRatios()
		if q == nil {
			continue
		}
		rows = append(rows, fig(fmt.Sprintf("run %d: CPU per command, docsbot / %s", i+1, a.Peer), "%.2f ms / %.2f ms = %.2f× (RSS %.2f×; load %s)",
			r.CPUPerCmdMs, r.peerCPU(), q.CPUPerCmd, q.RSS, r.LoadStart))
	}
	target := cpuTarget(a.Peer)
	rows = append(rows,
		goal("median docsbot / "+a.Peer+": CPU per command", fmt.Sprintf("%.2f×", a.MedianCPURatio), fmt.Sprintf("≤ %.1f×", target), a.MedianCPURatio <= target),
		fig("median docsbot / "+a.Peer+": RSS at the end", "%.2f×", a.MedianRSSRatio))
	out := []section{{heading: "Each run (the figures of one run: --runs 1)", rows: rows}}
	if n := len(a.Runs); n > 0 {
		last := a.Runs[n-1]
		out = append(out, machineSection(last.Machine, a.Runs[0].LoadStart, last.LoadEnd))
	}
	return out
}
