package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// Goals of the idle scenario (issue 24).
const (
	// targetIdleCommands bounds the Redis commands a second of one replica
	// at rest.
	targetIdleCommands = 10.0
	// targetIdleCPU bounds the CPU of one replica at rest, in % of a core.
	targetIdleCPU = 0.5
	// targetPollCommands bounds the Redis commands per job poll.
	targetPollCommands = 5.0
)

// idleOptions are the flags of the idle scenario.
type idleOptions struct {
	jobs     int
	replicas int
	settle   time.Duration
	window   time.Duration
	polls    time.Duration
	cluster  bool
}

// register adds the scenario's flags to fs.
func (o *idleOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&o.jobs, "jobs", 300, "jobs tracked, none due during the idle window")
	fs.IntVar(&o.replicas, "replicas", 1, "replicas (docsbot serve) running")
	fs.DurationVar(&o.settle, "settle", 10*time.Second, "time from the replicas' connection to the idle window (their start-up reads)")
	fs.DurationVar(&o.window, "window", 10*time.Second, "measured idle window")
	fs.DurationVar(&o.polls, "polls", 10*time.Second, "after the idle window, the window over which every job comes due once (0: no poll phase)")
	fs.BoolVar(&o.cluster, "cluster", false, "a three-node Redis Cluster instead of one server")
}

// idleResult is the report of the idle scenario.
type idleResult struct {
	Scenario  string  `json:"scenario"`
	Machine   machine `json:"machine"`
	Jobs      int     `json:"jobs"`
	Replicas  int     `json:"replicas"`
	Redis     string  `json:"redis"`
	Window    string  `json:"window"`
	LoadStart string  `json:"load_average_start"`
	LoadEnd   string  `json:"load_average_end"`

	// At rest: none due.
	CPUPercent     []float64          `json:"replica_cpu_percent"`
	Commands       int64              `json:"redis_commands"`
	CommandsPerS   float64            `json:"redis_commands_per_s"`
	PerReplicaPerS float64            `json:"redis_commands_per_s_per_replica"`
	RestByCommand  map[string]float64 `json:"redis_commands_per_s_by_command"`

	// The poll phase: every job due once.
	Polls          int                `json:"polls"`
	PollCommands   int64              `json:"poll_redis_commands"`
	PerPoll        float64            `json:"redis_commands_per_poll"`
	PollByCommand  map[string]float64 `json:"redis_commands_per_poll_by_command"`
	PollCPUPercent []float64          `json:"poll_replica_cpu_percent"`

	issues []string
}

func (r *idleResult) title() string {
	return fmt.Sprintf("docsbot-load idle: %d tracked jobs, none due, %d replica(s), %s Redis, measured for %s; then each job due once",
		r.Jobs, r.Replicas, r.Redis, r.Window)
}

func (r *idleResult) problems() []string { return r.issues }

func (r *idleResult) sections() []section {
	cpu := func(v []float64) string {
		out := make([]string, len(v))
		for i, c := range v {
			out[i] = fmt.Sprintf("%.2f %%", c)
		}
		return strings.Join(out, ", ")
	}
	maxCPU := 0.0
	for _, c := range r.CPUPercent {
		maxCPU = max(maxCPU, c)
	}
	rest := section{heading: "At rest (none due)", rows: []row{
		goal("CPU per replica (of one core)", cpu(r.CPUPercent), fmt.Sprintf("≤ %.1f %%", targetIdleCPU), maxCPU <= targetIdleCPU),
		fig("Redis commands", "%d (%.1f a second)", r.Commands, r.CommandsPerS),
		goal("Redis commands a second per replica", fmt.Sprintf("%.1f", r.PerReplicaPerS), fmt.Sprintf("≤ %.0f", targetIdleCommands), r.PerReplicaPerS <= targetIdleCommands),
		fig("by command (a second)", "%s", topCommands(r.RestByCommand)),
		fig("load average at start / end", "%s / %s", r.LoadStart, r.LoadEnd),
	}}
	out := []section{rest}
	if r.Polls > 0 || r.PollCommands > 0 {
		out = append(out, section{heading: "Each job due once", rows: []row{
			fig("polls", "%d", r.Polls),
			fig("Redis commands", "%d", r.PollCommands),
			goal("Redis commands per poll", fmt.Sprintf("%.2f", r.PerPoll), fmt.Sprintf("≤ %.0f", targetPollCommands), r.PerPoll <= targetPollCommands),
			fig("by command (per poll)", "%s", topCommands(r.PollByCommand)),
			fig("CPU per replica (of one core)", "%s", cpu(r.PollCPUPercent)),
		}})
	}
	return append(out, machineSection(r.Machine, r.LoadStart, r.LoadEnd))
}

