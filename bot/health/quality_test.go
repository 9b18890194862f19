package health_test

import (
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// requestsChannel is where Ask the docs team posts in the quality world.
const requestsChannel = "C0REQUESTS"

// qualityWorld is a world whose fake Slack, docs API and bots share a
// clock the test moves, with the answers on (Ask the docs team posting in
// requestsChannel), alice its one editor, carol and a guest besides, and
// two replicas, each with metrics of its own.
type qualityWorld struct {
	*bottest.Harness
	clock *slacktest.ManualClock
	regs  []*prometheus.Registry
}

func newQualityWorld(t *testing.T) *qualityWorld {
	t.Helper()
	clock := slacktest.NewManualClock(time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC))
	w := &qualityWorld{Harness: bottest.NewWith(t, redisURL, []slacktest.Option{slacktest.WithClock(clock.Now)}, docsapitest.WithClock(clock.Now)),
		clock: clock}
	w.Slack.AddChannel(slacktest.Channel{ID: requestsChannel, Name: "docs-requests", BotMember: true})
	w.Slack.AddUser(carol, "carol")
	w.Slack.AddGuest(guest, "Gus Guest", false)
	for range 2 {
		reg := prometheus.NewRegistry()
		w.regs = append(w.regs, reg)
		cfg := bottest.Config{Now: clock.Now, Answers: true, Editors: []string{alice}, Config: app.Config{Ask: ask.Config{RequestsChannel: requestsChannel}}}
		cfg.Bot.Metrics = bot.NewMetrics(reg)
		w.StartBot(cfg)
	}
	return w
}

// asked runs user's /docs-ask question; the assistant is held until the
// question shows and the clock moved firstText on, so that its answer's
// first text shows firstText after it. It returns the question's message
// and the answer, once its outcome is recorded.
func (w *qualityWorld) asked(user, question string, firstText time.Duration) (q, answer slacktest.Message) {
	w.T.Helper()
	hold := make(chan struct{})
	w.API.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointAssistant, Hold: hold, Times: 1})
	before := len(w.Roots(general))
	w.Command(user, general, "/docs-ask", question)
	w.WaitFor("the question shown", func() bool { return len(w.Roots(general)) > before })
	q = w.Roots(general)[before]
	w.clock.Advance(firstText)
	close(hold)
	w.WaitFor("the answer to "+question, func() bool {
		for _, m := range w.Slack.Thread(general, q.TS) {
			if m.BotID != "" && m.TS != q.TS && !m.Streaming && strings.Contains(string(m.Blocks), ask.ActionFeedback) {
				answer = m
				return true
			}
		}
		return false
	})
	w.outcomeIs(q.TS, outcome.Open, outcome.Uncertain)
	return q, answer
}

// outcomeIs waits until the question under ts has one of the outcomes
// (as written), and returns its record.
func (w *qualityWorld) outcomeIs(ts string, outcomes ...string) store.OutcomeRecord {
	w.T.Helper()
	var r store.OutcomeRecord
	w.WaitFor("the outcome of "+ts+" "+strings.Join(outcomes, " or "), func() bool {
		var err error
		r, err = w.OpenStore().Outcomes().Outcome(w.T.Context(), store.OutcomeRef{Team: "T0TEST", Channel: general, TS: ts})
		return err == nil && slices.Contains(outcomes, r.Outcome)
	})
	return r
}

func (w *qualityWorld) press(user string, m slacktest.Message, actionID, value string) {
	w.Act(slacktest.Action{UserID: user, ChannelID: general, MessageTS: m.TS, ActionID: actionID, Value: value})
}

// drove is a question the test asked, what it did after, and so what the
// report must count of it.
type drove struct {
	asker, text string
	firstText   time.Duration
	before      bool // asked in the 7 days before the report's
	sources     bool // the docs answer it (the world's docs)
	// then drives what follows the answer; path is the outcomes the
	// question entered, in order (the outcome table's), its last the one
	// it ends with; vote the asker's latest.
	then func(w *qualityWorld, q, answer slacktest.Message)
	path []string
	vote string
	// gap names the questions that ask the same thing (their topic).
	gap string
}

