package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// Timings of the scale scenario.
const (
	// burstTimeout bounds the wait for the burst's results.
	burstTimeout = 3 * time.Minute
	// burstCheckEvery is how often the fake Slack is searched for the
	// burst's results.
	burstCheckEvery = 500 * time.Millisecond
	// neverFinish keeps the steady jobs running through the run.
	neverFinish = 24 * time.Hour
)

// scaleOptions are the flags of the scale scenario.
type scaleOptions struct {
	jobs     int
	burst    int
	replicas []int
	redis    []string
	interval time.Duration
	window   time.Duration
	lead     time.Duration
	sample   time.Duration
	// gap separates the end of the measured window from the burst, so that
	// the window's lag samples do not see the burst.
	gap time.Duration
}

// register adds the scenario's flags to fs.
func (o *scaleOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&o.jobs, "jobs", 100000, "jobs tracked, the burst's included")
	fs.IntVar(&o.burst, "burst", 10000, "jobs that finish at once after the measured window")
	o.replicas = []int{1, 2, 4}
	fs.Func("replicas", "comma-separated replica counts to run (default 1,2,4)", func(v string) error {
		var out []int
		for f := range strings.SplitSeq(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 || n > 8 {
				return fmt.Errorf("%q: want replica counts from 1 to 8", f)
			}
			out = append(out, n)
		}
		o.replicas = out
		return nil
	})
	o.redis = []string{"standalone", "cluster"}
	fs.Func("redis", "comma-separated Redis topologies: standalone, cluster (default both)", func(v string) error {
		var out []string
		for f := range strings.SplitSeq(v, ",") {
			if f != "standalone" && f != "cluster" {
				return fmt.Errorf("%q: want standalone or cluster", f)
			}
			out = append(out, f)
		}
		o.redis = out
		return nil
	})
	fs.DurationVar(&o.interval, "interval", 2*time.Minute, "poll interval of every job (DOCSBOT_POLL_INTERVAL and _MAX_INTERVAL): jobs/interval polls a second")
	fs.DurationVar(&o.window, "window", 2*time.Minute, "measured window, from the first due poll")
	fs.DurationVar(&o.lead, "lead", time.Minute, "time from the start of the links to the first due poll (covers linking and the replicas' start)")
	fs.DurationVar(&o.sample, "sample", 200*time.Millisecond, "how often the schedule is sampled for poll lag")
	fs.DurationVar(&o.gap, "gap", 5*time.Second, "time from the end of the window to the burst's due time")
}

// scaleResult is the report of the scale scenario.
type scaleResult struct {
	Scenario string     `json:"scenario"`
	Machine  machine    `json:"machine"`
	Jobs     int        `json:"jobs"`
	Burst    int        `json:"burst"`
	Interval string     `json:"poll_interval"`
	Window   string     `json:"window"`
	Rows     []scaleRow `json:"configurations"`

	issues []string
}

// scaleRow is one configuration's figures.
type scaleRow struct {
	Redis     string `json:"redis"`
	Replicas  int    `json:"replicas"`
	LoadStart string `json:"load_average_start"`
	LoadEnd   string `json:"load_average_end"`

	SeedSeconds float64 `json:"seed_s"`
	LateLinks   int     `json:"late_links"`
	// Lag is how far the earliest due job was past its due time, sampled
	// through the window.
	Lag summary `json:"poll_lag"`
	// Polls is the get-job calls in the window.
	Polls       int     `json:"polls"`
	PollsPerSec float64 `json:"polls_per_s"`

	RedisCalls      int64   `json:"redis_calls"`
	RedisCallsPerS  float64 `json:"redis_calls_per_s"`
	RedisCallsPerJ  float64 `json:"redis_calls_per_job"`
	RedisCallsPerP  float64 `json:"redis_calls_per_poll"`
	RedisCPUPercent float64 `json:"redis_cpu_percent"`
	RedisBytesPerJ  float64 `json:"redis_used_memory_bytes_per_job"`
	RedisUsagePerJ  float64 `json:"redis_memory_usage_bytes_per_job"`

	// Per replica, in replica order.
	CPUPercent []float64 `json:"replica_cpu_percent"`
	RSS        []int64   `json:"replica_rss_bytes"`
	HWM        []int64   `json:"replica_peak_rss_bytes"`

	// BurstSeconds is the time from the burst's due time to its last result
	// message (by the fake Slack's message timestamps).
	BurstSeconds float64     `json:"burst_report_s"`
	BurstPosted  int         `json:"burst_posted"`
	Results      resultCheck `json:"results"`
}

