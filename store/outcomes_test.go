package store_test

import (
	"errors"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

// TestOutcomes: a question's record is found by its message and its
// answer's, a change is written once (a second replica's same change
// writes nothing), and the day's counts follow the record as it changes.
func TestOutcomes(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	asked := time.Now().UTC().Add(-time.Hour)
	question := store.OutcomeRef{Team: "T1", Channel: "C1", TS: "1700000000.000100"}
	answer := store.OutcomeRef{Team: "T1", Channel: "C1", TS: "1700000000.000200"}
	create := &store.OutcomeRecord{Project: "docs", Team: "T1", Channel: "C1", TS: question.TS, Answer: answer.TS, Asker: "U1", Asked: asked}
	set := func(o string) func(*store.OutcomeRecord) bool {
		return func(r *store.OutcomeRecord) bool {
			if r.Outcome == o {
				return false
			}
			r.Outcome, r.Sources = o, true
			return true
		}
	}
	vote := func(who, choice string) func(*store.OutcomeRecord) bool {
		return func(r *store.OutcomeRecord) bool {
			if r.Votes[who].Choice == choice {
				return false
			}
			if r.Votes == nil {
				r.Votes = map[string]store.Vote{}
			}
			r.Votes[who] = store.Vote{Choice: choice, At: "1"}
			return true
		}
	}
	steps := []struct {
		name   string
		ref    store.OutcomeRef
		create *store.OutcomeRecord
		fn     func(*store.OutcomeRecord) bool
		wrote  bool
		want   map[string]int64
	}{
		{"before the answer, by the question", question, nil, set("open"), false, map[string]int64{}},
		{"the answer", question, create, set("open"), true,
			map[string]int64{store.CountQuestions: 1, store.CountOutcome("open"): 1, store.CountSources: 1}},
		{"the answer again (another replica)", question, create, set("open"), false,
			map[string]int64{store.CountQuestions: 1, store.CountOutcome("open"): 1, store.CountSources: 1}},
		{"by the answer", answer, nil, set("resolved"), true,
			map[string]int64{store.CountQuestions: 1, store.CountOutcome("resolved"): 1, store.CountSources: 1}},
		{"the asker's vote", question, nil, vote("U1", store.VoteDown), true,
			map[string]int64{store.CountQuestions: 1, store.CountOutcome("resolved"): 1, store.CountSources: 1, store.CountRated: 1}},
		{"the asker's other vote", question, nil, vote("U1", store.VoteUp), true,
			map[string]int64{store.CountQuestions: 1, store.CountOutcome("resolved"): 1, store.CountSources: 1, store.CountRated: 1, store.CountHelpful: 1}},
		{"another's vote, beside", answer, nil, vote("U2", store.VoteDown), true,
			map[string]int64{store.CountQuestions: 1, store.CountOutcome("resolved"): 1, store.CountSources: 1, store.CountRated: 1, store.CountHelpful: 1,
				store.CountOthersDown: 1}},
		{"a message of no question", store.OutcomeRef{Team: "T1", Channel: "C1", TS: "1700000000.000300"}, nil, set("open"), false,
			map[string]int64{store.CountQuestions: 1, store.CountOutcome("resolved"): 1, store.CountSources: 1, store.CountRated: 1, store.CountHelpful: 1,
				store.CountOthersDown: 1}},
	}
	for _, st := range steps {
		_, wrote, err := s.Outcomes().UpdateOutcome(ctx, st.ref, st.create, time.Now(), st.fn)
		if err != nil || wrote != st.wrote {
			t.Fatalf("%s: UpdateOutcome wrote %t, %v; want %t", st.name, wrote, err, st.wrote)
		}
		days, err := s.Outcomes().OutcomeDays(ctx, "docs", "T1", asked, asked)
		if err != nil || len(days) != 1 || !equalCounts(days[0].Counts, st.want) {
			t.Errorf("%s: the day's counts %v (%v), want %v", st.name, days, err, st.want)
		}
	}
	for _, ref := range []store.OutcomeRef{question, answer} {
		r, err := s.Outcomes().Outcome(ctx, ref)
		if err != nil || r.Outcome != "resolved" || r.TS != question.TS || r.AskerVote() != store.VoteUp {
			t.Errorf("Outcome(%s) = %+v, %v; want resolved, the question's, voted up", ref, r, err)
		}
	}
	if _, err := s.Outcomes().Outcome(ctx, store.OutcomeRef{Team: "T1", Channel: "C2", TS: question.TS}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Outcome in another channel = %v, want ErrNotFound", err)
	}

	// Another workspace's question of the same project is counted apart.
	other := store.OutcomeRef{Team: "T2", Channel: "C1", TS: question.TS}
	if _, _, err := s.Outcomes().UpdateOutcome(ctx, other, &store.OutcomeRecord{Project: "docs", Team: "T2", Channel: "C1", TS: other.TS, Asked: asked},
		time.Now(), set("open")); err != nil {
		t.Fatal(err)
	}
	for team, want := range map[string]int64{"T1": 1, "T2": 1, "T3": 0} {
		days, err := s.Outcomes().OutcomeDays(ctx, "docs", team, asked, asked)
		if err != nil || days[0].Counts[store.CountQuestions] != want {
			t.Errorf("%s's questions %v (%v), want %d", team, days, err, want)
		}
	}
	if teams, err := s.Outcomes().OutcomeTeams(ctx, "docs"); err != nil || !slices.Equal(teams, []string{"T1", "T2"}) {
		t.Errorf("OutcomeTeams = %q, %v; want T1 and T2", teams, err)
	}

	// Kept OutcomeRetention from the question.
	key := s.Prefix() + "outcome:{p:docs}:T1:C1:" + question.TS
	if d := pttl(t, key); d > store.OutcomeRetention || d < store.OutcomeRetention-2*time.Hour {
		t.Errorf("the record expires in %v, want about %v", d, store.OutcomeRetention-time.Hour)
	}

	for _, bad := range []store.OutcomeRef{{"", "C1", "1"}, {"T1", "", "1"}, {"T1", "C1", ""}} {
		if _, _, err := s.Outcomes().UpdateOutcome(ctx, bad, nil, time.Now(), set("open")); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("UpdateOutcome(%s) = %v, want ErrInvalid", bad, err)
		}
	}
	if _, _, err := s.Outcomes().UpdateOutcome(ctx, question, &store.OutcomeRecord{TS: question.TS}, time.Now(), set("open")); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("UpdateOutcome creating without the question's time = %v, want ErrInvalid", err)
	}
}

