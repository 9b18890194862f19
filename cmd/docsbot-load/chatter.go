package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// Goals of the chatter scenario (issue 40, item 3): in a help channel in
// auto, a message that is not a question costs no Redis command and at most
// targetChatterCPU times the CPU of a bare bot that acks and drops it.
const (
	targetChatterCPU = 1.2
	// targetChatterRedis is the most Redis commands a chatter message may
	// cost beyond the idle loops: none. The idle loops' rate is measured
	// at rest and taken off, but they send in bursts (each replica reads
	// the heads of its schedules, 33 commands, every 5 s; the inbox gauge,
	// 16, every 30 s) that the window's edges cut, so that a minute of
	// 2,000 messages is off by a few hundredths either way.
	targetChatterRedis = 0.05
)

// chatterOptions are the flags of the chatter scenario.
type chatterOptions struct {
	perMinute int
	channels  int
	// questionEvery makes every n-th message of the mixed phase a
	// question: 10 is a tenth.
	questionEvery int
	duration      time.Duration
	replicas      int
	deltaDelay    time.Duration
	idle          time.Duration
	settle        time.Duration
	// peer is the bot run after docsbot under the chatter phase: peerBare
	// or peerNone; peerEnv is added to its environment.
	peer    string
	peerEnv envList
}

// register adds the scenario's flags to fs.
func (o *chatterOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&o.perMinute, "per-minute", 2000, "messages a minute, all channels together")
	fs.IntVar(&o.channels, "channels", 200, "help channels in auto mode the messages are spread over")
	fs.IntVar(&o.questionEvery, "question-every", 10, "in the mixed phase, every n-th message is a question (10: a tenth)")
	fs.DurationVar(&o.duration, "duration", time.Minute, "how long each phase sends (chatter alone, then mixed with questions)")
	fs.IntVar(&o.replicas, "replicas", 2, "replicas (docsbot serve, and bare bots) the messages are spread over")
	fs.DurationVar(&o.deltaDelay, "delta-delay", 100*time.Millisecond, "the assistant's wait between two pieces of an answer")
	fs.DurationVar(&o.idle, "idle", 35*time.Second, "how long to measure the replicas at rest before the phases (past 30 s: the inbox gauge's period)")
	fs.DurationVar(&o.settle, "settle", time.Second, "how long a phase's window goes on after its last message was acked (and, mixed, its last question answered)")
	fs.StringVar(&o.peer, "peer", peerBare, "bare: run bare slack-go bots (ack and drop) under the chatter phase too, for docsbot's ratio to them; none: do not")
	fs.Var(&o.peerEnv, "peer-env", "extra KEY=VALUE for the bare bots' environment (repeatable); "+peerProfileEnv+"=FILE writes a CPU profile")
}

// chatterResult is the report of the chatter scenario.
type chatterResult struct {
	Scenario      string  `json:"scenario"`
	Machine       machine `json:"machine"`
	LoadStart     string  `json:"load_average_start"`
	LoadEnd       string  `json:"load_average_end"`
	PerMinute     int     `json:"messages_per_minute"`
	Channels      int     `json:"channels"`
	Replicas      int     `json:"replicas"`
	QuestionEvery int     `json:"question_every"`
	Duration      string  `json:"phase_duration"`

	Docsbot chatterPeer  `json:"docsbot"`
	Bare    *chatterPeer `json:"bare_bot,omitempty"`
	// CPURatio and NetCPURatio are docsbot's CPU per chatter message over
	// the bare bot's, in all and net of each one's idle rate.
	CPURatio    float64 `json:"cpu_per_chatter_message_over_bare"`
	NetCPURatio float64 `json:"net_cpu_per_chatter_message_over_bare"`

	issues []string
}

// chatterPeer is what one kind of bot (docsbot's replicas, or the bare
// bots) did: its idle rate, the chatter phase and, for docsbot, the mixed.
type chatterPeer struct {
	IdleCPUmsPerS float64       `json:"idle_cpu_ms_per_s"`
	Chatter       phaseFigures  `json:"chatter"`
	Mixed         *phaseFigures `json:"mixed,omitempty"`
	// Of the mixed phase: its questions, answered once each in their
	// thread (Answered), answered more than once (Doubled), the assistant's
	// questions, and chatter the bot replied to or reacted on (none).
	Questions      int `json:"questions"`
	Answered       int `json:"answered_once"`
	Doubled        int `json:"answered_more_than_once"`
	AssistantAsks  int `json:"assistant_questions"`
	ChatterAnswers int `json:"chatter_replied_to"`
	// Memory is each replica's at the end.
	Memory  []procStats `json:"memory"`
	LogLine int         `json:"log_lines"`
}

