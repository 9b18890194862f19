package ask_test

import (
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// team is the fake Slack's workspace.
const team = "T0TEST"

// outcomeOf waits until the question under ts in #general has the outcome
// want, as it stands at now, and returns its record.
func (h *harness) outcomeOf(ts, want string, now func() time.Time) store.OutcomeRecord {
	h.T.Helper()
	st := h.OpenStore()
	ref := store.OutcomeRef{Team: team, Channel: general, TS: ts}
	var r store.OutcomeRecord
	var err error
	h.WaitFor("the question's outcome "+want, func() bool {
		r, err = st.Outcomes().Outcome(h.T.Context(), ref)
		return err == nil && outcome.At(r, now()) == want
	})
	return r
}

// react adds user's reaction name to the message ts of #general, and
// returns once docsbot acknowledged it.
func (h *harness) react(user, ts, name string) {
	h.T.Helper()
	if err := h.Slack.React(h.T.Context(), user, general, ts, name); err != nil {
		h.T.Fatalf("%s reacting :%s: to %s: %v", user, name, ts, err)
	}
}

// TestOutcomeResolvedByTheAskersCheck: an answered question is resolved by
// its asker's ✅ on the answer, not by another's ✅ on the question.
func TestOutcomeResolvedByTheAskersCheck(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	q := h.asked(alice, "How do I install the CLI?")
	answer := h.answered(q)
	h.outcomeOf(q, outcome.Open, time.Now)
	h.react(bob, q, "white_check_mark")
	if r, err := h.OpenStore().Outcomes().Outcome(t.Context(), store.OutcomeRef{Team: team, Channel: general, TS: q}); err != nil || r.Outcome != outcome.Open {
		t.Errorf("after bob's ✅ the outcome is %q (%v), want open: only the asker's resolves", r.Outcome, err)
	}
	h.react(alice, answer.TS, "white_check_mark")
	r := h.outcomeOf(q, outcome.Resolved, time.Now)
	if r.Asker != alice || r.Answer != answer.TS || !r.Sources {
		t.Errorf("the record is %+v; want alice's, naming the answer %s, with sources", r, answer.TS)
	}
	const question = "How do I install the CLI?"
	if r.Question != question || r.Topic != outcome.TopicOf(question) || r.FirstText <= 0 {
		t.Errorf("the record keeps %q, topic %q, first text after %v; want the question, its topic and a time", r.Question, r.Topic, r.FirstText)
	}
}

// TestOutcomeAskersLatestPress: the asker's 👍 then 👎 is rated_unhelpful
// (the latest choice wins); another's 👍 is counted beside, not as the
// outcome; the same press again withdraws it.
func TestOutcomeAskersLatestPress(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	q := h.asked(alice, "How do I install the CLI?")
	answer := h.answered(q)
	h.outcomeOf(q, outcome.Open, time.Now)
	h.press(bob, answer, ask.ActionFeedback, "good")
	h.WaitFor("bob thanked", func() bool { return h.told(bob, "Thanks: this helps") })
	h.press(alice, answer, ask.ActionFeedback, "good")
	h.outcomeOf(q, outcome.RatedHelpful, time.Now)
	h.press(alice, answer, ask.ActionFeedback, "bad")
	r := h.outcomeOf(q, outcome.RatedUnhelpful, time.Now)
	if r.Votes[bob].Choice != store.VoteUp {
		t.Errorf("bob's vote is %+v, want his 👍 kept beside", r.Votes[bob])
	}
	days, err := h.OpenStore().Outcomes().OutcomeDays(t.Context(), r.Project, r.Team, r.Asked, r.Asked)
	want := map[string]int64{store.CountQuestions: 1, store.CountOutcome(outcome.RatedUnhelpful): 1, store.CountSources: 1,
		store.CountRated: 1, store.CountOthersUp: 1}
	if err != nil || len(days) != 1 || !sameCounts(days[0].Counts, want) {
		t.Errorf("the day's counts are %v (%v), want %v", days, err, want)
	}
	h.press(alice, answer, ask.ActionFeedback, "bad")
	h.outcomeOf(q, outcome.Open, time.Now)
}

// TestOutcomeUncertain: an answer without sources, and nothing after it,
// is uncertain.
func TestOutcomeUncertain(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	q := h.asked(alice, "Why is the office coffee machine always broken?")
	h.answered(q)
	if r := h.outcomeOf(q, outcome.Uncertain, time.Now); r.Sources {
		t.Errorf("the record says the answer had sources: %+v", r)
	}
}

// TestOutcomeHandedOff: Ask the docs team hands the question off.
func TestOutcomeHandedOff(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.startWithRequests(alice)
	q := h.asked(bob, "Where are the audit logs?")
	answer := h.answered(q)
	// Recorded once the answer shows whole (uncertain: the docs have no
	// page on it), before bob says it falls short.
	h.outcomeOf(q, outcome.Uncertain, time.Now)
	h.press(bob, answer, ask.ActionFallsShort, "")
	offer := h.WaitButtons(bob, ask.ActionAskTeam)
	h.press(bob, offer, ask.ActionAskTeam, "")
	h.outcomeOf(q, outcome.HandedOff, time.Now)
}

// TestOutcomeDocsJob: a docs job made from the answer (the editor's Make
// this a docs job) hands the question off.
func TestOutcomeDocsJob(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Editors: []string{alice}})
	q := h.asked(alice, "How do I set up SSO?")
	answer := h.answered(q)
	h.outcomeOf(q, outcome.Open, time.Now)
	h.press(alice, answer, ask.ActionFallsShort, "")
	offer := h.WaitButtons(alice, jobdraft.ActionJobFromAnswer)
	h.press(alice, offer, jobdraft.ActionJobFromAnswer, "")
	h.startedFrom(alice)
	h.outcomeOf(q, outcome.HandedOff, time.Now)
}