// TestOutcomeDetails: a day's details count each question's time to its
// first text once, by its step, and its topic under the outcome it has
// now, with the first question of each topic to show.
func TestOutcomeDetails(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	asked := time.Now().UTC().Add(-time.Hour)
	questions := []struct {
		ts, question, topic string
		firstText           time.Duration
		outcome             string
	}{
		{"1700000000.000100", "How do I install the CLI?", "cli install", 2340 * time.Millisecond, "uncertain"},
		{"1700000000.000200", "how to install the cli", "cli install", 2250 * time.Millisecond, "uncertain"},
		{"1700000000.000300", "Where are the audit logs?", "audit logs", 0, "open"},
	}
	for _, q := range questions {
		ref := store.OutcomeRef{Team: "T1", Channel: "C1", TS: q.ts}
		create := &store.OutcomeRecord{Project: "docs", Team: "T1", Channel: "C1", TS: q.ts, Asker: "U1", Asked: asked,
			Question: q.question, Topic: q.topic, FirstText: q.firstText}
		for range 2 { // a second replica's same write changes nothing
			if _, _, err := s.Outcomes().UpdateOutcome(ctx, ref, create, time.Now(), func(r *store.OutcomeRecord) bool {
				if r.Outcome == q.outcome {
					return false
				}
				r.Outcome = q.outcome
				return true
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The first question leaves uncertain: its topic moves with it.
	if _, _, err := s.Outcomes().UpdateOutcome(ctx, store.OutcomeRef{Team: "T1", Channel: "C1", TS: questions[0].ts}, nil, time.Now(),
		func(r *store.OutcomeRecord) bool { r.Outcome = "resolved"; return true }); err != nil {
		t.Fatal(err)
	}
	days, err := s.Outcomes().OutcomeDays(ctx, "docs", "T1", asked, asked)
	if err != nil || len(days) != 1 {
		t.Fatalf("OutcomeDays = %v, %v", days, err)
	}
	d := days[0]
	if want := map[time.Duration]int64{2300 * time.Millisecond: 2}; !maps.Equal(d.FirstTexts, want) {
		t.Errorf("first texts %v, want %v (the questions measured, to the nearest tenth of a second)", d.FirstTexts, want)
	}
	wantTopics := map[string]map[string]int64{"cli install": {"uncertain": 1, "resolved": 1}, "audit logs": {"open": 1}}
	if len(d.Topics) != len(wantTopics) || !maps.Equal(d.Topics["cli install"], wantTopics["cli install"]) ||
		!maps.Equal(d.Topics["audit logs"], wantTopics["audit logs"]) {
		t.Errorf("topics %v, want %v", d.Topics, wantTopics)
	}
	if want := map[string]string{"cli install": questions[0].question, "audit logs": questions[2].question}; !maps.Equal(d.Examples, want) {
		t.Errorf("examples %v, want the first question of each topic %v", d.Examples, want)
	}
	for _, key := range []string{"outcome-asks:{p:docs}:T1:", "outcomes:{p:docs}:T1:"} {
		if d := pttl(t, s.Prefix()+key+asked.Format(time.DateOnly)); d < store.OutcomeRetention {
			t.Errorf("%s expires in %v, want at least %v", key, d, store.OutcomeRetention)
		}
	}
}

// TestOutcomeOnAnotherClock: a record written on a clock far from
// Redis's (a test's) is kept OutcomeRetention from its question by that
// clock, and read back.
func TestOutcomeOnAnotherClock(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	asked := time.Date(2020, 11, 9, 12, 0, 0, 0, time.UTC)
	ref := store.OutcomeRef{Team: "T1", Channel: "C1", TS: "1604923200.000100"}
	create := &store.OutcomeRecord{Project: "docs", Team: "T1", Channel: "C1", TS: ref.TS, Asker: "U1", Asked: asked}
	if _, _, err := s.Outcomes().UpdateOutcome(t.Context(), ref, create, asked.Add(time.Hour), func(r *store.OutcomeRecord) bool {
		r.Outcome = "open"
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Outcomes().Outcome(t.Context(), ref); err != nil || r.Outcome != "open" {
		t.Fatalf("Outcome = %+v, %v; want the record", r, err)
	}
	if d := pttl(t, s.Prefix()+"outcome:{p:docs}:T1:C1:"+ref.TS); d > store.OutcomeRetention-time.Hour || d < store.OutcomeRetention-2*time.Hour {
		t.Errorf("the record expires in %v, want about %v", d, store.OutcomeRetention-time.Hour)
	}
	days, err := s.Outcomes().OutcomeDays(t.Context(), "docs", "T1", asked, asked)
	if err != nil || days[0].Counts[store.CountQuestions] != 1 {
		t.Errorf("the day's counts %v (%v), want the question", days, err)
	}
}

// TestOutcomeOnceAcrossReplicas: replicas applying the same signal to one
// question at once count it once.
func TestOutcomeOnceAcrossReplicas(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	prefix := newStore(t).Prefix()
	asked := time.Now().UTC()
	ref := store.OutcomeRef{Team: "T1", Channel: "C1", TS: "1700000000.000100"}
	create := &store.OutcomeRecord{Project: "docs", Team: "T1", Channel: "C1", TS: ref.TS, Asker: "U1", Asked: asked}
	var wg sync.WaitGroup
	wrote := make(chan bool, 16)
	for range 8 {
		replica := store.New(rdb, store.WithPrefix(prefix))
		wg.Go(func() {
			for _, o := range []string{"open", "resolved"} {
				_, w, err := replica.Outcomes().UpdateOutcome(ctx, ref, create, time.Now(), func(r *store.OutcomeRecord) bool {
					if r.Outcome == o || r.Outcome == "resolved" {
						return false
					}
					r.Outcome = o
					return true
				})
				if err != nil {
					t.Errorf("UpdateOutcome %s: %v", o, err)
				}
				wrote <- w
			}
		})
	}
	wg.Wait()
	close(wrote)
	writes := 0
	for w := range wrote {
		if w {
			writes++
		}
	}
	days, err := store.New(rdb, store.WithPrefix(prefix)).Outcomes().OutcomeDays(ctx, "docs", "T1", asked, asked)
	want := map[string]int64{store.CountQuestions: 1, store.CountOutcome("resolved"): 1}
	if err != nil || writes != 2 || !equalCounts(days[0].Counts, want) {
		t.Errorf("8 replicas: %d writes, counts %v (%v); want 2 writes, %v", writes, days, err, want)
	}
}

func equalCounts(got, want map[string]int64) bool {
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