// TestQuality: questions asked through Slack and signalled every way (the
// asker's ✅, ✅ after another's reply, 👍, 👍 then 👎, Ask the docs
// team, an answer without sources, silence) are counted by /docs-health
// quality exactly, against the 7 days before; the questions docsbot could
// not answer well are grouped by what they ask, each with Make this a docs
// job; csv uploads the figures; a guest sees the counts only; an editor's
// Home shows the figures, a viewer's not; the metrics
// of the two replicas count each outcome entered and each time to the
// first text once.
func TestQuality(t *testing.T) {
	t.Parallel()
	w := newQualityWorld(t)
	s := time.Second
	check := func(user string) func(*qualityWorld, slacktest.Message, slacktest.Message) {
		return func(w *qualityWorld, q, answer slacktest.Message) {
			if err := w.Slack.React(w.T.Context(), user, general, answer.TS, "white_check_mark"); err != nil {
				w.T.Fatal(err)
			}
			w.outcomeIs(q.TS, outcome.Resolved, outcome.ResolvedByExpert)
		}
	}
	vote := func(user string, values ...string) func(*qualityWorld, slacktest.Message, slacktest.Message) {
		return func(w *qualityWorld, q, answer slacktest.Message) {
			for _, v := range values {
				w.press(user, answer, ask.ActionFeedback, v)
				want := map[string]string{"good": outcome.RatedHelpful, "bad": outcome.RatedUnhelpful}[v]
				w.outcomeIs(q.TS, want)
			}
		}
	}
	questions := []drove{
		{asker: alice, text: "How do I install the CLI?", firstText: 2 * s, before: true, sources: true, then: check(alice),
			path: []string{outcome.Open, outcome.Resolved}},
		{asker: bob, text: "How many requests may I send?", firstText: 4 * s, before: true, sources: true,
			path: []string{outcome.Open}}, // silent: no_signal once 3 days old
		{asker: alice, text: "How do I rotate an API key?", firstText: 3 * s, sources: true, then: check(alice),
			path: []string{outcome.Open, outcome.Resolved}},
		{asker: bob, text: "How do I install the CLI on Linux?", firstText: 5 * s, sources: true,
			then: func(w *qualityWorld, q, answer slacktest.Message) {
				w.Reply(carol, general, q.TS, "I did it last week: the install page has it.")
				w.WaitFor("carol's reply recorded", func() bool {
					r, err := w.OpenStore().Outcomes().Outcome(w.T.Context(), store.OutcomeRef{Team: "T0TEST", Channel: general, TS: q.TS})
					return err == nil && r.Replied
				})
				check(bob)(w, q, answer)
			},
			path: []string{outcome.Open, outcome.ResolvedByExpert}},
		{asker: carol, text: "How do I get notified of webhook events?", firstText: 4 * s, sources: true, then: vote(carol, "good", "bad"),
			path: []string{outcome.Open, outcome.RatedHelpful, outcome.RatedUnhelpful}, vote: store.VoteDown, gap: "webhooks"},
		{asker: alice, text: "How do I serve my docs on a custom domain?", firstText: 2 * s, sources: true, then: vote(alice, "good"),
			path: []string{outcome.Open, outcome.RatedHelpful}, vote: store.VoteUp},
		{asker: bob, text: "Why is the office coffee machine always broken?", firstText: 1 * s,
			path: []string{outcome.Uncertain}, gap: "coffee"},
		{asker: carol, text: "why is the office coffee machine always broken", firstText: 7 * s,
			path: []string{outcome.Uncertain}, gap: "coffee"},
		{asker: bob, text: "How many requests per minute may I send?", firstText: 6 * s, sources: true,
			then: func(w *qualityWorld, q, answer slacktest.Message) {
				w.press(bob, answer, ask.ActionFallsShort, "")
				offer := w.WaitButtons(bob, ask.ActionAskTeam)
				w.press(bob, offer, ask.ActionAskTeam, "")
				w.outcomeIs(q.TS, outcome.HandedOff)
			},
			path: []string{outcome.Open, outcome.HandedOff}},
	}
	for i, d := range questions {
		if i > 0 && questions[i-1].before && !d.before {
			w.clock.Advance(7 * 24 * time.Hour) // the report's week
		}
		q, answer := w.asked(d.asker, d.text, d.firstText)
		if r := w.outcomeIs(q.TS, outcome.Open, outcome.Uncertain); r.Sources != d.sources {
			t.Fatalf("%q: answered with sources %t, want %t", d.text, r.Sources, d.sources)
		}
		if d.then != nil {
			d.then(w, q, answer)
		}
	}

	w.Command(alice, general, health.Command, "quality")
	report := w.lastRoot("Answers from the docs")
	text := bottest.Rendered(report)
	period, before := spanOf(questions, false), spanOf(questions, true)
	bottest.WantContains(t, "the report", text, wantLines(period, before)...)
	bottest.WantContains(t, "the report", text, "Changes are against the 7 days before")
	gaps := wantGaps(questions)
	bottest.WantContains(t, "the report's questions", text, gaps...)
	if i, j := strings.Index(text, gaps[0]), strings.Index(text, gaps[1]); i > j {
		t.Errorf("the gap of 2 questions shows after the gap of 1:\n%s", text)
	}
	fixes := buttons(t, report, jobdraft.ActionFixDocs)
	if len(fixes) != len(gaps) {
		t.Fatalf("%d Make this a docs job buttons, want one per gap (%d): %s", len(fixes), len(gaps), report.Blocks)
	}
	for _, f := range fixes {
		if strings.Contains(f.Problem+f.Instruction, "coffee") || !strings.Contains(f.Evidence, "question: ") {
			t.Errorf("a gap's draft %+v: want the question in the evidence only", f)
		}
	}
	if !strings.Contains(string(report.Blocks), `"text":"Make this a docs job"`) {
		t.Errorf("the gaps' buttons do not say Make this a docs job: %s", report.Blocks)
	}
	w.Act(slacktest.Action{UserID: alice, ChannelID: general, MessageTS: report.TS, ActionID: jobdraft.ActionFixDocs,
		Value: fixes[0].Value()})
	form := w.WaitModal(alice, agent.ViewJob)
	bottest.WantContains(t, "the job form", string(form.Blocks), "coffee machine")

	// A guest: the counts, not the questions' words nor their buttons.
	w.Command(guest, general, health.Command, "quality")
	guests := w.lastRoot("asked by <@" + guest + ">")
	bottest.WantContains(t, "the guest's report", bottest.Rendered(guests), wantLines(period, before)...)
	bottest.WantContains(t, "the guest's report", bottest.Rendered(guests), fmt.Sprintf("_%d questions in %d topics._",
		period.outcomes[outcome.Uncertain]+period.outcomes[outcome.RatedUnhelpful], len(gaps)))
	if g := bottest.Rendered(guests) + string(guests.Blocks); strings.Contains(g, "coffee") || strings.Contains(g, jobdraft.ActionFixDocs) {
		t.Errorf("the guest's report shows the questions or their buttons:\n%s", g)
	}

	// csv: the figures as a file, the period's row and the row before.
	w.Command(alice, general, health.Command, "quality 7d csv")
	var file slacktest.File
	w.WaitFor("the CSV file shared", func() bool {
		files := w.Slack.Files()
		if len(files) == 1 && files[0].Completed && files[0].Channel == general {
			file = files[0]
		}
		return file.Completed
	})
	rows, err := csv.NewReader(strings.NewReader(string(file.Content))).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("the CSV: %q, %v", rows, err)
	}
	for i, f := range []figures{period, before} {
		got := map[string]string{}
		for j, col := range rows[0] {
			got[col] = rows[i+1][j]
		}
		for col, n := range map[string]int{"questions": f.questions, "answered_with_sources": f.sources, "resolved": f.outcomes[outcome.Resolved],
			"resolved_by_expert": f.outcomes[outcome.ResolvedByExpert], "handed_off": f.outcomes[outcome.HandedOff],
			"uncertain": f.outcomes[outcome.Uncertain], "rated_unhelpful": f.outcomes[outcome.RatedUnhelpful],
			"no_signal": f.outcomes[outcome.NoSignal], "rated": f.rated, "helpful": f.helpful} {
			if got[col] != strconv.Itoa(n) {
				t.Errorf("CSV row %d, %s = %q, want %d", i+1, col, got[col], n)
			}
		}
		if got["median_first_text_seconds"] != fmt.Sprintf("%.1f", f.median.Seconds()) {
			t.Errorf("CSV row %d's median %q, want %.1f", i+1, got["median_first_text_seconds"], f.median.Seconds())
		}
	}

	// The Home of an editor shows the same figures; a viewer's does not.
	if _, err := w.Slack.OpenHome(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	var home string
	w.WaitFor("alice's Home with the answers' figures", func() bool {
		v, _ := w.Slack.HomeView(alice)
		home = string(v.Blocks)
		return strings.Contains(home, "Answers from the docs, last 7 days")
	})
	bottest.WantContains(t, "the editor's Home", home, wantLines(period, before)...)
	if _, err := w.Slack.OpenHome(t.Context(), bob); err != nil {
		t.Fatal(err)
	}
	w.WaitFor("bob's Home", func() bool {
		v, ok := w.Slack.HomeView(bob)
		return ok && strings.Contains(string(v.Blocks), "docsbot")
	})
	if v, _ := w.Slack.HomeView(bob); strings.Contains(string(v.Blocks), "Answers from the docs") {
		t.Errorf("a viewer's Home shows the answers' figures: %s", v.Blocks)
	}

	// The metrics: each outcome entered, and each question's time to its
	// first text, counted once over the two replicas.
	entered := map[string]float64{}
	var seconds float64
	for _, d := range questions {
		for _, o := range d.path {
			entered[o]++
		}
		seconds += d.firstText.Seconds()
	}
	for o, n := range entered {
		if got := w.metric("docsbot_answer_outcomes_total", o); got != n {
			t.Errorf("docsbot_answer_outcomes_total{outcome=%q} = %v over the replicas, want %v", o, got, n)
		}
	}
	if got := w.metric("docsbot_question_first_text_seconds_count", ""); got != float64(len(questions)) {
		t.Errorf("%v times to the first text observed, want %d", got, len(questions))
	}
	// The fake Slack's ts of a question may be microseconds after the
	// clock (its ts only grow): a millisecond a question is allowed.
	if got := w.metric("docsbot_question_first_text_seconds_sum", ""); math.Abs(got-seconds) > 0.001*float64(len(questions)) {
		t.Errorf("the times to the first text sum to %vs, want %vs", got, seconds)
	}
}

