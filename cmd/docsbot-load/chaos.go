package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store/redistest"
)

// chaosOptions are the flags of the chaos scenario.
type chaosOptions struct {
	replicas   int
	commands   int
	channels   int
	rate       float64
	replyEvery int
	killEvery  time.Duration
	redisDown  time.Duration
	dropEvery  time.Duration
	latency    time.Duration
	// readLatency is the latency of Slack's reads with --rolling (slackfront.go).
	readLatency time.Duration
	postRate    float64
	// postRateGiven: --post-rate was given (0 then asks for no limit).
	postRateGiven bool
	postBurst     int
	agentTime     time.Duration
	deadline      time.Duration
	seed          uint64
	logs          string
	// sentinel runs Redis with failover: the Redis fault SIGKILLs the
	// primary, and the sentinels promote the replica.
	sentinel bool
	// rolling replaces the crash faults with rolling updates (chaos_rolling.go).
	rolling      bool
	grace        time.Duration
	rolloutPause time.Duration
	minRollouts  int
	// runs repeats the whole run, with seeds seed, seed+1, …
	runs int
	// install runs the replicas in install mode over HTTP, added by link
	// to two workspaces whose tokens last tokenLifetime (chaos_install.go).
	install       bool
	tokenLifetime time.Duration
	// questions are asked of the docs assistant while the faults go on,
	// and their outcomes counted (chaos_questions.go); -1 for the default.
	questions int
}

func (o *chaosOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&o.replicas, "replicas", 3, "docsbot processes sharing one Redis")
	fs.IntVar(&o.commands, "commands", 0, "/docs-agent commands to send, each a job with a result (default 120; 150 with --rolling)")
	fs.IntVar(&o.channels, "channels", 3, "channels the commands are spread over")
	fs.Float64Var(&o.rate, "rate", 0, "commands per second (default 2; 2.5 with --rolling, a command every 400 ms)")
	fs.IntVar(&o.replyEvery, "reply-every", 3, "reply in the thread of every n-th job (0: never)")
	fs.DurationVar(&o.killEvery, "kill-every", 4*time.Second, "SIGKILL a random replica (and start a new one) this often (not with --rolling)")
	fs.DurationVar(&o.redisDown, "redis-down", 3*time.Second, "how long Redis stays down after its SIGKILL (once, 40% into the commands; not with --rolling)")
	fs.DurationVar(&o.dropEvery, "drop-every", 10*time.Second, "drop every Slack socket this often (0: never; not with --rolling)")
	fs.DurationVar(&o.latency, "slack-latency", 250*time.Millisecond, "latency of every Slack Web API call (with --rolling: but the reads; a call is carried out after it even if the replica hung up, as Slack does)")
	fs.DurationVar(&o.readLatency, "read-latency", 50*time.Millisecond, "with --rolling: latency of Slack's reads (conversations.history, conversations.replies), which Slack answers sooner than it posts")
	fs.Func("post-rate", "Slack's posting limit per channel, messages a second; 0: none (default 1; none with --rolling)", func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 {
			return fmt.Errorf("not a number of messages a second: %q", v)
		}
		o.postRate, o.postRateGiven = f, true
		return nil
	})
	fs.IntVar(&o.postBurst, "post-burst", 3, "the burst Slack's posting limit allows")
	fs.DurationVar(&o.agentTime, "agent-time", 3*time.Second, "how long every agent job runs at the API")
	fs.DurationVar(&o.deadline, "deadline", 10*time.Minute, "each run stops after this, counted or not")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the random faults (run k of --runs uses seed+k-1)")
	fs.StringVar(&o.logs, "logs", "", "append every replica's log (level info) to this file")
	fs.BoolVar(&o.sentinel, "sentinel", false, "run Redis as a primary, a replica and three sentinels; the Redis fault SIGKILLs the primary (a failover)")
	fs.BoolVar(&o.rolling, "rolling", false, "rolling updates instead of crashes, as Kubernetes does them: while the commands are sent, each replica in turn is replaced by a new one "+
		"(started, connected to Slack, then the old one gets SIGTERM and --grace to exit); no SIGKILL but past the grace, no Redis fault, no socket drops")
	fs.DurationVar(&o.grace, "grace", 30*time.Second, "with --rolling: how long a replica may take to exit after its SIGTERM before it is SIGKILLed (Kubernetes' terminationGracePeriodSeconds)")
	fs.DurationVar(&o.rolloutPause, "rollout-pause", 2*time.Second, "with --rolling: the most time between one rolling update's end and the next's start (each pause drawn from the seed)")
	fs.IntVar(&o.minRollouts, "min-rollouts", 1, "with --rolling: rolling updates that complete at least, going on after the last command if need be")
	fs.IntVar(&o.runs, "runs", 1, "repeat the run this many times and report each and their sum")
	fs.BoolVar(&o.install, "install", false, "install mode: the replicas serve Slack over HTTP behind a load balancer, added by link to two workspaces whose tokens rotate "+
		"within the run; the commands and replies come from both, Slack retries events as it does over HTTP, and no socket is dropped (not with --rolling)")
	o.questions = -1
	fs.Func("questions", "questions to ask docsbot's docs assistant while the faults go on (/docs-ask, mentions, a help channel), each followed by ✅, 👍/👎, a handoff, "+
		"an expert's reply or nothing; their answers and outcomes are counted at the end (default 36; 0: none; not with --install)", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("not a number of questions: %q", v)
		}
		o.questions = n
		return nil
	})
	fs.DurationVar(&o.tokenLifetime, "token-lifetime", time.Minute, "with --install: how long Slack's tokens last (refreshed once a quarter of that is left: every 45 s by default, several times a run)")
}

