package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// getsFor returns how many get-job calls docsbot makes for a job that runs
// for running, and how long after the job finished the last of them (the
// one that sees it finished) comes.
//
// It follows the bot's nominal schedule, docsapi.PollDelay, without the poller's
// ±10% jitter: the first poll comes interval after the job starts (the bot
// links the job with that delay), the next docsapi.PollDelay after each poll.
// The first poll at or after running finds the job finished and is the last.
func getsFor(running, interval, maxInterval time.Duration) (gets int, notice time.Duration) {
	if interval <= 0 || maxInterval < interval {
		return 0, 0
	}
	t := interval
	gets = 1
	for t < running && gets < 1e7 {
		t += docsapi.PollDelay(interval, maxInterval, gets)
		gets++
	}
	return gets, t - running
}

// scheduleOptions are the flags of the schedule scenario.
type scheduleOptions struct {
	interval    time.Duration
	maxInterval time.Duration
	scale       float64
	perTime     int
	times       durations
	lead        time.Duration
	filler      int
	stagger     time.Duration
}

// register adds the scenario's flags to fs.
func (o *scheduleOptions) register(fs *flag.FlagSet) {
	fs.DurationVar(&o.interval, "interval", 10*time.Second, "DOCSBOT_POLL_INTERVAL the formula uses")
	fs.DurationVar(&o.maxInterval, "max-interval", time.Minute, "DOCSBOT_POLL_MAX_INTERVAL the formula uses")
	fs.Float64Var(&o.scale, "scale", 500, "the empirical run divides intervals and running times by this (10s → 20ms)")
	fs.IntVar(&o.perTime, "per", 5, "jobs per running time in the empirical run")
	fs.DurationVar(&o.lead, "lead", 2*time.Second, "time from the start of the links to the jobs' start (covers the bot's start)")
	fs.IntVar(&o.filler, "filler", 20, "always-running jobs added so the poller is never idle (0: only the measured jobs)")
	o.stagger = -1 // one scaled max interval
	fs.Func("stagger", "the measured jobs start spread over this much scaled time (default: one scaled max interval; 0: all at once)", durationFlag(&o.stagger))
	o.times = durations{time.Minute, 5 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour, 4 * time.Hour}
	fs.Var(&o.times, "times", "comma-separated running times")
}

// durationFlag sets *d from a flag's value: a duration, not negative.
func durationFlag(d *time.Duration) func(string) error {
	return func(v string) error {
		x, err := time.ParseDuration(v)
		if err != nil || x < 0 {
			return fmt.Errorf("%q is not a duration such as 100ms or 10s", v)
		}
		*d = x
		return nil
	}
}

// durations is a comma-separated list of durations.
type durations []time.Duration

func (d *durations) String() string {
	parts := make([]string, len(*d))
	for i, x := range *d {
		parts[i] = x.String()
	}
	return strings.Join(parts, ",")
}

func (d *durations) Set(v string) error {
	var out durations
	for part := range strings.SplitSeq(v, ",") {
		x, err := time.ParseDuration(strings.TrimSpace(part))
		if err != nil || x < 0 {
			return fmt.Errorf("%q is not a duration", part)
		}
		out = append(out, x)
	}
	*d = out
	return nil
}

// scheduleRow compares the formula with the bot for one running time.
type scheduleRow struct {
	Running        string  `json:"running"`
	FormulaGets    int     `json:"formula_gets"`
	FormulaNoticeS float64 `json:"formula_finish_seen_after_s"`
	Jobs           int     `json:"jobs"`
	MeasuredMean   float64 `json:"bot_gets_mean"`
	MeasuredMin    int     `json:"bot_gets_min"`
	MeasuredMax    int     `json:"bot_gets_max"`
}