// lastRoot waits for the last root message of #general to contain want
// and returns it.
func (w *qualityWorld) lastRoot(want string) slacktest.Message {
	w.T.Helper()
	var m slacktest.Message
	w.WaitFor("a message saying "+want, func() bool {
		roots := w.Roots(general)
		if len(roots) == 0 {
			return false
		}
		m = roots[len(roots)-1]
		return strings.Contains(bottest.Rendered(m), want)
	})
	return m
}

// metric is the sum over the world's replicas of the metric name (a
// counter by its outcome label, or a histogram's _count or _sum).
func (w *qualityWorld) metric(name, outcomeLabel string) float64 {
	w.T.Helper()
	sum := 0.0
	for _, reg := range w.regs {
		families, err := reg.Gather()
		if err != nil {
			w.T.Fatal(err)
		}
		for _, f := range families {
			for _, m := range f.GetMetric() {
				switch {
				case f.GetName() == name && m.GetCounter() != nil && slices.ContainsFunc(m.GetLabel(), func(l *dto.LabelPair) bool {
					return l.GetName() == "outcome" && l.GetValue() == outcomeLabel
				}):
					sum += m.GetCounter().GetValue()
				case f.GetName()+"_count" == name && m.GetHistogram() != nil:
					sum += float64(m.GetHistogram().GetSampleCount())
				case f.GetName()+"_sum" == name && m.GetHistogram() != nil:
					sum += m.GetHistogram().GetSampleSum()
				}
			}
		}
	}
	return sum
}