// withDefaults fills in the options whose defaults depend on the mode.
func (o chaosOptions) withDefaults() chaosOptions {
	if o.commands == 0 {
		o.commands = 120
		switch {
		case o.rolling:
			o.commands = 150
		case o.install:
			o.commands = 240 // two minutes: the tokens are refreshed while the faults go on
		}
	}
	if o.rate == 0 {
		o.rate = 2
		if o.rolling {
			o.rate = 2.5
		}
	}
	if o.postRate == 0 && !o.postRateGiven && !o.rolling {
		o.postRate = 1
	}
	if o.runs == 0 {
		o.runs = 1
	}
	if o.questions < 0 {
		o.questions = 36
		if o.install {
			o.questions = 0
		}
	}
	return o
}

// chaosPrompt is the instruction of command i; chaosReply the reply to job i.
func chaosPrompt(i int) string {
	return fmt.Sprintf("Chaos command %06d: document the retry settings", i)
}
func chaosReply(i int) string { return fmt.Sprintf("Chaos reply %06d: also mention Retry-After", i) }

// chaosCommand is what was sent for command i and what Slack saw of it.
type chaosCommand struct {
	channel  string
	envelope string // the slash command's envelope id
	trigger  string
	sentAt   time.Time
}

// chaosReplyRec is one thread reply sent.
type chaosReplyRec struct {
	index     int
	channel   string
	thread    string
	user      string // who replied
	ts        string
	eventID   string
	timedOut  bool // Slack never had an ack for it while the sender waited
	sentAfter time.Time
	// fate is what Slack made of its event's deliveries once settled.
	fate slacktest.EventFate
}

// failover SIGKILLs the primary of a Sentinel deployment and waits until
// the sentinels promote the replica; the old primary is then started again,
// and rejoins as a replica.
func failover(ctx context.Context, r *rig, res *chaosResult, fault func()) {
	old, err := r.sentinel.Primary(ctx)
	if err != nil {
		r.log.Error("chaos: asking the sentinels for the primary", "err", err)
		return
	}
	var node *redistest.Server
	for _, n := range r.sentinel.Nodes {
		if n.Addr == old {
			node = n
		}
	}
	if node == nil {
		r.log.Error("chaos: the primary is no node of ours", "primary", old)
		return
	}
	r.log.Info("chaos: SIGKILL the Redis primary", "primary", old)
	began := time.Now()
	if err := node.Kill(); err != nil {
		r.log.Error("chaos: killing the primary", "err", err)
		return
	}
	fault()
	now, err := r.sentinel.WaitFailover(old, time.Minute)
	if err != nil {
		r.log.Error("chaos: waiting for the failover", "err", err)
		return
	}
	res.RedisKills++
	res.Failover = time.Since(began)
	r.log.Info("chaos: failed over", "primary", now, "took", res.Failover.Round(time.Millisecond))
	if err := node.Start(); err != nil {
		r.log.Error("chaos: starting the old primary again", "err", err)
	}
	fault()
}