// scheduleResult is the report of the schedule scenario.
type scheduleResult struct {
	Scenario       string        `json:"scenario"`
	Machine        machine       `json:"machine"`
	LoadStart      string        `json:"load_average_start"`
	LoadEnd        string        `json:"load_average_end"`
	Interval       string        `json:"interval"`
	MaxInterval    string        `json:"max_interval"`
	Scale          float64       `json:"scale"`
	ScaledInterval string        `json:"scaled_interval"`
	ScaledMax      string        `json:"scaled_max_interval"`
	Filler         int           `json:"filler_jobs"`
	Stagger        string        `json:"stagger"`
	Rows           []scheduleRow `json:"rows"`
	// FirstLate is how late each job's first poll came (scaled time).
	FirstLate summary `json:"first_poll_late"`
	// Excess is, for every later poll, the time since the previous one minus
	// the formula's delay: the jitter (±10% of the delay) plus the bot's own
	// delay (scaled time).
	Excess       summary     `json:"excess_per_poll"`
	MeanExcessMs float64     `json:"excess_per_poll_mean_ms"`
	Results      resultCheck `json:"results"`

	issues []string
}

func (r *scheduleResult) title() string {
	return fmt.Sprintf("docsbot-load schedule: get-job calls per job (poll interval %s, max %s)", r.Interval, r.MaxInterval)
}

func (r *scheduleResult) problems() []string { return r.issues }

func (r *scheduleResult) sections() []section {
	s := section{heading: fmt.Sprintf("GETs per job: the formula (no jitter) vs the bot at 1/%g scale (%s, max %s; jobs start over %s, %d filler jobs)",
		r.Scale, r.ScaledInterval, r.ScaledMax, r.Stagger, r.Filler)}
	for _, x := range r.Rows {
		s.rows = append(s.rows, fig("running "+x.Running,
			"formula %3d (finish seen %4.1f s late) · bot %5.1f (%d–%d over %d jobs)",
			x.FormulaGets, x.FormulaNoticeS, x.MeasuredMean, x.MeasuredMin, x.MeasuredMax, x.Jobs))
	}
	d := section{heading: "Poll timing of the bot against the formula (scaled times)", rows: []row{
		fig("first poll late", "p50 %s, max %s", ms(r.FirstLate.P50), ms(r.FirstLate.Max)),
		fig("later polls: gap − formula delay", "mean %.2f ms, p50 %s, p90 %s, max %s (jitter alone: ±10%% of the delay)",
			r.MeanExcessMs, ms(r.Excess.P50), ms(r.Excess.P90), ms(r.Excess.Max)),
		fig("results posted / jobs finished", "%d / %d (duplicates %d, missing %d)",
			r.Results.Posted, r.Results.Finished, r.Results.Duplicates, r.Results.Missing),
	}}
	return []section{s, d, machineSection(r.Machine, r.LoadStart, r.LoadEnd)}
}

