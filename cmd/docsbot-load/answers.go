package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// Targets of the answers scenario.
const (
	// targetFirstText: the first text of an answer shows within a second
	// of the assistant's first delta.
	targetFirstText = time.Second
	// targetCallGap: while an answer streams, its Slack calls (the start
	// and the appends) are at least a second apart, with a little room for
	// the clock of the fake Slack.
	targetCallGap = 950 * time.Millisecond
)

// answersOptions are the flags of the answers scenario.
type answersOptions struct {
	questions   int
	concurrency int
	deltaDelay  time.Duration
	// auto posts the questions in help channels in auto mode, unasked
	// (runAutoAnswers), o.questions over o.over in o.channels channels.
	auto     bool
	over     time.Duration
	channels int
	// concurrent asks that many questions at once instead
	// (runConcurrentAnswers), of an assistant that starts answering after
	// assistantLatency.
	concurrent       int
	assistantLatency time.Duration
	cost             costOptions
}

// register adds the scenario's flags to fs.
func (o *answersOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&o.questions, "questions", 100, "questions to ask with /docs-ask")
	fs.IntVar(&o.concurrency, "concurrency", 4, "questions asked at once")
	fs.DurationVar(&o.deltaDelay, "delta-delay", 400*time.Millisecond, "the assistant's wait between two pieces of an answer")
	fs.BoolVar(&o.auto, "auto", false, "post the questions unasked in help channels in auto mode (DOCSBOT_ANSWER_CHANNELS) instead of /docs-ask")
	fs.DurationVar(&o.over, "over", 2*time.Minute, "with --auto: the time the questions are posted over, evenly")
	fs.IntVar(&o.channels, "channels", 20, "with --auto: the help channels the questions are spread over")
	fs.IntVar(&o.concurrent, "concurrent", 0, "ask this many questions at once of one replica, all streaming together, instead of --questions --concurrency at a time")
	fs.DurationVar(&o.assistantLatency, "assistant-latency", 5*time.Second, "with --concurrent: how long the assistant waits before it starts each answer (a slow assistant)")
	o.cost.register(fs)
}

// answersResult is the report of the answers scenario.
type answersResult struct {
	Scenario    string  `json:"scenario"`
	Machine     machine `json:"machine"`
	LoadStart   string  `json:"load_average_start"`
	LoadEnd     string  `json:"load_average_end"`
	Questions   int     `json:"questions"`
	Concurrency int     `json:"concurrency"`
	DeltaDelay  string  `json:"delta_delay"`

	Answered int `json:"answered"`
	// FirstText is the time from the assistant's first delta (as the fake
	// assistant wrote it) to the bot's chat.startStream reaching the fake
	// Slack with that text.
	FirstText summary         `json:"first_delta_to_first_text"`
	firsts    []time.Duration // FirstText's samples
	// Calls are the Slack calls of one answer: the start, the appends and
	// the stop.
	CallsMean float64 `json:"slack_calls_per_answer_mean"`
	CallsMax  int     `json:"slack_calls_per_answer_max"`
	// MinGap is the shortest time between two calls of one answer while it
	// streamed (the start and the appends; the stop may follow at once).
	MinGap        time.Duration `json:"-"`
	MinGapMs      float64       `json:"min_gap_between_stream_calls_ms"`
	AssistantAsks int           `json:"assistant_questions"`
	// Cost is what an answer cost the bot in Redis commands and Slack
	// calls, the asking to its end and o.cost.settle after.
	Cost unitCost `json:"per_answer"`

	issues []string
}

func (r *answersResult) title() string {
	return fmt.Sprintf("docsbot-load answers: %d × /docs-ask, %d at once, the assistant writing a piece every %s", r.Questions, r.Concurrency, r.DeltaDelay)
}

func (r *answersResult) problems() []string { return r.issues }