// figures are what the test drove over one span, counted as the report
// must count it.
type figures struct {
	questions, sources, rated, helpful int
	outcomes                           map[string]int
	median                             time.Duration
}

// spanOf counts the questions of one span: the 7 days before (before),
// whose silent question is no_signal by now, or the report's week.
func spanOf(questions []drove, before bool) figures {
	f := figures{outcomes: map[string]int{}}
	var times []time.Duration
	for _, d := range questions {
		if d.before != before {
			continue
		}
		f.questions++
		o := d.path[len(d.path)-1]
		if o == outcome.Open && before {
			o = outcome.NoSignal // 7 days on, the day is past its 3 quiet days
		}
		f.outcomes[o]++
		if d.sources {
			f.sources++
		}
		if d.vote != "" {
			f.rated++
		}
		if d.vote == store.VoteUp {
			f.helpful++
		}
		times = append(times, d.firstText)
	}
	slices.Sort(times)
	if n := len(times); n%2 == 1 {
		f.median = times[n/2]
	} else if n > 0 {
		f.median = (times[n/2-1] + times[n/2]) / 2
	}
	return f
}

// wantLines are the report's lines of period, with their change on before.
func wantLines(period, before figures) []string {
	change := func(now, was int) string {
		switch d := now - was; {
		case d > 0:
			return fmt.Sprintf(" (+%d)", d)
		case d < 0:
			return fmt.Sprintf(" (%d)", d)
		}
		return " (±0)"
	}
	count := func(label string, now, was int) string { return fmt.Sprintf("%s: %d%s", label, now, change(now, was)) }
	o := func(f figures, name string) int { return f.outcomes[name] }
	return []string{
		count("Questions", period.questions, before.questions),
		count("Answered with sources", period.sources, before.sources),
		fmt.Sprintf("Resolved without a human: %d (%.1f%%)%s", o(period, outcome.Resolved),
			100*float64(o(period, outcome.Resolved))/float64(period.questions), change(o(period, outcome.Resolved), o(before, outcome.Resolved))),
		count("Resolved by an expert", o(period, outcome.ResolvedByExpert), o(before, outcome.ResolvedByExpert)),
		count("Handed off", o(period, outcome.HandedOff), o(before, outcome.HandedOff)),
		count("Uncertain", o(period, outcome.Uncertain), o(before, outcome.Uncertain)),
		fmt.Sprintf("Helpful: %d of %d rated (was %d of %d)", period.helpful, period.rated, before.helpful, before.rated),
		fmt.Sprintf("Median time to the first text: %.1f s (was %.1f s)", period.median.Seconds(), before.median.Seconds()),
	}
}