// lockedWriter serializes writes of several processes' output.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// runChaos runs the chaos scenario: see chaosOptions and chaosResult.
func runChaos(ctx context.Context, e env, o chaosOptions) (*chaosResult, error) {
	o = o.withDefaults()
	if o.replicas < 1 || o.commands < 1 || o.channels < 1 || o.rate <= 0 || o.postRate < 0 {
		return nil, errors.New("chaos: --replicas, --commands, --channels and --rate must be positive, --post-rate not negative")
	}
	if o.rolling && (o.grace <= 0 || o.rolloutPause < 0 || o.minRollouts < 0) {
		return nil, errors.New("chaos: --grace must be positive, --rollout-pause and --min-rollouts not negative")
	}
	if o.install && (o.rolling || o.tokenLifetime < time.Minute || o.questions > 0) {
		return nil, errors.New("chaos: --install does not go with --rolling nor --questions, and wants --token-lifetime of a minute at least")
	}
	ctx, cancel := context.WithTimeout(ctx, o.deadline)
	defer cancel()
	bin, cleanup, err := botBinary(ctx, e)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	began := time.Now()
	agent := docsapitest.Lifecycle{ActiveFor: o.agentTime}
	slackOpts := []slacktest.Option{slacktest.WithRedelivery(3 * time.Second), slacktest.WithPostLimit(o.postRate, o.postBurst)}
	var front *slacktest.Balancer
	if o.install {
		front = slacktest.NewBalancer()
		defer front.Close()
		slackOpts = append(slackOpts, installSlackOptions(front.URL, o.tokenLifetime)...)
	}
	r, err := newRig(e.log, rigOptions{
		bin: bin, botEnv: e.botEnv,
		redis:    []redistest.Option{redistest.WithAppendOnly()},
		sentinel: o.sentinel,
		slack:    slackOpts,
		// The API's hourly limits on creates and messages are not what this
		// run is about (the bot's answer to them has tests of its own).
		api: []docsapitest.Option{docsapitest.WithLifecycle(func(string) docsapitest.Lifecycle { return agent }),
			docsapitest.WithLimits(docsapitest.Limits{Create: 100_000, Message: 100_000})},
	})
	if err != nil {
		return nil, err
	}
	defer r.close()
	// A call takes its latency at Slack, and is carried out even when the
	// replica that sent it stopped meanwhile. With --rolling, reads answer
	// sooner than posts land (as at Slack), so that a replica may read a
	// thread before a post another replica sent earlier is in it.
	r.slack.SetAPILatency("", o.latency)
	if o.rolling {
		for _, m := range []string{"conversations.history", "conversations.replies"} {
			r.slack.SetAPILatency(m, o.readLatency)
		}
	}
	workspaces := chaosWorkspaces(r.slack, o.channels, o.install)
	var channels []string
	for _, ws := range workspaces {
		channels = append(channels, ws.channels...)
	}

	res := &chaosResult{Scenario: "chaos", Rolling: o.rolling, Seed: o.seed, Machine: thisMachine(), LoadStart: loadAvg(), Options: o.describe()}
	fleet := newFleet(r, o.replicas, []string{
		"DOCSBOT_POLL_INTERVAL=1s", "DOCSBOT_POLL_MAX_INTERVAL=2s",
	})
	if o.questions > 0 {
		fleet.settings = append(fleet.settings, questionsWorld(r, o.questions)...)
	}
	var key string
	if o.install {
		// Ops beside Slack's paths: /readyz on each replica's address.
		key = newSecretsKey()
		fleet.front = front
		fleet.settings = append(fleet.settings, append(installSettings(front.URL, key), "DOCSBOT_OPS_ADDR=")...)
	}
	defer fleet.stopAll()
	if o.logs != "" {
		lf, err := os.OpenFile(o.logs, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, fmt.Errorf("chaos: --logs: %w", err)
		}
		defer lf.Close()
		fleet.logs = &lockedWriter{w: lf}
		fleet.settings = append(fleet.settings, "DOCSBOT_LOG_LEVEL=info")
	}
	if err := fleet.startAll(ctx); err != nil {
		return nil, err
	}
	if o.install {
		for _, ws := range workspaces {
			if err := installByLink(ctx, r, front.URL, ws.team, ws.person); err != nil {
				return nil, fmt.Errorf("chaos: %w", err)
			}
		}
		r.log.Info("chaos: docsbot added by link", "workspaces", len(workspaces), "token_lifetime", o.tokenLifetime)
	}

	// Faults run while the commands and replies are sent.
	rng := rand.New(rand.NewPCG(o.seed, o.seed+1))
	faultsCtx, stopFaults := context.WithCancel(ctx)
	var faults sync.WaitGroup
	var rolling *rollingUpdates
	defer func() {
		stopFaults()
		faults.Wait()
		if rolling != nil {
			rolling.wait()
		}
	}()
	var lastFault atomic.Int64
	fault := func() { lastFault.Store(time.Now().UnixNano()) }
	redisAt := make(chan struct{})
	if o.rolling {
		rolling = newRollingUpdates(fleet, o.grace, o.minRollouts, fault)
		faults.Go(func() { rolling.run(ctx, faultsCtx, rng, o.rolloutPause) })
	} else {
		faults.Go(func() {
			for sleep(faultsCtx, o.killEvery) {
				if fleet.killOne(faultsCtx, rng.IntN(o.replicas)) {
					res.ReplicaKills++
					res.killedAt = append(res.killedAt, time.Now())
					fault()
				}
			}
		})
		if o.dropEvery > 0 && !o.install {
			faults.Go(func() {
				for sleep(faultsCtx, o.dropEvery) {
					r.slack.DropConnections()
					res.SocketDrops++
					fault()
				}
			})
		}
		faults.Go(func() {
			select {
			case <-redisAt:
			case <-faultsCtx.Done():
				return
			}
			if o.sentinel {
				failover(ctx, r, res, fault)
				return
			}
			r.log.Info("chaos: SIGKILL redis-server", "down_for", o.redisDown)
			if err := r.redis.Kill(); err != nil {
				r.log.Error("chaos: killing redis", "err", err)
				return
			}
			fault()
			sleep(ctx, o.redisDown)
			if err := r.redis.Start(); err != nil {
				r.log.Error("chaos: starting redis again", "err", err)
				return
			}
			res.RedisKills++
			fault()
		})
	}

	// The questions, spread over the time the commands take.
	questions, questionsAsked := askQuestions(ctx, r, o.questions, time.Duration(float64(o.commands)/o.rate*float64(time.Second)))
	defer questionsAsked()

	// The commands, spread over the channels at the rate asked.
	sent := make([]chaosCommand, o.commands)
	tick := time.NewTicker(time.Duration(float64(time.Second) / o.rate))
	var replies []chaosReplyRec
	var replyMu sync.Mutex
	var senders sync.WaitGroup
	replied := map[int]bool{}
	r.log.Info("chaos: sending commands", "commands", o.commands, "replicas", o.replicas)
	for i := range o.commands {
		if i == o.commands*2/5 {
			close(redisAt)
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			tick.Stop()
			return nil, ctx.Err()
		}
		ws, ch := commandAt(workspaces, i)
		env, trig, err := r.slack.SendSlashCommand(ctx, slacktest.SlashCommand{Command: "/docs-agent", Text: chaosPrompt(i), UserID: ws.person, ChannelID: ch})
		if err != nil {
			return nil, fmt.Errorf("chaos: command %d: %w", i, err)
		}
		sent[i] = chaosCommand{channel: ch, envelope: env, trigger: trig, sentAt: time.Now()}
		// Reply in the threads of jobs that show they started.
		if o.replyEvery > 0 {
			for j, root := range linkedRoots(r.slack, channels) {
				if j%o.replyEvery != 0 || replied[j] {
					continue
				}
				replied[j] = true
				senders.Go(func() {
					rec := sendChaosReply(ctx, r.slack, j, root, personIn(workspaces, root[0]))
					replyMu.Lock()
					replies = append(replies, rec)
					replyMu.Unlock()
				})
			}
		}
	}
	tick.Stop()
	senders.Wait()
	questionsAsked()
	if rolling != nil {
		// Rolling updates go on until --min-rollouts are complete.
		select {
		case <-rolling.reached:
		case <-ctx.Done():
			res.issues = append(res.issues, fmt.Sprintf("fewer than %d rolling updates complete before the deadline", o.minRollouts))
		}
	}
	stopFaults()
	faults.Wait()
	if rolling != nil {
		rolling.wait()
		rolling.record(res)
	}
	if lastFault.Load() == 0 {
		fault()
	}
	res.LastFault = time.Unix(0, lastFault.Load())
	if err := fleet.ensureAll(ctx); err != nil {
		return nil, err
	}

	r.log.Info("chaos: faults stopped; waiting for every job to be reported", "replica_kills", res.ReplicaKills, "redis_kills", res.RedisKills)
	// Slack keeps sending a reply's event that no replica acknowledged
	// until its last retry: the work it brings is not in Redis yet, so
	// the drain below could not wait for it.
	if err := waitSettled(ctx, r.slack, replies); err != nil {
		res.issues = append(res.issues, "thread replies still being delivered by Slack at the deadline: "+err.Error())
	}
	drained, err := waitDrained(ctx, r)
	if err != nil {
		res.issues = append(res.issues, "not drained before the deadline: "+err.Error())
	}
	res.drained = err == nil
	res.Drain = drained.Sub(res.LastFault)
	if res.Drain < 0 {
		res.Drain = 0
	}
	// What Slack made of each reply's event, read while every replica still
	// runs: stopping them closes their connections.
	for i := range replies {
		replies[i].fate, _ = r.slack.EventFate(replies[i].eventID)
	}
	fleet.stopAll()
	res.count(r, o, sent, replies, channels)
	if o.questions > 0 {
		res.countQuestions(ctx, r, questions, began)
	}
	if o.install {
		res.countInstall(ctx, r, o, key, front, sent, replies, workspaces)
	}
	res.LoadEnd = loadAvg()
	res.Restarts = fleet.restarts
	if o.rolling && res.Restarts > 0 {
		res.issues = append(res.issues, fmt.Sprintf("%d replicas exited without being asked to (and were started again)", res.Restarts))
	}
	res.Took = time.Since(began)
	return res, nil
}
