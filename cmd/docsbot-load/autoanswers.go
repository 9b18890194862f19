package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// targetAutoFirst: a help channel's question is answered (its answer posted
// whole, as unasked answers are) within 5 seconds at the 95th percentile.
const targetAutoFirst = 5 * time.Second

// autoResult is the report of answers --auto: questions nobody addressed
// to the bot, posted in help channels in auto mode.
type autoResult struct {
	Scenario string  `json:"scenario"`
	Machine  machine `json:"machine"`
	LoadEnd  string  `json:"load_average_end"`

	Questions int           `json:"questions"`
	Channels  int           `json:"channels"`
	Over      time.Duration `json:"-"`
	// Answered got an answer in their thread; Told were told privately
	// (no sources); the rest got neither.
	Answered int `json:"answered"`
	Told     int `json:"told_privately"`
	// First is the time from a question's post to the bot's first message
	// in its thread.
	First   summary        `json:"question_to_answer"`
	P95     time.Duration  `json:"-"`
	P95ms   float64        `json:"question_to_answer_p95_ms"`
	Calls   map[string]int `json:"slack_calls"`
	Asks    int            `json:"assistant_questions"`
	Chatter int            `json:"chatter_posts"`

	issues []string
}

func (r *autoResult) title() string {
	return fmt.Sprintf("docsbot-load answers --auto: %d questions (and %d chatter posts) over %s in %d help channels", r.Questions, r.Chatter, r.Over, r.Channels)
}

func (r *autoResult) problems() []string { return r.issues }

func (r *autoResult) sections() []section {
	var calls []string
	for _, m := range slices.Sorted(func(yield func(string) bool) {
		for k := range r.Calls {
			if !yield(k) {
				return
			}
		}
	}) {
		calls = append(calls, fmt.Sprintf("%s %d", m, r.Calls[m]))
	}
	return []section{
		{heading: "Help channels answering unasked (a question posted → the answer in its thread)", rows: []row{
			goal("questions answered or told", fmt.Sprintf("%d answered + %d told / %d", r.Answered, r.Told, r.Questions), "all",
				r.Answered+r.Told == r.Questions),
			fig("assistant questions", "%d (chatter costs none)", r.Asks),
			fig("question to answer p50", "%s", ms(r.First.P50)),
			goal("question to answer p95", ms(r.P95), "< "+ms(targetAutoFirst), r.P95 < targetAutoFirst),
			fig("question to answer max", "%s", ms(r.First.Max)),
			fig("Slack calls", "%s", strings.Join(calls, ", ")),
		}},
		machineSection(r.Machine, "", r.LoadEnd),
	}
}

// runAutoAnswers posts o.questions questions, evenly over o.over, in
// o.channels help channels in auto mode, each followed by a line of
// chatter, and measures how soon each is answered in its thread (or its
// asker told), and what it cost in Slack calls and assistant questions.
func runAutoAnswers(ctx context.Context, e env, o answersOptions) (*autoResult, error) {
	ctx, cancel := context.WithTimeout(ctx, o.over+3*time.Minute)
	defer cancel()
	r, closeRig, err := answersRig(ctx, e, o)
	if err != nil {
		return nil, err
	}
	defer closeRig()
	var channels, modes []string
	for i := range o.channels {
		id := fmt.Sprintf("C0HELP%02d", i)
		r.slack.AddChannel(slacktest.Channel{ID: id, Name: fmt.Sprintf("help-%02d", i), BotMember: true})
		channels, modes = append(channels, id), append(modes, id+":auto")
	}
	users := make([]string, 10)
	for i := range users {
		users[i] = fmt.Sprintf("U0ASKER%02d", i)
		r.slack.AddUser(users[i], fmt.Sprintf("asker%02d", i))
	}
	if err := r.startBot(ctx, "DOCS_ASSISTANT_KEY="+r.api.AssistantKey, "DOCS_DOMAIN="+r.api.Domain,
		"DOCS_DISCOVERY_URL="+r.api.DiscoveryURL, "DOCSBOT_ANSWER_CHANNELS="+strings.Join(modes, ","),
		fmt.Sprintf("DOCSBOT_AUTO_PER_CHANNEL=%d", o.questions), fmt.Sprintf("DOCSBOT_ASK_PER_USER=%d", o.questions),
		fmt.Sprintf("DOCSBOT_ASK_BUDGET=%d", 2*o.questions)); err != nil {
		return nil, err
	}
	res := &autoResult{Scenario: "answers-auto", Machine: thisMachine(), Questions: o.questions, Channels: o.channels, Over: o.over}
	topics := []string{"rotate an API key", "set up webhooks", "install the CLI", "add a custom domain", "handle rate limits", "start quickly"}
	type asked struct {
		channel, ts, user string
		at                time.Time
	}
	var qs []asked
	every := o.over / time.Duration(o.questions)
	tick := time.NewTicker(every)
	defer tick.Stop()
	before := len(r.slack.Calls(""))
	for i := range o.questions {
		ch, user := channels[i%len(channels)], users[i%len(users)]
		text := fmt.Sprintf("How do I %s? (question %d)", topics[i%len(topics)], i)
		if i%10 == 9 {
			text = fmt.Sprintf("Why is the office coffee machine broken again? (question %d)", i) // not in the docs
		}
		at := time.Now()
		ts, _, err := r.slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: ch, UserID: user, Text: text})
		if err != nil {
			return res, fmt.Errorf("question %d: %w", i, err)
		}
		qs = append(qs, asked{ch, ts, user, at})
		if _, _, err := r.slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: ch, UserID: user, Text: "thanks, that helps a lot"}); err != nil {
			return res, fmt.Errorf("chatter %d: %w", i, err)
		}
		res.Chatter++
		select {
		case <-ctx.Done():
			return res, ctx.Err()
		case <-tick.C:
		}
	}
	done := func(q asked) (time.Time, bool, bool) {
		for _, m := range r.slack.Thread(q.channel, q.ts) {
			if m.BotID != "" && m.TS != q.ts && !m.Streaming {
				return tsTime(m.TS), true, false
			}
		}
		for _, m := range r.slack.Ephemerals(q.user) {
			if m.Channel == q.channel && strings.Contains(m.Text, "found nothing that answers it") && tsTime(m.TS).After(q.at) {
				return tsTime(m.TS), false, true
			}
		}
		return time.Time{}, false, false
	}
	if err := r.waitSlack(ctx, 200*time.Millisecond, func() bool {
		for _, q := range qs {
			if _, a, t := done(q); !a && !t {
				return false
			}
		}
		return true
	}); err != nil {
		res.issues = append(res.issues, fmt.Sprintf("not every question was answered or told: %v", err))
	}
	res.LoadEnd = loadAvg()
	var firsts []time.Duration
	for _, q := range qs {
		at, a, t := done(q)
		switch {
		case a:
			res.Answered++
		case t:
			res.Told++
		default:
			continue
		}
		firsts = append(firsts, at.Sub(q.at))
	}
	res.First = summarize(firsts)
	sorted := slices.Clone(firsts)
	slices.Sort(sorted)
	if len(sorted) > 0 {
		res.P95 = percentile(sorted, 0.95)
	}
	res.P95ms = msf(res.P95)
	res.Calls = map[string]int{}
	for _, c := range r.slack.Calls("")[before:] {
		if strings.HasPrefix(c.Method, "chat.") || strings.HasPrefix(c.Method, "conversations.") || strings.HasPrefix(c.Method, "reactions.") {
			res.Calls[c.Method]++
		}
	}
	res.Asks = r.api.Questions()
	return res, nil
}