func (r *scaleResult) title() string {
	return fmt.Sprintf("docsbot-load scale: %d tracked jobs, each polled every %s, measured for %s; then %d finish at once",
		r.Jobs, r.Interval, r.Window, r.Burst)
}

func (r *scaleResult) problems() []string { return r.issues }

func (r *scaleResult) sections() []section {
	var out []section
	for _, c := range r.Rows {
		cpu := make([]string, len(c.CPUPercent))
		rss := make([]string, len(c.RSS))
		for i := range c.CPUPercent {
			cpu[i] = fmt.Sprintf("%.1f %%", c.CPUPercent[i])
			rss[i] = fmt.Sprintf("%s (peak %s)", mib(c.RSS[i]), mib(c.HWM[i]))
		}
		out = append(out, section{heading: fmt.Sprintf("%s Redis, %d replica(s)", c.Redis, c.Replicas), rows: []row{
			fig("seeding", "%.1f s; %d late links", c.SeedSeconds, c.LateLinks),
			fig("poll lag p50 / p99 / max", "%s / %s / %s (%d samples)", ms(c.Lag.P50), ms(c.Lag.P99), ms(c.Lag.Max), c.Lag.N),
			fig("polls", "%d (%.0f a second)", c.Polls, c.PollsPerSec),
			fig("Redis commands", "%.0f a second; %.2f per job over the window; %.1f per poll", c.RedisCallsPerS, c.RedisCallsPerJ, c.RedisCallsPerP),
			fig("Redis CPU", "%.1f %% of one core (all primaries)", c.RedisCPUPercent),
			goal("Redis memory per job (used_memory growth)", fmt.Sprintf("%.0f B", c.RedisBytesPerJ), fmt.Sprintf("< %d B", targetRedisPerJob), c.RedisBytesPerJ < targetRedisPerJob),
			fig("Redis memory per job (MEMORY USAGE)", "%.0f B", c.RedisUsagePerJ),
			fig("CPU per replica (of one core)", "%s", strings.Join(cpu, ", ")),
			fig("RSS per replica at the end", "%s", strings.Join(rss, ", ")),
			fig("burst: all results posted after", "%.1f s (%d of %d)", c.BurstSeconds, c.BurstPosted, r.Burst),
			fig("results posted / jobs finished", "%d / %d (duplicates %d, missing %d, premature %d)",
				c.Results.Posted, c.Results.Finished, c.Results.Duplicates, c.Results.Missing, c.Results.Premature),
			fig("load average at start / end", "%s / %s", c.LoadStart, c.LoadEnd),
		}})
	}
	return append(out, machineSection(r.Machine, "per configuration above", "per configuration above"))
}

// runScale runs every configuration of --redis × --replicas in turn, each
// against fresh servers.
func runScale(ctx context.Context, e env, o scaleOptions) (*scaleResult, error) {
	switch {
	case o.jobs <= 0 || o.burst <= 0 || o.burst >= o.jobs || o.jobs > 999999:
		return nil, errors.New("scale: want 0 < --burst < --jobs ≤ 999999")
	case o.interval <= 0 || o.window <= 0 || o.sample <= 0 || o.lead < 0 || o.gap < 0:
		return nil, errors.New("scale: --interval, --window and --sample must be positive")
	}
	bin, cleanup, err := botBinary(ctx, e)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	e.bin = bin
	res := &scaleResult{
		Scenario: "scale", Machine: thisMachine(), Jobs: o.jobs, Burst: o.burst,
		Interval: o.interval.String(), Window: o.window.String(),
	}
	for _, topo := range o.redis {
		for _, n := range o.replicas {
			e.log.Info("scale: configuration", "redis", topo, "replicas", n)
			row, issues, err := runScaleOnce(ctx, e, o, topo, n)
			if err != nil {
				return res, fmt.Errorf("scale: %s Redis, %d replicas: %w", topo, n, err)
			}
			res.Rows = append(res.Rows, *row)
			for _, is := range issues {
				res.issues = append(res.issues, fmt.Sprintf("%s/%d: %s", topo, n, is))
			}
		}
	}
	return res, nil
}