func (r *answersResult) sections() []section {
	return []section{
		{heading: "Answers streamed into Slack (the assistant's first delta → the first text at the fake Slack)", rows: []row{
			fig("questions asked / answered", "%d / %d (the assistant asked %d times)", r.Questions, r.Answered, r.AssistantAsks),
			goal("first text p50", ms(r.FirstText.P50), "< "+ms(targetFirstText), r.FirstText.P50 < targetFirstText),
			goal("first text p99", ms(r.FirstText.P99), "< "+ms(targetFirstText), r.FirstText.P99 < targetFirstText),
			fig("first text max", "%s", ms(r.FirstText.Max)),
			fig("Slack calls per answer", "%.1f on average, %d at most (start, appends, stop)", r.CallsMean, r.CallsMax),
			goal("shortest gap between two calls while streaming", ms(r.MinGap), "≥ "+ms(targetCallGap), r.MinGap >= targetCallGap),
		}},
		{heading: "What an answer costs the bot (from the first question to the last answer's end, and the settle after)", rows: r.Cost.rows("answer")},
		machineSection(r.Machine, r.LoadStart, r.LoadEnd),
	}
}

// runAnswers asks questions with /docs-ask of the real bot, whose assistant
// is the docs API test server's, and measures how soon each answer's first
// text shows and how many Slack calls each answer takes.
func runAnswers(ctx context.Context, e env, o answersOptions) (*answersResult, error) {
	if o.questions <= 0 || o.concurrency <= 0 || o.deltaDelay < 0 {
		return nil, errors.New("answers: --questions and --concurrency must be positive, --delta-delay not negative")
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(o.questions)*(30*o.deltaDelay+3*time.Second)/time.Duration(o.concurrency)+o.cost.idle+o.cost.settle+2*time.Minute)
	defer cancel()
	r, closeRig, err := answersRig(ctx, e, o)
	if err != nil {
		return nil, err
	}
	defer closeRig()
	if err := r.startBot(ctx, "DOCS_ASSISTANT_KEY="+r.api.AssistantKey, "DOCS_DOMAIN="+r.api.Domain,
		"DOCS_DISCOVERY_URL="+r.api.DiscoveryURL, fmt.Sprintf("DOCSBOT_ASK_PER_USER=%d", o.questions+1)); err != nil {
		return nil, err
	}
	res := &answersResult{Scenario: "answers", Machine: thisMachine(), Questions: o.questions, Concurrency: o.concurrency,
		DeltaDelay: o.deltaDelay.String(), LoadStart: loadAvg()}

	e.log.Info("asking", "questions", o.questions, "concurrency", o.concurrency)
	cost, err := o.cost.measure(ctx, r, o.questions, func() error { return ask(ctx, r, o, res) })
	if err != nil {
		return res, err
	}
	res.Cost = cost
	res.LoadEnd = loadAvg()
	measureAnswers(r, res)
	return res, nil
}

// ask asks o.questions questions, o.concurrency at once, and waits for
// their answers to end (an answer that does not is an issue of res).
func ask(ctx context.Context, r *rig, o answersOptions, res *answersResult) error {
	topics := []string{"rotate an API key", "set up webhooks", "install the CLI", "add a custom domain", "handle rate limits", "start quickly"}
	sem := make(chan struct{}, o.concurrency)
	errs := make(chan error, o.questions)
	for i := range o.questions {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			q := fmt.Sprintf("How do I %s? (question %d)", topics[i%len(topics)], i)
			if _, err := r.slack.SlashCommand(ctx, slacktest.SlashCommand{Command: "/docs-ask", Text: q, UserID: loadUser, ChannelID: loadChannel}); err != nil {
				errs <- fmt.Errorf("question %d: %w", i, err)
				return
			}
			errs <- nil
		}()
	}
	for range o.questions {
		if err := <-errs; err != nil {
			return err
		}
	}
	if err := r.waitSlack(ctx, 100*time.Millisecond, func() bool { return len(stoppedStreams(r.slack)) >= o.questions }); err != nil {
		res.issues = append(res.issues, fmt.Sprintf("only %d of %d answers ended: %v", len(stoppedStreams(r.slack)), o.questions, err))
	}
	return nil
}