// TestOutcomeNoSignal: an answered question nobody signals anything on is
// open for 3 days on the clock, then no_signal, and so counted once its
// whole day is that old.
func TestOutcomeNoSignal(t *testing.T) {
	t.Parallel()
	clock := slacktest.NewManualClock(time.Now())
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true, Now: clock.Now})
	q := h.asked(alice, "How do I install the CLI?")
	h.answered(q)
	r := h.outcomeOf(q, outcome.Open, clock.Now)
	clock.Advance(outcome.QuietAfter - time.Minute)
	if got := outcome.At(r, clock.Now()); got != outcome.Open {
		t.Errorf("a minute before 3 days the outcome is %q, want open", got)
	}
	clock.Advance(time.Minute)
	h.outcomeOf(q, outcome.NoSignal, clock.Now)
	clock.Advance(24 * time.Hour)
	days, err := h.OpenStore().Outcomes().OutcomeDays(t.Context(), r.Project, r.Team, r.Asked, r.Asked)
	if err != nil {
		t.Fatal(err)
	}
	if c := outcome.Days(days, clock.Now())[0].Counts; c[store.CountOutcome(outcome.NoSignal)] != 1 || c[store.CountOutcome(outcome.Open)] != 0 {
		t.Errorf("the day's counts read %v, want the question no_signal", c)
	}
}

func sameCounts(got, want map[string]int64) bool {
	if len(got) != len(want) {
		return false
	}
	for f, n := range want {
		if got[f] != n {
			return false
		}
	}
	return true
}

// TestOutcomePressNotRecordedIsTold: a 👍 whose outcome Redis refuses to
// record (the question's reference made another type of key) is not
// thanked: its person is told privately that it was not recorded and to
// press again; pressed again once Redis takes it, it counts.
func TestOutcomePressNotRecordedIsTold(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.StartBot(bottest.Config{Answers: true})
	q := h.asked(alice, "How do I install the CLI?")
	answer := h.answered(q)
	h.outcomeOf(q, outcome.Open, time.Now)
	rdb, err := redistest.ClientOf(h.RedisURL)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	ref := h.Prefix + "outcome-ref:" + team + ":" + general + ":" + q
	was, err := rdb.Get(t.Context(), ref).Result()
	if err != nil {
		t.Fatalf("the question's reference %s: %v", ref, err)
	}
	if err := rdb.Del(t.Context(), ref).Err(); err != nil {
		t.Fatal(err)
	}
	if err := rdb.HSet(t.Context(), ref, "not", "a reference").Err(); err != nil {
		t.Fatal(err)
	}
	h.press(alice, answer, ask.ActionFeedback, "good")
	h.WaitFor("alice told her 👍 was not recorded", func() bool { return h.told(alice, "could not record your feedback") })
	if h.told(alice, "Thanks") {
		t.Errorf("alice was thanked for a 👍 that was not recorded")
	}
	if err := rdb.Del(t.Context(), ref).Err(); err != nil {
		t.Fatal(err)
	}
	if err := rdb.Set(t.Context(), ref, was, 0).Err(); err != nil {
		t.Fatal(err)
	}
	h.press(alice, answer, ask.ActionFeedback, "good")
	h.outcomeOf(q, outcome.RatedHelpful, time.Now)
}