// runScaleOnce runs one configuration: seed the jobs, start the replicas,
// measure through the window, then the burst.
func runScaleOnce(ctx context.Context, e env, o scaleOptions, topo string, replicas int) (*scaleRow, []string, error) {
	ctx, cancel := context.WithTimeout(ctx, o.lead+o.window+o.gap+burstTimeout+5*time.Minute)
	defer cancel()
	// The burst's jobs come first: they finish at the end of the window and
	// are all first due burstGap later. The others are due spread over one
	// interval and never finish.
	rng := rand.New(rand.NewPCG(1, 2))
	burstAt := o.window + o.gap
	plans := make([]jobPlan, o.jobs)
	for i := range plans {
		if i < o.burst {
			plans[i] = jobPlan{FirstPoll: burstAt, Lifecycle: docsapitest.Lifecycle{ActiveFor: o.window, Outcome: docsapitest.OutcomePR}}
			continue
		}
		plans[i] = jobPlan{
			FirstPoll: time.Duration(rng.Int64N(int64(o.interval))),
			Lifecycle: docsapitest.Lifecycle{ActiveFor: neverFinish, Outcome: docsapitest.OutcomePR},
		}
	}
	clock := newHeldClock()
	r, err := newRig(e.log, rigOptions{
		bin: e.bin, botEnv: e.botEnv, cluster: topo == "cluster",
		api: []docsapitest.Option{
			docsapitest.WithLimits(docsapitest.Limits{}),
			docsapitest.WithClock(clock.now),
			docsapitest.WithLifecycle(plannedLifecycle(plans)),
			docsapitest.WithMaxRequests(4000),
		},
	})
	if err != nil {
		return nil, nil, err
	}
	defer r.close()
	row := &scaleRow{Redis: topo, Replicas: replicas}
	var issues []string

	seeded, err := seed(ctx, r, clock, plans, o.lead)
	if err != nil {
		return nil, nil, err
	}
	row.SeedSeconds, row.LateLinks = round3(seeded.Took.Seconds()), seeded.LateLinks
	row.RedisBytesPerJ = round3(float64(seeded.RedisAfter-seeded.RedisBefore) / float64(o.jobs))
	if row.RedisUsagePerJ, err = memoryUsagePerJob(ctx, r, seeded.Jobs); err != nil {
		return nil, nil, err
	}

	settings := []string{"DOCSBOT_POLL_INTERVAL=" + o.interval.String(), "DOCSBOT_POLL_MAX_INTERVAL=" + o.interval.String()}
	bots := make([]*botProcess, 0, replicas)
	defer func() {
		for _, p := range bots {
			_ = p.stop()
		}
	}()
	for range replicas {
		p, err := startBot(r.bin, r.dir, r.botEnv(settings), nil)
		if err != nil {
			return nil, nil, err
		}
		bots = append(bots, p)
	}
	cctx, ccancel := context.WithTimeout(ctx, connectTimeout)
	err = r.slack.WaitConnections(cctx, replicas)
	ccancel()
	if err != nil {
		return nil, nil, fmt.Errorf("%d replicas did not all connect: %w", replicas, err)
	}
	if time.Now().After(seeded.T0) {
		issues = append(issues, "the replicas connected after the first poll was due: raise --lead")
	}

	// The window.
	t0 := seeded.T0
	if !sleep(ctx, time.Until(t0)) {
		return nil, nil, ctx.Err()
	}
	row.LoadStart = loadAvg()
	start, err := readAll(bots)
	if err != nil {
		return nil, nil, err
	}
	srvStart, err := r.store.Stats().ServerStats(ctx)
	if err != nil {
		return nil, nil, err
	}
	getsStart := r.api.Count(docsapitest.EndpointGet)
	lags, err := sampleLag(ctx, r, t0.Add(o.window), o.sample)
	if err != nil {
		return nil, nil, err
	}
	srvEnd, err := r.store.Stats().ServerStats(ctx)
	if err != nil {
		return nil, nil, err
	}
	end, err := readAll(bots)
	if err != nil {
		return nil, nil, err
	}
	row.LoadEnd = loadAvg()
	window := time.Since(start[0].At)
	row.Lag = summarize(lags)
	row.Polls = r.api.Count(docsapitest.EndpointGet) - getsStart
	row.PollsPerSec = round3(float64(row.Polls) / window.Seconds())
	row.RedisCalls = srvEnd.Calls - srvStart.Calls
	row.RedisCallsPerS = round3(float64(row.RedisCalls) / window.Seconds())
	row.RedisCallsPerJ = round3(float64(row.RedisCalls) / float64(o.jobs))
	if row.Polls > 0 {
		row.RedisCallsPerP = round3(float64(row.RedisCalls) / float64(row.Polls))
	}
	row.RedisCPUPercent = round3(100 * float64(srvEnd.CPU-srvStart.CPU) / float64(window))
	for i := range bots {
		row.CPUPercent = append(row.CPUPercent, round3(100*float64(end[i].CPU-start[i].CPU)/float64(end[i].At.Sub(start[i].At))))
		row.RSS = append(row.RSS, end[i].RSS)
		row.HWM = append(row.HWM, end[i].HWM)
	}

	// The burst.
	tb := t0.Add(burstAt)
	burstJobs := seeded.Jobs[:o.burst]
	e.log.Info("scale: window over; waiting for the burst", "redis", topo, "replicas", replicas, "lag_max", row.Lag.Max)
	if !sleep(ctx, time.Until(tb)) {
		return nil, nil, ctx.Err()
	}
	bctx, bcancel := context.WithTimeout(ctx, burstTimeout)
	err = r.waitSlackFor(bctx, bots, burstCheckEvery, func() bool { return burstPosted(r, burstJobs) == len(burstJobs) })
	bcancel()
	if err != nil && ctx.Err() != nil {
		return nil, nil, err
	}
	row.BurstPosted = burstPosted(r, burstJobs)
	if row.BurstPosted < len(burstJobs) {
		issues = append(issues, fmt.Sprintf("only %d of the burst's %d results posted within %s", row.BurstPosted, len(burstJobs), burstTimeout))
	}
	if last, ok := lastResultTS(r, burstJobs); ok {
		row.BurstSeconds = round3(last.Sub(tb).Seconds())
	}
	for _, p := range bots {
		if err := p.stop(); err != nil {
			issues = append(issues, err.Error())
		}
	}
	bots = nil
	row.Results = checkResults(r.slack, r.api, seeded.Jobs)
	issues = append(issues, row.Results.problems()...)
	return row, issues, nil
}