// stoppedStreams are the ts of the answers whose stream was stopped.
func stoppedStreams(sl *slacktest.Server) []string {
	var out []string
	for _, c := range sl.Calls("chat.stopStream") {
		if c.Error == "" {
			out = append(out, c.Params["ts"])
		}
	}
	return out
}

// measureAnswers reads, for each answer, when its assistant's first delta
// went out and when the bot's first text reached the fake Slack, and the
// Slack calls it took.
func measureAnswers(r *rig, res *answersResult) {
	// The thread each question's answer is in, by the question's ts.
	firstDelta := map[string]time.Time{}
	for _, id := range r.api.ThreadIDs() {
		t, ok := r.api.Thread(id)
		if !ok || len(t.Questions) == 0 || len(t.FirstDeltas) == 0 {
			continue
		}
		firstDelta[t.Questions[0]] = t.FirstDeltas[0]
	}
	res.AssistantAsks = r.api.Questions()
	questionOf := map[string]string{} // the bot's message showing a question, by ts
	for _, m := range r.slack.Messages(loadChannel) {
		if _, q, ok := strings.Cut(m.Text, " asked: "); ok && m.BotID != "" {
			questionOf[m.TS] = q
		}
	}
	calls := map[string][]time.Time{} // by the answer's ts
	var firsts []time.Duration
	for _, c := range r.slack.Calls("chat.startStream") {
		if c.Error != "" {
			continue
		}
		q := questionOf[c.Params["thread_ts"]]
		at, ok := firstDelta[q]
		if !ok {
			continue
		}
		firsts = append(firsts, c.At.Sub(at))
		if ts := answerTS(r.slack, c.Params["thread_ts"]); ts != "" {
			calls[ts] = append(calls[ts], c.At)
		}
	}
	for _, c := range r.slack.Calls("chat.appendStream") {
		if c.Error == "" {
			calls[c.Params["ts"]] = append(calls[c.Params["ts"]], c.At)
		}
	}
	res.FirstText, res.firsts = summarize(firsts), firsts
	res.Answered = len(stoppedStreams(r.slack))
	total := 0
	res.MinGap = time.Hour
	for _, at := range calls {
		n := len(at) + 1 // and the stop
		total += n
		res.CallsMax = max(res.CallsMax, n)
		for i := 1; i < len(at); i++ {
			res.MinGap = min(res.MinGap, at[i].Sub(at[i-1]))
		}
	}
	if len(calls) > 0 {
		res.CallsMean = float64(total) / float64(len(calls))
	}
	if res.MinGap == time.Hour {
		res.MinGap = 0 // no answer took two calls before its stop
		res.issues = append(res.issues, "no answer streamed long enough to append: raise --delta-delay")
	}
	res.MinGapMs = msf(res.MinGap)
	if len(firsts) < res.Questions {
		res.issues = append(res.issues, fmt.Sprintf("the first text of %d of %d answers could not be matched to its question", res.Questions-len(firsts), res.Questions))
	}
}

// answerTS is the ts of the bot's streamed answer in the thread under ts.
func answerTS(sl *slacktest.Server, ts string) string {
	for _, m := range sl.Thread(loadChannel, ts) {
		if m.Streamed {
			return m.TS
		}
	}
	return ""
}

// answersRig is the world of the answers' runs: the bot's binary, and a rig
// whose docs API has no limits and streams its answers a piece every
// o.deltaDelay. done stops the rig and removes the binary.
func answersRig(ctx context.Context, e env, o answersOptions) (r *rig, done func(), err error) {
	bin, cleanup, err := botBinary(ctx, e)
	if err != nil {
		return nil, nil, err
	}
	r, err = newRig(e.log, rigOptions{bin: bin, botEnv: e.botEnv,
		api: []docsapitest.Option{docsapitest.WithLimits(docsapitest.Limits{}), docsapitest.WithDeltaDelay(o.deltaDelay)}})
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	return r, func() { r.close(); cleanup() }, nil
}
