package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// Targets of the polls scenario.
const (
	targetLag         = time.Second
	targetRedisPerJob = 1024
	targetPollsRSS    = 150 << 20
	// memorySample is how many jobs MEMORY USAGE is asked about.
	memorySample = 200
	// settleTimeout bounds the wait, after the run, for results still being posted.
	settleTimeout = time.Minute
)

// pollsOptions are the flags of the polls scenario.
type pollsOptions struct {
	jobs        int
	duration    time.Duration
	interval    time.Duration
	maxInterval time.Duration
	active      time.Duration
	spread      time.Duration
	lead        time.Duration
	sample      time.Duration
}

// register adds the scenario's flags to fs.
func (o *pollsOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&o.jobs, "jobs", 10000, "jobs to follow")
	fs.DurationVar(&o.duration, "duration", 3*time.Minute, "how long to run, from the first due poll")
	fs.DurationVar(&o.interval, "interval", 10*time.Second, "DOCSBOT_POLL_INTERVAL")
	o.spread = -1 // one interval
	fs.Func("spread", "first polls are spread uniformly over [0, spread) after the start (default: --interval, as jobs started over time; 0: all due at once, as after an outage)", durationFlag(&o.spread))
	fs.DurationVar(&o.maxInterval, "max-interval", time.Minute, "DOCSBOT_POLL_MAX_INTERVAL")
	fs.DurationVar(&o.active, "active", 2*time.Minute, "how long each job runs at the API before it completes with a pull request")
	fs.DurationVar(&o.lead, "lead", 5*time.Second, "time from the start of the links to the first due poll (covers linking and the bot's start)")
	fs.DurationVar(&o.sample, "sample", 100*time.Millisecond, "how often the schedule is sampled for poll lag")
}

// pollsResult is the report of the polls scenario.
type pollsResult struct {
	Scenario    string  `json:"scenario"`
	Machine     machine `json:"machine"`
	LoadStart   string  `json:"load_average_start"`
	LoadEnd     string  `json:"load_average_end"`
	Jobs        int     `json:"jobs"`
	Duration    string  `json:"duration"`
	Interval    string  `json:"interval"`
	MaxInterval string  `json:"max_interval"`
	Active      string  `json:"active"`
	Spread      string  `json:"first_polls_spread_over"`

	SeedSeconds       float64 `json:"seed_s"`
	LateLinks         int     `json:"late_links"`
	BotReadyBeforeT0  float64 `json:"bot_ready_before_first_due_s"`
	RedisBytesPerJob  float64 `json:"redis_used_memory_bytes_per_job"`
	RedisMemUsagePerJ float64 `json:"redis_memory_usage_bytes_per_job"`

	Gets              int     `json:"api_gets"`
	GetsPerJob        float64 `json:"api_gets_per_job"`
	FormulaGetsPerJob int     `json:"formula_gets_per_job"`
	// Lag is how far the earliest due job was past its due time, sampled
	// every --sample from the first due poll on while any job was scheduled.
	Lag        summary     `json:"poll_lag"`
	MaxLagAtS  float64     `json:"max_lag_at_s"`
	Results    resultCheck `json:"results"`
	StillTrack int64       `json:"still_scheduled"`

	CPUPercent     float64   `json:"bot_cpu_percent"`
	PeakCPUPercent float64   `json:"bot_cpu_percent_peak_1s"`
	CPUms          float64   `json:"bot_cpu_ms"`
	Bot            procStats `json:"bot_memory"`
	BotLogLines    int       `json:"bot_log_lines"`

	issues []string
}

func (r *pollsResult) title() string {
	return fmt.Sprintf("docsbot-load polls: %d jobs for %s (poll interval %s, max %s; each job runs %s; first polls spread over %s)",
		r.Jobs, r.Duration, r.Interval, r.MaxInterval, r.Active, r.Spread)
}

func (r *pollsResult) problems() []string { return r.issues }