// runSchedule computes the get-job calls per running time from the formula
// and counts them for the real bot at a scaled-down schedule.
func runSchedule(ctx context.Context, e env, o scheduleOptions) (*scheduleResult, error) {
	switch {
	case o.interval <= 0 || o.maxInterval < o.interval:
		return nil, errors.New("schedule: --interval must be positive and --max-interval at least --interval")
	case o.scale < 1 || o.perTime <= 0 || len(o.times) == 0 || o.filler < 0:
		return nil, errors.New("schedule: --scale must be at least 1, --per positive, --times not empty, --filler not negative")
	}
	scaled := func(d time.Duration) time.Duration { return time.Duration(float64(d) / o.scale) }
	si, sm := scaled(o.interval), scaled(o.maxInterval)
	if o.stagger < 0 {
		o.stagger = sm
	}
	if si < time.Millisecond {
		return nil, errors.New("schedule: --scale leaves an interval under 1ms")
	}
	longest := time.Duration(0)
	for _, t := range o.times {
		longest = max(longest, scaled(t))
	}
	ctx, cancel := context.WithTimeout(ctx, o.lead+2*longest+2*time.Minute)
	defer cancel()
	bin, cleanup, err := botBinary(ctx, e)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	e.bin = bin

	res := &scheduleResult{
		Scenario: "schedule", Machine: thisMachine(), Interval: o.interval.String(), MaxInterval: o.maxInterval.String(),
		Scale: o.scale, ScaledInterval: si.String(), ScaledMax: sm.String(), LoadStart: loadAvg(),
		Filler: o.filler, Stagger: o.stagger.String(),
	}
	// Measured job i starts at offsets[i] after t0: first polled an interval
	// later, finished its running time later. Starting them spread out, and
	// adding filler jobs that never finish, keeps the poller waking every few
	// milliseconds, as it does when it follows many jobs; see BENCHMARKS.md
	// for what a poller with nothing else to do does.
	measured := len(o.times) * o.perTime
	offsets := make([]time.Duration, 0, measured)
	var plans []jobPlan
	for _, t := range o.times {
		for range o.perTime {
			off := o.stagger * time.Duration(len(plans)) / time.Duration(measured)
			offsets = append(offsets, off)
			plans = append(plans, jobPlan{FirstPoll: off + si, Lifecycle: docsapitest.Lifecycle{ActiveFor: off + scaled(t), Outcome: docsapitest.OutcomePR}})
		}
	}
	for i := range o.filler {
		plans = append(plans, jobPlan{
			FirstPoll: si + sm*time.Duration(i)/time.Duration(o.filler),
			Lifecycle: docsapitest.Lifecycle{ActiveFor: 10*longest + time.Hour, Outcome: docsapitest.OutcomePR},
		})
	}
	clock := newHeldClock()
	r, err := newRig(e.log, rigOptions{
		bin: e.bin, botEnv: e.botEnv,
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
	seeded, err := seed(ctx, r, clock, plans, o.lead)
	if err != nil {
		return nil, err
	}
	if err := r.startBot(ctx, "DOCSBOT_POLL_INTERVAL="+si.String(), "DOCSBOT_POLL_MAX_INTERVAL="+sm.String()); err != nil {
		return nil, err
	}
	if time.Now().After(seeded.T0) || seeded.LateLinks > 0 {
		return nil, errors.New("schedule: the bot or the links were not ready when the jobs started: raise --lead")
	}
	jobs := seeded.Jobs[:measured]
	e.log.Info("following the jobs", "jobs", measured, "filler", o.filler, "longest", longest)
	werr := pollUntil(ctx, 100*time.Millisecond, func() bool {
		return checkResults(r.slack, r.api, jobs).Posted >= len(jobs) || r.bot.alive() != nil
	})
	if err := r.bot.alive(); err != nil {
		return nil, err
	}
	res.LoadEnd = loadAvg()
	if err := r.stopBot(); err != nil {
		res.issues = append(res.issues, err.Error())
	}
	if werr != nil {
		res.issues = append(res.issues, fmt.Sprintf("not every job's result was posted in time: %v", werr))
	}
	res.Results = checkResults(r.slack, r.api, jobs)
	res.issues = append(res.issues, res.Results.problems()...)
	if res.Results.Finished != len(jobs) {
		res.issues = append(res.issues, fmt.Sprintf("%d of %d jobs finished", res.Results.Finished, len(jobs)))
	}

	// When each job was polled, in server time since t0.
	at := map[string][]time.Duration{}
	for _, q := range r.api.Requests() {
		if q.Endpoint == docsapitest.EndpointGet {
			id := q.Path[strings.LastIndexByte(q.Path, '/')+1:]
			at[id] = append(at[id], q.At.Sub(clock.start))
		}
	}
	var first, excess []time.Duration
	var sum time.Duration
	for i, j := range jobs {
		ts := at[j.ID]
		slices.Sort(ts)
		if len(ts) == 0 {
			continue
		}
		first = append(first, ts[0]-offsets[i]-si)
		for k := 1; k < len(ts); k++ {
			x := ts[k] - ts[k-1] - docsapi.PollDelay(si, sm, k) // the delay after the k-th poll
			excess = append(excess, x)
			sum += x
		}
	}
	res.FirstLate, res.Excess = summarize(first), summarize(excess)
	if len(excess) > 0 {
		res.MeanExcessMs = msf(sum / time.Duration(len(excess)))
	}
	for k, t := range o.times {
		row := scheduleRow{Running: t.String(), Jobs: o.perTime, MeasuredMin: math.MaxInt}
		var notice time.Duration
		row.FormulaGets, notice = getsFor(t, o.interval, o.maxInterval)
		row.FormulaNoticeS = round3(notice.Seconds())
		sum := 0
		for _, j := range jobs[k*o.perTime : (k+1)*o.perTime] {
			n := len(at[j.ID])
			sum += n
			row.MeasuredMin, row.MeasuredMax = min(row.MeasuredMin, n), max(row.MeasuredMax, n)
		}
		row.MeasuredMean = round3(float64(sum) / float64(o.perTime))
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}