// readAll reads the CPU time and memory of every replica.
func readAll(bots []*botProcess) ([]procStats, error) {
	out := make([]procStats, len(bots))
	for i, p := range bots {
		st, err := p.stats()
		if err != nil {
			return nil, err
		}
		out[i] = st
	}
	return out, nil
}

// sampleLag samples the schedule's lag every tick until end.
func sampleLag(ctx context.Context, r *rig, end time.Time, tick time.Duration) ([]time.Duration, error) {
	var lags []time.Duration
	lastLog := time.Now()
	err := sampleLags(ctx, r, end, tick, func(lag time.Duration, ok bool) error {
		if ok {
			lags = append(lags, lag)
		}
		if time.Since(lastLog) >= 15*time.Second {
			lastLog = time.Now()
			r.log.Info("scale: polling", "gets", r.api.Count(docsapitest.EndpointGet), "samples", len(lags),
				"max_lag", slices.Max(append([]time.Duration{0}, lags...)).Round(time.Millisecond), "load", loadAvg())
		}
		return nil
	})
	return lags, err
}

// waitSlackFor waits, like rig.waitSlack, until cond holds, giving up when
// ctx ends or a replica exits.
func (r *rig) waitSlackFor(ctx context.Context, bots []*botProcess, every time.Duration, cond func() bool) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	for _, p := range bots {
		go func() {
			select {
			case <-p.done:
				cancel(p.alive())
			case <-ctx.Done():
			}
		}()
	}
	err := pollUntil(ctx, every, cond)
	if cause := context.Cause(ctx); err != nil && cause != nil {
		return cause
	}
	return err
}

// burstPosted counts the jobs with a result message.
func burstPosted(r *rig, jobs []seededJob) int {
	n := 0
	for _, j := range jobs {
		if resultPosts(r.slack, j) > 0 {
			n++
		}
	}
	return n
}

// lastResultTS is the time of the latest result message among jobs, read
// from its Slack timestamp (the fake Slack stamps messages with its clock).
func lastResultTS(r *rig, jobs []seededJob) (time.Time, bool) {
	var last time.Time
	for _, j := range jobs {
		for _, m := range resultMessages(r.slack, j) {
			if t, ok := slackTime(m.TS); ok && t.After(last) {
				last = t
			}
		}
	}
	return last, !last.IsZero()
}

// slackTime reads a Slack timestamp, "seconds.micros".
func slackTime(ts string) (time.Time, bool) {
	sec, micro, ok := strings.Cut(ts, ".")
	s, err1 := strconv.ParseInt(sec, 10, 64)
	us, err2 := strconv.ParseInt(micro, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return time.Time{}, false
	}
	return time.Unix(s, us*1000), true
}
