package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// concurrentSample is how often answers --concurrent reads the bot's memory
// and the streams open at the fake Slack.
const concurrentSample = 50 * time.Millisecond

// concurrentResult is the report of answers --concurrent: many questions
// asked at once of one replica, every answer streaming at the same time
// from an assistant that is slow to start and slow to write (issue 40,
// item 4).
type concurrentResult struct {
	answersResult
	AssistantLatency string `json:"assistant_latency"`
	// PeakStreams is the most answers streaming at once (started, not yet
	// stopped), as sampled at the fake Slack.
	PeakStreams int `json:"peak_streams"`
	// RSSBefore is the bot's before the questions, RSSPeak the highest
	// sampled while they streamed; MemoryPerStream their difference over
	// PeakStreams.
	RSSBefore       int64 `json:"rss_before_bytes"`
	RSSPeak         int64 `json:"rss_peak_bytes"`
	MemoryPerStream int64 `json:"memory_per_stream_bytes"`
	// FirstTextP95 is the 95th percentile of FirstText; AskToFirst is from
	// the slash command's sending to the answer's first text.
	FirstTextP95   time.Duration `json:"-"`
	FirstTextP95ms float64       `json:"first_delta_to_first_text_p95_ms"`
	AskToFirst     summary       `json:"ask_to_first_text"`
	AskToFirstP95  time.Duration `json:"-"`
	// Lost are the questions with no answer stopped in their thread, Cut
	// those whose answer offers Ask again (lost or cut midway), Doubled
	// those with more than one answer.
	Lost    int `json:"lost"`
	Cut     int `json:"cut"`
	Doubled int `json:"doubled"`
}

func (r *concurrentResult) title() string {
	return fmt.Sprintf("docsbot-load answers --concurrent %d: all asked at once of one replica, the assistant starting after %s and writing a piece every %s",
		r.Questions, r.AssistantLatency, r.DeltaDelay)
}

func (r *concurrentResult) sections() []section {
	return []section{
		{heading: "Answers streaming at once (the assistant's first delta → the first text at the fake Slack)", rows: []row{
			fig("questions asked / answered", "%d / %d (the assistant asked %d times)", r.Questions, r.Answered, r.AssistantAsks),
			goal("answers lost / cut / doubled", fmt.Sprintf("%d / %d / %d", r.Lost, r.Cut, r.Doubled), "none", r.Lost+r.Cut+r.Doubled == 0),
			fig("most streaming at once", "%d", r.PeakStreams),
			fig("first text p50", "%s", ms(r.FirstText.P50)),
			goal("first text p95", ms(r.FirstTextP95), "< "+ms(targetFirstText), r.FirstTextP95 < targetFirstText),
			fig("first text max", "%s", ms(r.FirstText.Max)),
			fig("asked → first text p50 / p95 / max", "%s / %s / %s (the assistant starts after %s)", ms(r.AskToFirst.P50), ms(r.AskToFirstP95), ms(r.AskToFirst.Max), r.AssistantLatency),
			fig("Slack calls per answer", "%.1f on average, %d at most (start, appends, stop)", r.CallsMean, r.CallsMax),
			goal("shortest gap between two calls of an answer while streaming", ms(r.MinGap), "≥ "+ms(targetCallGap), r.MinGap >= targetCallGap),
			fig("bot RSS before / at the peak", "%s / %s", mib(r.RSSBefore), mib(r.RSSPeak)),
			fig("memory per stream (RSS growth over the streams at the peak)", "%.1f KiB", float64(r.MemoryPerStream)/1024),
		}},
		{heading: "What an answer costs the bot (from the questions to the last answer's end, and the settle after)", rows: r.Cost.rows("answer")},
		machineSection(r.Machine, r.LoadStart, r.LoadEnd),
	}
}

// runConcurrentAnswers asks o.concurrent questions with /docs-ask of one
// replica, all at once, of an assistant that waits o.assistantLatency
// before it answers and o.deltaDelay between pieces, and measures the
// streams: memory per stream, the pace of each answer's Slack calls, the
// first text, and that none is lost, cut or doubled.
func runConcurrentAnswers(ctx context.Context, e env, o answersOptions) (*concurrentResult, error) {
	n := o.concurrent
	ctx, cancel := context.WithTimeout(ctx, o.assistantLatency+60*o.deltaDelay+o.cost.idle+o.cost.settle+3*time.Minute)
	defer cancel()
	r, closeRig, err := answersRig(ctx, e, o)
	if err != nil {
		return nil, err
	}
	defer closeRig()
	if o.assistantLatency > 0 {
		r.api.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Latency: o.assistantLatency})
	}
	if err := r.startBot(ctx, "DOCS_ASSISTANT_KEY="+r.api.AssistantKey, "DOCS_DOMAIN="+r.api.Domain, "DOCS_DISCOVERY_URL="+r.api.DiscoveryURL,
		fmt.Sprintf("DOCSBOT_ASK_PER_USER=%d", n+1), fmt.Sprintf("DOCSBOT_ASK_BUDGET=%d", 2*n+2)); err != nil {
		return nil, err
	}
	res := &concurrentResult{answersResult: answersResult{Scenario: "answers-concurrent", Machine: thisMachine(), Questions: n, Concurrency: n,
		DeltaDelay: o.deltaDelay.String(), LoadStart: loadAvg()}, AssistantLatency: o.assistantLatency.String()}
	before, err := r.bot.stats()
	if err != nil {
		return nil, err
	}
	res.RSSBefore = before.RSS

	e.log.Info("asking at once", "questions", n, "assistant_latency", o.assistantLatency, "delta_delay", o.deltaDelay)
	var asked map[string]time.Time
	cost, err := o.cost.measure(ctx, r, n, func() (err error) {
		asked, err = askAtOnce(ctx, r, n, res)
		return err
	})
	if err != nil {
		return res, err
	}
	res.Cost = cost
	res.LoadEnd = loadAvg()
	measureAnswers(r, &res.answersResult)
	res.measureConcurrent(r, asked)
	return res, nil
}