// topCommands lists commands by rate, highest first.
func topCommands(m map[string]float64) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int {
		if m[a] != m[b] {
			if m[a] > m[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %.2f", n, m[n])
	}
	return strings.Join(parts, ", ")
}

// commandDelta is the calls of each command between two samples, the
// tool's own INFO and MONITOR left out, divided by per.
func commandDelta(a, b store.ServerStats, per float64) (int64, map[string]float64) {
	var total int64
	out := map[string]float64{}
	for k, v := range b.ByCommand {
		if k == "info" || k == "monitor" {
			continue
		}
		if d := v - a.ByCommand[k]; d > 0 {
			total += d
			out[k] = round3(float64(d) / per)
		}
	}
	return total, out
}

// runIdle seeds jobs none of which is due, starts the replicas, measures
// them at rest, then makes every job due once and measures the polls.
func runIdle(ctx context.Context, e env, o idleOptions) (*idleResult, error) {
	if o.jobs <= 0 || o.replicas < 1 || o.replicas > 8 || o.window <= 0 || o.settle < 0 || o.polls < 0 {
		return nil, errors.New("idle: want --jobs > 0, 1 ≤ --replicas ≤ 8, --window > 0")
	}
	bin, cleanup, err := botBinary(ctx, e)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	topo := "standalone"
	if o.cluster {
		topo = "cluster"
	}
	res := &idleResult{Scenario: "idle", Machine: thisMachine(), Jobs: o.jobs, Replicas: o.replicas, Redis: topo, Window: o.window.String()}

	// The jobs come due after the replicas started, settled and were
	// measured at rest, spread over the poll phase; each is polled once
	// (the poll interval is longer than the run) and never finishes.
	lead := connectTimeout + o.settle + o.window + 5*time.Second
	plans := make([]jobPlan, o.jobs)
	for i := range plans {
		plans[i] = jobPlan{
			FirstPoll: time.Duration(int64(o.polls) * int64(i) / int64(o.jobs)),
			Lifecycle: docsapitest.Lifecycle{ActiveFor: neverFinish, Outcome: docsapitest.OutcomePR},
		}
	}
	clock := newHeldClock()
	r, err := newRig(e.log, rigOptions{
		bin: bin, botEnv: e.botEnv, cluster: o.cluster,
		api: []docsapitest.Option{
			docsapitest.WithLimits(docsapitest.Limits{}),
			docsapitest.WithClock(clock.now),
			docsapitest.WithLifecycle(plannedLifecycle(plans)),
		},
	})
	if err != nil {
		return nil, err
	}
	defer r.close()
	seeded, err := seed(ctx, r, clock, plans, lead)
	if err != nil {
		return nil, err
	}
	settings := []string{"DOCSBOT_POLL_INTERVAL=1h", "DOCSBOT_POLL_MAX_INTERVAL=1h"}
	bots := make([]*botProcess, 0, o.replicas)
	defer func() {
		for _, p := range bots {
			_ = p.stop()
		}
	}()
	for range o.replicas {
		p, err := startBot(r.bin, r.dir, r.botEnv(settings), nil)
		if err != nil {
			return nil, err
		}
		bots = append(bots, p)
	}
	cctx, ccancel := context.WithTimeout(ctx, connectTimeout)
	err = r.slack.WaitConnections(cctx, o.replicas)
	ccancel()
	if err != nil {
		return nil, fmt.Errorf("%d replicas did not all connect: %w", o.replicas, err)
	}
	if !sleep(ctx, o.settle) {
		return nil, ctx.Err()
	}

	// At rest.
	res.LoadStart = loadAvg()
	e.log.Info("idle: measuring at rest", "window", o.window, "first_due_in", time.Until(seeded.T0).Round(time.Second))
	if time.Until(seeded.T0) < o.window {
		res.issues = append(res.issues, "the jobs came due before the idle window ended: lower --settle")
	}
	m, err := measure(ctx, r, bots, o.window)
	if err != nil {
		return nil, err
	}
	res.CPUPercent = m.cpu
	res.Commands, res.RestByCommand = commandDelta(m.start, m.end, m.took.Seconds())
	res.CommandsPerS = round3(float64(res.Commands) / m.took.Seconds())
	res.PerReplicaPerS = round3(res.CommandsPerS / float64(o.replicas))

	// Each job due once.
	if o.polls > 0 {
		if !sleep(ctx, time.Until(seeded.T0)) {
			return nil, ctx.Err()
		}
		gets := r.api.Count(docsapitest.EndpointGet)
		// The window runs past the last due time by the poll lag's margin.
		m, err := measure(ctx, r, bots, o.polls+2*time.Second)
		if err != nil {
			return nil, err
		}
		res.PollCPUPercent = m.cpu
		res.Polls = r.api.Count(docsapitest.EndpointGet) - gets
		res.PollCommands, res.PollByCommand = commandDelta(m.start, m.end, float64(max(res.Polls, 1)))
		if res.Polls > 0 {
			res.PerPoll = round3(float64(res.PollCommands) / float64(res.Polls))
		}
		if res.Polls < o.jobs {
			res.issues = append(res.issues, fmt.Sprintf("only %d of %d jobs polled in the poll window", res.Polls, o.jobs))
		}
	}
	res.LoadEnd = loadAvg()
	return res, nil
}

// measured is what measure read over its window.
type measured struct {
	cpu        []float64 // per replica, % of one core
	start, end store.ServerStats
	took       time.Duration
}

// measure reads every replica's CPU and Redis's commands over d.
func measure(ctx context.Context, r *rig, bots []*botProcess, d time.Duration) (*measured, error) {
	start, err := readAll(bots)
	if err != nil {
		return nil, err
	}
	m := &measured{}
	if m.start, err = r.store.Stats().ServerStats(ctx); err != nil {
		return nil, err
	}
	began := time.Now()
	if !sleep(ctx, d) {
		return nil, ctx.Err()
	}
	if m.end, err = r.store.Stats().ServerStats(ctx); err != nil {
		return nil, err
	}
	m.took = time.Since(began)
	end, err := readAll(bots)
	if err != nil {
		return nil, err
	}
	for i := range bots {
		m.cpu = append(m.cpu, round3(100*float64(end[i].CPU-start[i].CPU)/float64(end[i].At.Sub(start[i].At))))
	}
	return m, nil
}