// wantGaps are the report's lines of the questions the test left
// uncertain or rated unhelpful in the report's week, grouped as it asked
// them (the first one asked shown), most questions first.
func wantGaps(questions []drove) []string {
	type gap struct {
		first           string
		n, uncer, unhel int
	}
	var order []string
	by := map[string]*gap{}
	for _, d := range questions {
		last := d.path[len(d.path)-1]
		if d.before || d.gap == "" || last != outcome.Uncertain && last != outcome.RatedUnhelpful {
			continue
		}
		g := by[d.gap]
		if g == nil {
			g = &gap{first: d.text}
			by[d.gap] = g
			order = append(order, d.gap)
		}
		g.n++
		if last == outcome.Uncertain {
			g.uncer++
		} else {
			g.unhel++
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return by[b].n - by[a].n })
	var out []string
	for _, k := range order {
		g := by[k]
		kinds := []string{}
		if g.uncer > 0 {
			kinds = append(kinds, fmt.Sprintf("%d uncertain", g.uncer))
		}
		if g.unhel > 0 {
			kinds = append(kinds, fmt.Sprintf("%d rated unhelpful", g.unhel))
		}
		noun := "questions"
		if g.n == 1 {
			noun = "question"
		}
		out = append(out, fmt.Sprintf("• “%s” — %d %s (%s)", g.first, g.n, noun, strings.Join(kinds, ", ")))
	}
	return out
}

// buttons are the drafts of m's section buttons of actionID.
func buttons(t *testing.T, m slacktest.Message, actionID string) []jobdraft.Draft {
	t.Helper()
	var out []jobdraft.Draft
	for _, v := range bottest.AccessoryValues(m, actionID) {
		d, err := jobdraft.Parse(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}