// askAtOnce sends n /docs-ask commands at once, samples the bot's memory
// and the open streams until every answer ended (or ctx), and returns when
// each question was sent, by its text.
func askAtOnce(ctx context.Context, r *rig, n int, res *concurrentResult) (map[string]time.Time, error) {
	stop := make(chan struct{})
	sampled := make(chan error, 1)
	go func() { sampled <- res.sample(r, stop) }()
	asked := make(map[string]time.Time, n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		q := fmt.Sprintf("How do I %s? (question %d)", questionTopics[i%len(questionTopics)], i)
		wg.Go(func() {
			mu.Lock()
			asked[q] = time.Now()
			mu.Unlock()
			if _, err := r.slack.SlashCommand(ctx, slacktest.SlashCommand{Command: "/docs-ask", Text: q, UserID: loadUser, ChannelID: loadChannel}); err != nil {
				errs <- fmt.Errorf("%s: %w", q, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		close(stop)
		<-sampled
		return nil, err
	}
	if err := r.waitSlack(ctx, 100*time.Millisecond, func() bool { return len(stoppedStreams(r.slack)) >= n }); err != nil {
		res.issues = append(res.issues, fmt.Sprintf("only %d of %d answers ended: %v", len(stoppedStreams(r.slack)), n, err))
	}
	close(stop)
	return asked, <-sampled
}

// sample reads the bot's RSS and the streams open at the fake Slack every
// concurrentSample until stop, keeping the highest of each.
func (res *concurrentResult) sample(r *rig, stop <-chan struct{}) error {
	t := time.NewTicker(concurrentSample)
	defer t.Stop()
	for {
		st, err := r.bot.stats()
		if err != nil {
			return err
		}
		res.RSSPeak = max(res.RSSPeak, st.RSS)
		started := 0
		for _, c := range r.slack.Calls("chat.startStream") {
			if c.Error == "" {
				started++
			}
		}
		res.PeakStreams = max(res.PeakStreams, started-len(stoppedStreams(r.slack)))
		select {
		case <-stop:
			return nil
		case <-t.C:
		}
	}
}

// measureConcurrent adds what answers --concurrent reports beside the
// answers scenario's figures: the 95th percentiles, the memory per stream,
// and the answers lost, cut or doubled, from asked (when each question was
// sent, by its text).
func (res *concurrentResult) measureConcurrent(r *rig, asked map[string]time.Time) {
	firsts := map[string]time.Time{} // the first text of each answer, by its question's ts
	for _, c := range r.slack.Calls("chat.startStream") {
		if c.Error == "" {
			if _, seen := firsts[c.Params["thread_ts"]]; !seen {
				firsts[c.Params["thread_ts"]] = c.At
			}
		}
	}
	var askToFirst []time.Duration
	for _, m := range r.slack.Messages(loadChannel) {
		_, q, ok := strings.Cut(m.Text, " asked: ")
		if !ok || m.BotID == "" {
			continue
		}
		sent, mine := asked[q]
		if !mine {
			continue
		}
		if at, ok := firsts[m.TS]; ok {
			askToFirst = append(askToFirst, at.Sub(sent))
		}
		answers := 0
		for _, t := range r.slack.Thread(loadChannel, m.TS) {
			if !t.Streamed {
				continue
			}
			answers++
			if strings.Contains(string(t.Blocks), "ask.again") || strings.Contains(string(t.ChunkBlocks), "ask.again") {
				res.Cut++
			}
		}
		if answers > 1 {
			res.Doubled++
		}
	}
	res.Lost = max(0, res.Questions-res.Answered)
	res.AskToFirst = summarize(askToFirst)
	res.AskToFirstP95 = p95(askToFirst)
	res.FirstTextP95 = p95(res.firsts)
	res.FirstTextP95ms = msf(res.FirstTextP95)
	if res.PeakStreams > 0 && res.RSSPeak > res.RSSBefore {
		res.MemoryPerStream = (res.RSSPeak - res.RSSBefore) / int64(res.PeakStreams)
	}
	if res.Lost+res.Cut+res.Doubled > 0 {
		res.issues = append(res.issues, fmt.Sprintf("answers lost %d, cut %d, doubled %d", res.Lost, res.Cut, res.Doubled))
	}
}

// p95 is the 95th percentile of ds, 0 for none.
func p95(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return percentile(s, 0.95)
}
