package main

import (
	"context"
	"fmt"
	"time"
)

// startReplicas runs n replicas of the rig's bot with settings, besides
// r.bot, and waits until all n are connected to the fake Slack. stop ends
// them (each by its SIGTERM); it reports the first that did not stop cleanly.
func (r *rig) startReplicas(ctx context.Context, n int, settings ...string) (bots []*botProcess, stop func() error, err error) {
	stop = func() error {
		var first error
		for _, p := range bots {
			if err := p.stop(); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	args := r.args
	if args == nil {
		args = []string{"serve"}
	}
	for range n {
		p, err := startProcess(r.bin, args, r.dir, r.botEnv(settings), nil)
		if err != nil {
			_ = stop()
			return nil, nil, err
		}
		bots = append(bots, p)
	}
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := r.slack.WaitConnections(cctx, n); err != nil {
		for _, p := range bots {
			if aerr := p.alive(); aerr != nil {
				_ = stop()
				return nil, nil, aerr
			}
		}
		_ = stop()
		return nil, nil, fmt.Errorf("%d replicas did not all connect to the fake Slack: %w", n, err)
	}
	r.log.Info("replicas connected", "replicas", n, "binary", r.bin, "args", args)
	return bots, stop, nil
}

// fleetMeter counts, over a window, the CPU time of every replica (summed)
// and what a costMeter counts: Redis commands and Slack calls.
type fleetMeter struct {
	bots []*botProcess
	cpu0 []procStats
	cost *costMeter
}

// fleetWindow is what a fleetMeter counted.
type fleetWindow struct {
	CPU    time.Duration
	Took   time.Duration
	Cost   unitCost
	Memory []procStats // each replica's at the end
}

// startFleetMeter starts counting.
func startFleetMeter(ctx context.Context, r *rig, bots []*botProcess) (*fleetMeter, error) {
	cost, err := startCost(ctx, r)
	if err != nil {
		return nil, err
	}
	cpu0, err := readAll(bots)
	if err != nil {
		cost.close()
		return nil, err
	}
	return &fleetMeter{bots: bots, cpu0: cpu0, cost: cost}, nil
}

// stop ends the window: the counts divided by units.
func (m *fleetMeter) stop(ctx context.Context, units int) (fleetWindow, error) {
	defer m.cost.close()
	cpu1, err := readAll(m.bots)
	if err != nil {
		return fleetWindow{}, err
	}
	c, err := m.cost.stop(ctx, units)
	if err != nil {
		return fleetWindow{}, err
	}
	w := fleetWindow{Cost: c, Memory: cpu1, Took: cpu1[0].At.Sub(m.cpu0[0].At)}
	for i := range cpu1 {
		w.CPU += cpu1[i].CPU - m.cpu0[i].CPU
	}
	return w, nil
}