// phaseFigures are one phase's: the messages sent and acked, the ack
// latency, the replicas' CPU (summed) per message, in all and net of the
// idle rate, and the Redis commands and Slack calls per message.
type phaseFigures struct {
	Messages       int      `json:"messages"`
	Acked          int      `json:"acked"`
	SentPerMinute  float64  `json:"sent_per_minute"`
	Ack            summary  `json:"ack_latency"`
	WindowSeconds  float64  `json:"window_s"`
	CPUms          float64  `json:"cpu_ms"`
	CPUPerMsgMs    float64  `json:"cpu_per_message_ms"`
	NetCPUPerMsgMs float64  `json:"cpu_per_message_net_of_idle_ms"`
	Cost           unitCost `json:"per_message"`
}

func (r *chatterResult) title() string {
	return fmt.Sprintf("docsbot-load chatter: %d messages a minute over %d help channels in auto, to %d replicas; %s of chatter alone, then %s with a question every %d",
		r.PerMinute, r.Channels, r.Replicas, r.Duration, r.Duration, r.QuestionEvery)
}

func (r *chatterResult) problems() []string { return r.issues }

func (r *chatterResult) sections() []section {
	d := &r.Docsbot
	c := d.Chatter
	net := c.Cost.Redis
	if c.Cost.Net != nil {
		net = c.Cost.Net.Redis
	}
	out := []section{{heading: "docsbot: chatter alone (no message a question)", rows: append([]row{
		fig("messages sent / acked", "%d / %d (%.0f a minute)", c.Messages, c.Acked, c.SentPerMinute),
		fig("ack latency p50 / p99", "%s / %s", ms(c.Ack.P50), ms(c.Ack.P99)),
		fig("CPU per message (replicas summed)", "%.3f ms (%.0f ms over %.1f s; at rest %.2f ms/s)", c.CPUPerMsgMs, c.CPUms, c.WindowSeconds, d.IdleCPUmsPerS),
		fig("CPU per message net of idle", "%.3f ms", c.NetCPUPerMsgMs),
		goal("Redis commands per message beyond the idle loops", fmt.Sprintf("%.3f", net), fmt.Sprintf("≤ %.2f (none)", targetChatterRedis), net <= targetChatterRedis),
	}, c.Cost.rows("message")...)}}
	if m := d.Mixed; m != nil {
		out = append(out, section{heading: fmt.Sprintf("docsbot: chatter with a question every %d messages", r.QuestionEvery), rows: append([]row{
			fig("messages sent / acked", "%d / %d (%.0f a minute)", m.Messages, m.Acked, m.SentPerMinute),
			goal("questions answered once each", fmt.Sprintf("%d of %d (%d more than once)", d.Answered, d.Questions, d.Doubled), "all, once",
				d.Answered == d.Questions && d.Doubled == 0),
			fig("assistant questions", "%d", d.AssistantAsks),
			goal("chatter replied to or reacted on", fmt.Sprintf("%d", d.ChatterAnswers), "none", d.ChatterAnswers == 0),
			fig("ack latency p50 / p99", "%s / %s", ms(m.Ack.P50), ms(m.Ack.P99)),
			fig("CPU per message (replicas summed)", "%.3f ms (%.0f ms over %.1f s, to the last answer)", m.CPUPerMsgMs, m.CPUms, m.WindowSeconds),
			fig("CPU per message net of idle", "%.3f ms", m.NetCPUPerMsgMs),
		}, m.Cost.rows("message")...)})
	}
	if b := r.Bare; b != nil {
		x := func(v float64) string { return fmt.Sprintf("%.2f×", v) }
		out = append(out, section{heading: "Beside bare slack-go bots (ack and drop) under the same chatter, run after docsbot", rows: []row{
			fig("bare bots: messages sent / acked", "%d / %d", b.Chatter.Messages, b.Chatter.Acked),
			fig("bare bots: ack latency p50 / p99", "%s / %s", ms(b.Chatter.Ack.P50), ms(b.Chatter.Ack.P99)),
			fig("bare bots: CPU per message", "%.3f ms (net of idle %.3f ms; at rest %.2f ms/s)", b.Chatter.CPUPerMsgMs, b.Chatter.NetCPUPerMsgMs, b.IdleCPUmsPerS),
			goal("docsbot / bare: CPU per chatter message", x(r.CPURatio), fmt.Sprintf("≤ %.1f×", targetChatterCPU), r.CPURatio <= targetChatterCPU),
			fig("docsbot / bare: the same net of each one's idle rate", "%s", x(r.NetCPURatio)),
			fig("RSS at the end, docsbot / bare (each replica)", "%s / %s", rssList(d.Memory), rssList(b.Memory)),
		}})
	}
	return append(out, machineSection(r.Machine, r.LoadStart, r.LoadEnd))
}

