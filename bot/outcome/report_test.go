package outcome_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/store"
)

// question is one question of a made-up day, as the store counts it.
type question struct {
	day       int // of the report's days, 0 the first of the span before
	outcome   string
	sources   bool
	vote      string // the asker's
	firstText time.Duration
	topic     string
}

// daysOf counts questions as the store does (its day counts and details)
// over n days from first.
func daysOf(first time.Time, n int, qs []question) []store.OutcomeDay {
	days := make([]store.OutcomeDay, n)
	for i := range days {
		days[i] = store.OutcomeDay{Day: first.AddDate(0, 0, i), Counts: map[string]int64{}, FirstTexts: map[time.Duration]int64{},
			Topics: map[string]map[string]int64{}, Examples: map[string]string{}}
	}
	for _, q := range qs {
		d := days[q.day]
		d.Counts[store.CountQuestions]++
		d.Counts[store.CountOutcome(q.outcome)]++
		if q.sources {
			d.Counts[store.CountSources]++
		}
		if q.vote != "" {
			d.Counts[store.CountRated]++
			if q.vote == store.VoteUp {
				d.Counts[store.CountHelpful]++
			}
		}
		if q.firstText > 0 {
			d.FirstTexts[q.firstText]++
		}
		if q.topic != "" {
			if d.Topics[q.topic] == nil {
				d.Topics[q.topic] = map[string]int64{}
				d.Examples[q.topic] = fmt.Sprintf("%s? (day %d)", q.topic, q.day)
			}
			d.Topics[q.topic][q.outcome]++
		}
	}
	return days
}

// TestReport: a report sums each half of its days, its median time to the
// first text is the middle one (or the mean of the two), a day's open
// questions count as no_signal once it is 3 days old, and its gaps are the
// ten topics with the most uncertain or unhelpful questions, most first.
func TestReport(t *testing.T) {
	t.Parallel()
	first := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) // the span before: Nov 1 – 7; the period: Nov 8 – 14
	now := time.Date(2026, 11, 14, 12, 0, 0, 0, time.UTC)
	s := time.Second
	qs := []question{
		{day: 0, outcome: outcome.Open, sources: true, firstText: 4 * s},
		{day: 1, outcome: outcome.Resolved, sources: true, firstText: 2 * s},
		{day: 7, outcome: outcome.Resolved, sources: true, vote: store.VoteUp, firstText: 3 * s},
		{day: 8, outcome: outcome.ResolvedByExpert, sources: true, firstText: 5 * s},
		{day: 9, outcome: outcome.HandedOff, firstText: 1 * s, topic: "sso"},
		{day: 10, outcome: outcome.Uncertain, firstText: 9 * s, topic: "coffee machine"},
		{day: 13, outcome: outcome.Uncertain, topic: "coffee machine"},
		{day: 13, outcome: outcome.RatedUnhelpful, sources: true, vote: store.VoteDown, firstText: 2 * s, topic: "api key rotate"},
		{day: 13, outcome: outcome.Open, sources: true, firstText: 7 * s},
	}
	// Eleven topics of one uncertain question each on the last day: the
	// last of them (by topic) is left out of the ten.
	for i := range 11 {
		qs = append(qs, question{day: 13, outcome: outcome.Uncertain, topic: fmt.Sprintf("topic %02d", i)})
	}
	r := outcome.ReportOf("docs", daysOf(first, 14, qs), now)

	var want [2]outcome.Figures
	times := [2][]time.Duration{}
	for _, q := range qs {
		f := &want[q.day/7]
		f.Questions++
		o := q.outcome
		if o == outcome.Open && !now.Before(first.AddDate(0, 0, q.day+1).Add(outcome.QuietAfter)) {
			o = outcome.NoSignal
		}
		for name, n := range map[string]*int64{outcome.Resolved: &f.Resolved, outcome.ResolvedByExpert: &f.ResolvedByExpert,
			outcome.HandedOff: &f.HandedOff, outcome.Uncertain: &f.Uncertain, outcome.RatedUnhelpful: &f.RatedUnhelpful,
			outcome.NoSignal: &f.NoSignal, outcome.Open: &f.Open} {
			if o == name {
				*n++
			}
		}
		if q.sources {
			f.Sources++
		}
		if q.vote != "" {
			f.Rated++
		}
		if q.vote == store.VoteUp {
			f.Helpful++
		}
		if q.firstText > 0 {
			times[q.day/7] = append(times[q.day/7], q.firstText)
		}
	}
	for i, got := range []outcome.Figures{r.Before, r.Period} {
		w := want[i]
		if got.Questions != w.Questions || got.Sources != w.Sources || got.Resolved != w.Resolved || got.ResolvedByExpert != w.ResolvedByExpert ||
			got.HandedOff != w.HandedOff || got.Uncertain != w.Uncertain || got.RatedUnhelpful != w.RatedUnhelpful || got.NoSignal != w.NoSignal ||
			got.Open != w.Open || got.Rated != w.Rated || got.Helpful != w.Helpful || got.Timed != int64(len(times[i])) {
			t.Errorf("half %d: %+v, want %+v (%d timed)", i, got, w, len(times[i]))
		}
	}
	if !r.Before.First.Equal(first) || !r.Before.Last.Equal(first.AddDate(0, 0, 6)) || !r.Period.First.Equal(first.AddDate(0, 0, 7)) ||
		!r.Period.Last.Equal(first.AddDate(0, 0, 13)) {
		t.Errorf("days %v–%v and %v–%v", r.Before.First, r.Before.Last, r.Period.First, r.Period.Last)
	}
	// Before: 4 s and 2 s, the mean of the two; the period: 3, 5, 1, 9, 2, 7 s: the mean of 3 and 5.
	if d, ok := r.Before.MedianFirstText(); !ok || d != 3*s {
		t.Errorf("median before %v, %t; want 3s", d, ok)
	}
	if d, ok := r.Period.MedianFirstText(); !ok || d != 4*s {
		t.Errorf("median %v, %t; want 4s", d, ok)
	}
	if len(r.Gaps) != outcome.GapsShown {
		t.Fatalf("%d gaps, want %d: %+v", len(r.Gaps), outcome.GapsShown, r.Gaps)
	}
	if g := r.Gaps[0]; g.Topic != "coffee machine" || g.Questions != 2 || g.Uncertain != 2 || g.Question != "coffee machine? (day 13)" {
		t.Errorf("the first gap is %+v, want the coffee machine's 2 uncertain questions, shown by the latest day's", g)
	}
	if g := r.Gaps[1]; g.Topic != "api key rotate" || g.Questions != 1 || g.Unhelpful != 1 {
		t.Errorf("the second gap is %+v, want the rated unhelpful one", g)
	}
	if g := r.Gaps[9]; g.Topic != "topic 07" {
		t.Errorf("the last gap shown is %q, want topic 07 (ten shown, by count then topic)", g.Topic)
	}
	if r.GapQuestions != 2+1+11 || r.GapTopics != 2+11 {
		t.Errorf("%d gap questions in %d topics, want %d in %d", r.GapQuestions, r.GapTopics, 2+1+11, 2+11)
	}
	for _, g := range r.Gaps {
		if g.Topic == "sso" {
			t.Errorf("a handed off question is among the gaps: %+v", g)
		}
	}
}
