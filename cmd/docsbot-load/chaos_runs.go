package main

import (
	"context"
	"fmt"
	"time"
)

// chaosRuns is the report of several chaos runs (--runs): each run's
// figures, and their sums.
type chaosRuns struct {
	Scenario string         `json:"scenario"`
	Options  string         `json:"options"`
	Runs     []*chaosResult `json:"runs"`
	// Total sums the runs' outcomes and faults.
	Total chaosResult `json:"total"`
	// Failed says why the series stopped early, if it did.
	Failed string `json:"failed,omitempty"`
}

// runChaosSeries runs the chaos scenario o.runs times, with seeds o.seed,
// o.seed+1, …, building the bot once. One run is reported as it is; more, as
// chaosRuns. A run that cannot be carried out (the rig would not start, the
// deadline ended the commands) ends the series with the runs so far.
func runChaosSeries(ctx context.Context, e env, o chaosOptions) (report, error) {
	o = o.withDefaults()
	if o.runs == 1 {
		res, err := runChaos(ctx, e, o)
		if res == nil {
			return nil, err
		}
		return res, err
	}
	if o.runs < 1 {
		return nil, fmt.Errorf("chaos: --runs must be positive, not %d", o.runs)
	}
	bin, cleanup, err := botBinary(ctx, e)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	e.bin = bin
	out := &chaosRuns{Scenario: "chaos", Options: o.describe()}
	for k := range o.runs {
		ro := o
		ro.seed = o.seed + uint64(k)
		e.log.Info("chaos: run", "run", k+1, "of", o.runs, "seed", ro.seed)
		res, err := runChaos(ctx, e, ro)
		if err != nil {
			out.Failed = fmt.Sprintf("run %d (seed %d): %v", k+1, ro.seed, err)
			out.sum()
			return out, fmt.Errorf("chaos: run %d of %d: %w", k+1, o.runs, err)
		}
		out.Runs = append(out.Runs, res)
		e.log.Info("chaos: run done", "run", k+1, "results_doubled", res.Results.Doubled, "results_lost", res.Results.Lost, "took", res.Took.Round(time.Second))
	}
	out.sum()
	return out, nil
}

// sum adds the runs up into Total.
func (c *chaosRuns) sum() {
	t := chaosResult{Scenario: c.Scenario, Options: c.Options}
	for _, r := range c.Runs {
		t.Rolling = r.Rolling
		t.Machine = r.Machine
		t.Commands = t.Commands.plus(r.Commands)
		t.Replies = t.Replies.plus(r.Replies)
		t.Results = t.Results.plus(r.Results)
		t.Uncertain += r.Uncertain
		t.UncertainStarted += r.UncertainStarted
		t.Rollouts += r.Rollouts
		t.SIGTERMs += r.SIGTERMs
		t.GraceKills += r.GraceKills
		t.SlowestStop = max(t.SlowestStop, r.SlowestStop)
		t.ReplicaKills += r.ReplicaKills
		t.Restarts += r.Restarts
		t.RedisKills += r.RedisKills
		t.SocketDrops += r.SocketDrops
		t.Slack429 += r.Slack429
		t.Redelivered += r.Redelivered
		t.Queued += r.Queued
		t.TimeoutThenDone += r.TimeoutThenDone
		t.AckMax = max(t.AckMax, r.AckMax)
		t.FirstPostMax = max(t.FirstPostMax, r.FirstPostMax)
		t.ReplyMax = max(t.ReplyMax, r.ReplyMax)
		t.Took += r.Took
		if r.Install != nil {
			t.Install = t.Install.plus(r.Install)
		}
	}
	c.Total = t
}

// plus adds two outcomes.
func (c outcome) plus(d outcome) outcome {
	return outcome{Done: c.Done + d.Done, Told: c.Told + d.Told, Timeout: c.Timeout + d.Timeout, Lost: c.Lost + d.Lost,
		Doubled: c.Doubled + d.Doubled, Owed: c.Owed + d.Owed, GaveUp: c.GaveUp + d.GaveUp}
}

func (c *chaosRuns) title() string {
	return fmt.Sprintf("docsbot-load chaos, %d runs: %s", len(c.Runs), c.Options)
}

// problems are every run's, each named by its run.
func (c *chaosRuns) problems() []string {
	var out []string
	if c.Failed != "" {
		out = append(out, "the series stopped early: "+c.Failed)
	}
	for k, r := range c.Runs {
		for _, p := range r.problems() {
			out = append(out, fmt.Sprintf("run %d (seed %d): %s", k+1, r.Seed, p))
		}
	}
	return out
}

func (c *chaosRuns) sections() []section {
	per := section{heading: "Each run"}
	for k, r := range c.Runs {
		faults := fmt.Sprintf("%d replica SIGKILLs, %d Redis SIGKILLs, %d socket drops", r.ReplicaKills, r.RedisKills, r.SocketDrops)
		switch {
		case r.Install != nil:
			faults = fmt.Sprintf("%d replica SIGKILLs, %d Redis SIGKILLs, %d token refreshes", r.ReplicaKills, r.RedisKills, r.Install.Refreshes)
		case r.Rolling:
			faults = fmt.Sprintf("%d rolling updates, %d SIGTERMs, %d SIGKILLs past the grace", r.Rollouts, r.SIGTERMs, r.GraceKills)
		}
		per.rows = append(per.rows, fig(fmt.Sprintf("run %d (seed %d)", k+1, r.Seed),
			"results %d doubled, %d lost; commands %d doubled, %d lost, %d operation_timeout; follow-ups %d doubled, %d lost; %d uncertain starts; %s; %.0f s",
			r.Results.Doubled, r.Results.Lost, r.Commands.Doubled, r.Commands.Lost, r.Commands.Timeout, r.Replies.Doubled, r.Replies.Lost, r.Uncertain, faults, r.Took.Seconds()))
	}
	per.rows = append(per.rows, fig("all runs", "%.0f s", c.Total.Took.Seconds()))
	total := c.Total.sections()
	total[0].heading = "All runs together"
	// The total's drain and machine sections say nothing more than the runs'.
	out := []section{per, total[0], total[1], total[2]}
	if c.Total.Install != nil {
		out = append(out, c.Total.Install.section())
	}
	return append(out, machineSection(c.Total.Machine, c.firstLoad(), c.lastLoad()))
}

func (c *chaosRuns) firstLoad() string {
	if len(c.Runs) == 0 {
		return "unknown"
	}
	return c.Runs[0].LoadStart
}

func (c *chaosRuns) lastLoad() string {
	if len(c.Runs) == 0 {
		return "unknown"
	}
	return c.Runs[len(c.Runs)-1].LoadEnd
}