// rssList is each process's RSS, in MiB.
func rssList(ps []procStats) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, mib(p.RSS))
	}
	return strings.Join(parts, ", ")
}

// runChatter sends people's messages to help channels in auto mode, over
// replicas of the real bot: first chatter alone, then chatter with a
// question every o.questionEvery messages, and measures what a message
// costs (CPU, Redis, Slack) and that each question is answered once; then,
// with o.peer, the chatter alone to bare slack-go bots that ack and drop.
func runChatter(ctx context.Context, e env, o chatterOptions) (*chatterResult, error) {
	if o.perMinute <= 0 || o.channels <= 0 || o.questionEvery < 2 || o.duration <= 0 || o.replicas < 1 || o.idle <= 0 {
		return nil, errors.New("chatter: --per-minute, --channels, --duration, --replicas and --idle must be positive, --question-every at least 2")
	}
	peer, err := peerOf(o.peer)
	if err != nil || peer == peerSameWork {
		return nil, fmt.Errorf("chatter: --peer %q: want bare or none", o.peer)
	}
	ctx, cancel := context.WithTimeout(ctx, 3*o.duration+3*o.idle+5*time.Minute)
	defer cancel()
	bin, cleanup, err := botBinary(ctx, e)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	res := &chatterResult{Scenario: "chatter", Machine: thisMachine(), PerMinute: o.perMinute, Channels: o.channels,
		Replicas: o.replicas, QuestionEvery: o.questionEvery, Duration: o.duration.String(), LoadStart: loadAvg()}

	d, issues, err := measureChatter(ctx, e, o, rigOptions{bin: bin, botEnv: e.botEnv}, true)
	if err != nil {
		return nil, fmt.Errorf("docsbot: %w", err)
	}
	res.Docsbot, res.issues = *d, issues
	if peer == peerBare {
		self, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("the bare bot runs docsbot-load itself: %w", err)
		}
		b, issues, err := measureChatter(ctx, e, o, rigOptions{bin: self, args: []string{bareBotCommand}, botEnv: o.peerEnv}, false)
		if err != nil {
			return nil, fmt.Errorf("bare bot: %w", err)
		}
		res.Bare = b
		for _, s := range issues {
			res.issues = append(res.issues, "bare bot: "+s)
		}
		if b.Chatter.CPUPerMsgMs > 0 {
			res.CPURatio = round3(d.Chatter.CPUPerMsgMs / b.Chatter.CPUPerMsgMs)
		}
		if b.Chatter.NetCPUPerMsgMs > 0 {
			res.NetCPURatio = round3(d.Chatter.NetCPUPerMsgMs / b.Chatter.NetCPUPerMsgMs)
		}
	}
	res.LoadEnd = loadAvg()
	return res, nil
}