func (r *pollsResult) sections() []section {
	return []section{
		{heading: "Polling", rows: []row{
			fig("seeding (create, post, link)", "%.1f s; bot ready %.1f s before the first due poll; %d late links", r.SeedSeconds, r.BotReadyBeforeT0, r.LateLinks),
			fig("get-job calls", "%d (%.2f per job; schedule formula: %d per job)", r.Gets, r.GetsPerJob, r.FormulaGetsPerJob),
			goal("poll lag max", ms(r.Lag.Max), "≤ "+ms(targetLag), r.Lag.Max <= targetLag),
			goal("poll lag p99", ms(r.Lag.P99), "≤ "+ms(targetLag), r.Lag.P99 <= targetLag),
			fig("poll lag p50", "%s (%d samples; max at t0+%.1f s)", ms(r.Lag.P50), r.Lag.N, r.MaxLagAtS),
			fig("results posted / jobs finished", "%d / %d (duplicates %d, missing %d, premature %d)",
				r.Results.Posted, r.Results.Finished, r.Results.Duplicates, r.Results.Missing, r.Results.Premature),
			fig("jobs still scheduled at the end", "%d", r.StillTrack),
		}},
		{heading: "Cost", rows: []row{
			goal("Redis per job (used_memory growth)", fmt.Sprintf("%.0f B", r.RedisBytesPerJob), fmt.Sprintf("< %d B", targetRedisPerJob), r.RedisBytesPerJob < targetRedisPerJob),
			fig("Redis per job (MEMORY USAGE)", "%.0f B (record + thread link + share of the schedule)", r.RedisMemUsagePerJ),
			fig("bot CPU", "%.1f %% of one core on average (%.0f ms); peak %.0f %% over 1 s", r.CPUPercent, r.CPUms, r.PeakCPUPercent),
			goal("bot RSS at the end", mib(r.Bot.RSS), "< "+mib(targetPollsRSS), r.Bot.RSS < targetPollsRSS),
			goal("bot peak RSS (VmHWM)", mib(r.Bot.HWM), "< "+mib(targetPollsRSS), r.Bot.HWM < targetPollsRSS),
			fig("bot log lines (level warn+)", "%d", r.BotLogLines),
		}},
		machineSection(r.Machine, r.LoadStart, r.LoadEnd),
	}
}

// runPolls seeds many running jobs, starts the bot, and watches it poll them
// from outside: the schedule's lag, the API's get count, the results in the
// threads and the bot's CPU and memory.
func runPolls(ctx context.Context, e env, o pollsOptions) (*pollsResult, error) {
	if o.spread < 0 {
		o.spread = o.interval
	}
	switch {
	case o.jobs <= 0 || o.duration <= 0 || o.interval <= 0 || o.sample <= 0 || o.lead < 0:
		return nil, errors.New("polls: --jobs, --duration, --interval and --sample must be positive")
	case o.maxInterval < o.interval:
		return nil, errors.New("polls: --max-interval must be at least --interval")
	case o.jobs > 999999:
		return nil, errors.New("polls: at most 999999 jobs")
	}
	ctx, cancel := context.WithTimeout(ctx, o.lead+o.duration+settleTimeout+5*time.Minute)
	defer cancel()

	// Each job is first due at u, uniform over [0, spread): by default the
	// jobs arrived over the interval before t0, as if people started them
	// over time, and are first polled an interval after arriving. Each runs
	// --active from its arrival.
	rng := rand.New(rand.NewPCG(1, 2))
	plans := make([]jobPlan, o.jobs)
	for i := range plans {
		var u time.Duration
		if o.spread > 0 {
			u = time.Duration(rng.Int64N(int64(o.spread)))
		}
		plans[i] = jobPlan{FirstPoll: u, Lifecycle: docsapitest.Lifecycle{
			ActiveFor: max(0, u-o.interval+o.active), ActivePolls: 0, Outcome: docsapitest.OutcomePR,
		}}
	}
	bin, cleanup, err := botBinary(ctx, e)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	e.bin = bin
	clock := newHeldClock()
	r, err := newRig(e.log, rigOptions{
		bin: e.bin, botEnv: e.botEnv,
		api: []docsapitest.Option{
			docsapitest.WithLimits(docsapitest.Limits{}),
			docsapitest.WithClock(clock.now),
			docsapitest.WithLifecycle(plannedLifecycle(plans)),
			docsapitest.WithMaxRequests(1000),
		},
	})
	if err != nil {
		return nil, err
	}
	defer r.close()

	res := &pollsResult{
		Scenario: "polls", Machine: thisMachine(), Jobs: o.jobs, Duration: o.duration.String(),
		Interval: o.interval.String(), MaxInterval: o.maxInterval.String(), Active: o.active.String(),
		Spread: o.spread.String(),
	}
	seeded, err := seed(ctx, r, clock, plans, o.lead)
	if err != nil {
		return nil, err
	}
	res.SeedSeconds, res.LateLinks = round3(seeded.Took.Seconds()), seeded.LateLinks
	res.RedisBytesPerJob = round3(float64(seeded.RedisAfter-seeded.RedisBefore) / float64(o.jobs))
	if res.RedisMemUsagePerJ, err = memoryUsagePerJob(ctx, r, seeded.Jobs); err != nil {
		return nil, err
	}
	res.FormulaGetsPerJob, _ = getsFor(o.active, o.interval, o.maxInterval)

	if err := r.startBot(ctx, "DOCSBOT_POLL_INTERVAL="+o.interval.String(), "DOCSBOT_POLL_MAX_INTERVAL="+o.maxInterval.String()); err != nil {
		return nil, err
	}
	res.BotReadyBeforeT0 = round3(time.Until(seeded.T0).Seconds())
	if res.BotReadyBeforeT0 < 0 {
		res.issues = append(res.issues, fmt.Sprintf("the bot connected %.1f s after the first poll was due: raise --lead", -res.BotReadyBeforeT0))
	}

	w, err := watchPolls(ctx, r, seeded.T0, seeded.T0.Add(o.duration), o.sample)
	if err != nil {
		return nil, err
	}
	res.Lag, res.MaxLagAtS, res.LoadStart, res.LoadEnd = summarize(w.lags), round3(w.maxLagAt.Seconds()), w.loadStart, w.loadEnd
	window := w.end.At.Sub(w.start.At)
	res.CPUms = msf(w.end.CPU - w.start.CPU)
	res.CPUPercent = round3(100 * float64(w.end.CPU-w.start.CPU) / float64(window))
	res.PeakCPUPercent = round3(100 * w.peakCPU)

	// Let every job finish and its result reach its thread: on a busy
	// machine a job's last poll may fall after the window (the figures
	// above are the window's alone).
	e.log.Info("run over; waiting for results in flight")
	sctx, scancel := context.WithTimeout(ctx, settleTimeout)
	_ = pollUntil(sctx, 500*time.Millisecond, func() bool {
		c := checkResults(r.slack, r.api, seeded.Jobs)
		return c.Missing == 0 && c.Finished == len(seeded.Jobs)
	})
	scancel()
	last, err := r.bot.stats()
	if err != nil {
		return nil, err
	}
	res.Bot = last
	res.BotLogLines = r.bot.logs.Lines()
	if err := r.stopBot(); err != nil {
		res.issues = append(res.issues, err.Error())
	}
	res.Gets = r.api.Count(docsapitest.EndpointGet)
	res.GetsPerJob = round3(float64(res.Gets) / float64(o.jobs))
	res.Results = checkResults(r.slack, r.api, seeded.Jobs)
	res.issues = append(res.issues, res.Results.problems()...)
	if res.StillTrack, err = r.store.Jobs().Tracked(ctx); err != nil {
		return nil, err
	}
	return res, nil
}