// measureChatter runs o.replicas of ro's bot against servers of their own
// (docsbot with the channels in auto, answering from the docs API test
// server's assistant), warms them up, measures them at rest, then sends the
// chatter phase and, with mixed, the mixed phase.
func measureChatter(ctx context.Context, e env, o chatterOptions, ro rigOptions, mixed bool) (*chatterPeer, []string, error) {
	ro.api = []docsapitest.Option{docsapitest.WithLimits(docsapitest.Limits{}), docsapitest.WithDeltaDelay(o.deltaDelay)}
	r, err := newRig(e.log, ro)
	if err != nil {
		return nil, nil, err
	}
	defer r.close()
	w := newChatterWorld(r, o)
	questions := 2 * (o.perMinute*int(o.duration/time.Second)/60/o.questionEvery + o.replicas + 1)
	bots, stop, err := r.startReplicas(ctx, o.replicas, "DOCS_ASSISTANT_KEY="+r.api.AssistantKey, "DOCS_DOMAIN="+r.api.Domain,
		"DOCS_DISCOVERY_URL="+r.api.DiscoveryURL, "DOCSBOT_ANSWER_CHANNELS="+w.modes(),
		fmt.Sprintf("DOCSBOT_AUTO_PER_CHANNEL=%d", questions), fmt.Sprintf("DOCSBOT_ASK_PER_USER=%d", questions),
		fmt.Sprintf("DOCSBOT_ASK_BUDGET=%d", 2*questions))
	if err != nil {
		return nil, nil, err
	}
	defer stop()
	if err := w.warmUp(ctx, bots, mixed); err != nil {
		return nil, nil, fmt.Errorf("warm-up: %w", err)
	}
	p := &chatterPeer{}
	m, err := startFleetMeter(ctx, r, bots)
	if err != nil {
		return nil, nil, err
	}
	sleep(ctx, o.idle)
	idle, err := m.stop(ctx, 1)
	if err != nil {
		return nil, nil, err
	}
	idle.Cost = idle.Cost.scaled(1 / idle.Took.Seconds())
	idle.Cost.Units = 0
	p.IdleCPUmsPerS = round3(msf(idle.CPU) / idle.Took.Seconds())

	var issues []string
	e.log.Info("chatter: chatter alone", "per_minute", o.perMinute, "for", o.duration, "bot", ro.bin, "args", ro.args)
	if p.Chatter, err = w.phase(ctx, bots, idle, 0); err != nil {
		return nil, nil, err
	}
	if mixed {
		e.log.Info("chatter: with questions", "every", o.questionEvery, "for", o.duration)
		asks := r.api.Questions()
		f, err := w.phase(ctx, bots, idle, o.questionEvery)
		if err != nil {
			return nil, nil, err
		}
		p.Mixed = &f
		p.AssistantAsks = r.api.Questions() - asks
		p.Questions, p.Answered, p.Doubled, p.ChatterAnswers = w.outcomes()
		if p.Answered != p.Questions || p.Doubled > 0 {
			issues = append(issues, fmt.Sprintf("%d of %d questions answered once, %d more than once", p.Answered, p.Questions, p.Doubled))
		}
		if p.ChatterAnswers > 0 {
			issues = append(issues, fmt.Sprintf("%d chatter messages were replied to or reacted on", p.ChatterAnswers))
		}
	}
	for _, f := range []*phaseFigures{&p.Chatter, p.Mixed} {
		if f != nil && f.Acked != f.Messages {
			issues = append(issues, fmt.Sprintf("%d of %d messages were not acknowledged", f.Messages-f.Acked, f.Messages))
		}
	}
	if p.Memory, err = readAll(bots); err != nil {
		return nil, nil, err
	}
	for _, b := range bots {
		p.LogLine += b.logs.Lines()
	}
	if err := stop(); err != nil {
		issues = append(issues, err.Error())
	}
	return p, issues, nil
}

// chatterWorld is the channels, the people and the messages of one run of
// the chatter scenario against one rig.
type chatterWorld struct {
	r        *rig
	o        chatterOptions
	channels []string
	users    []string
	// sent are the messages of the mixed phase, questions and chatter.
	sent []sentMessage
	n    int // messages sent in all, for their texts
}

// sentMessage is a message the scenario posted.
type sentMessage struct {
	channel, ts string
	question    bool
}

// The people's lines of chatter: none of them a question (helpchannels'
// IsQuestion).
var chatterLines = []string{
	"thanks, that helps a lot",
	"deploying the new build now",
	"I will look at it after the standup",
	"great work on the release everyone",
	"ok",
	"+1",
	"the staging link works again for me",
	"lunch at noon, anyone joining",
}

// The topics of the questions: all in the docs API test server's docs.
var questionTopics = []string{"rotate an API key", "set up webhooks", "install the CLI", "add a custom domain", "handle rate limits", "start quickly"}

// newChatterWorld adds o.channels channels with the bot in them and 20
// people to the rig's fake Slack.
func newChatterWorld(r *rig, o chatterOptions) *chatterWorld {
	w := &chatterWorld{r: r, o: o}
	for i := range o.channels {
		id := fmt.Sprintf("C0HELP%04d", i)
		r.slack.AddChannel(slacktest.Channel{ID: id, Name: fmt.Sprintf("help-%04d", i), BotMember: true})
		w.channels = append(w.channels, id)
	}
	for i := range 20 {
		id := fmt.Sprintf("U0TALK%02d", i)
		r.slack.AddUser(id, fmt.Sprintf("talker%02d", i))
		w.users = append(w.users, id)
	}
	return w
}

// modes is DOCSBOT_ANSWER_CHANNELS: every channel in auto.
func (w *chatterWorld) modes() string {
	parts := make([]string, len(w.channels))
	for i, ch := range w.channels {
		parts[i] = ch + ":auto"
	}
	return strings.Join(parts, ",")
}