// pollWatch is what watchPolls saw.
type pollWatch struct {
	lags               []time.Duration
	maxLagAt           time.Duration // after t0
	start, end         procStats
	peakCPU            float64 // cores, over 1 s windows
	loadStart, loadEnd string
}

// watchPolls samples the schedule's lag every tick from t0 to end, and the
// bot's CPU every second, logging progress.
func watchPolls(ctx context.Context, r *rig, t0, end time.Time, tick time.Duration) (*pollWatch, error) {
	w := &pollWatch{}
	if !sleep(ctx, time.Until(t0)) {
		return nil, ctx.Err()
	}
	w.loadStart = loadAvg()
	var err error
	if w.start, err = r.bot.stats(); err != nil {
		return nil, err
	}
	prev := w.start
	var maxLag time.Duration
	lastLog := time.Now()
	err = sampleLags(ctx, r, end, tick, func(lag time.Duration, ok bool) error {
		if ok {
			w.lags = append(w.lags, lag)
			if lag > maxLag {
				maxLag, w.maxLagAt = lag, time.Since(t0)
			}
		}
		if time.Since(prev.At) >= time.Second {
			cur, err := r.bot.stats()
			if err != nil {
				return err
			}
			w.peakCPU = max(w.peakCPU, float64(cur.CPU-prev.CPU)/float64(cur.At.Sub(prev.At)))
			prev = cur
		}
		if time.Since(lastLog) >= 15*time.Second {
			lastLog = time.Now()
			tracked, _ := r.store.Jobs().Tracked(ctx)
			r.log.Info("polling", "t", time.Since(t0).Round(time.Second), "gets", r.api.Count(docsapitest.EndpointGet),
				"scheduled", tracked, "max_lag", maxLag.Round(time.Millisecond), "rss_mib", prev.RSS>>20, "load", loadAvg())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if w.end, err = r.bot.stats(); err != nil {
		return nil, err
	}
	w.loadEnd = loadAvg()
	return w, nil
}

// sampleLags reads the schedule's lag (store.Lag) every tick until end and
// hands each reading to each; an error of each ends the sampling.
func sampleLags(ctx context.Context, r *rig, end time.Time, tick time.Duration, each func(lag time.Duration, ok bool) error) error {
	t := time.NewTicker(tick)
	defer t.Stop()
	for time.Now().Before(end) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		lag, ok, err := r.store.Stats().Lag(ctx)
		if err != nil {
			return fmt.Errorf("sampling the schedule: %w", err)
		}
		if err := each(lag, ok); err != nil {
			return err
		}
	}
	return nil
}

// memoryUsagePerJob asks Redis for the MEMORY USAGE of a sample of job
// records and thread links, and adds each job's share of the schedule.
func memoryUsagePerJob(ctx context.Context, r *rig, jobs []seededJob) (float64, error) {
	sample := make([]store.Job, min(len(jobs), memorySample))
	for i := range sample {
		sample[i] = store.Job{ID: jobs[i].ID, Thread: store.Thread{Team: loadTeam, Channel: loadChannel, TS: jobs[i].TS}}
	}
	per, err := r.store.Stats().JobMemory(ctx, sample, int64(len(jobs)))
	return round3(per), err
}
