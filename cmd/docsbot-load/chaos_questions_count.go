package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	qoutcome "github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
)

// questionFigures are what became of the chaos run's questions
// (chaos_questions.go), and of their outcomes.
type questionFigures struct {
	Asked int `json:"asked"`
	// Answers: answered once, told privately, lost or answered twice.
	Answers outcome `json:"answers"`
	// Records counts the questions with an outcome record; Missing those
	// answered without one; Split those whose answer names another record
	// than their thread.
	Records int `json:"records"`
	Missing int `json:"answered_without_record"`
	Split   int `json:"answer_names_another_record"`
	// Checked counts the questions whose outcome was checked against
	// their plan, Wrong those whose record says another; Unsure those
	// left out (a press or reaction not acknowledged, or acknowledged
	// without a word back: Silent).
	Checked int `json:"outcomes_checked"`
	Wrong   int `json:"outcomes_wrong"`
	Unsure  int `json:"outcomes_unsure"`
	Silent  int `json:"presses_without_word_back"`
	// UnsureWhy says, for each question left out, what was not known.
	UnsureWhy []string `json:"outcomes_unsure_why,omitempty"`
	// ByOutcome are the records by outcome; Report the quality report's
	// counts of the run's days (outcome.Read, what `docsbot quality`
	// prints); Miscounted the figures where the two differ.
	ByOutcome  map[string]int   `json:"records_by_outcome"`
	Report     qoutcome.Figures `json:"report"`
	Miscounted []string         `json:"miscounted,omitempty"`

	wrong []string
}

// countQuestions decides what became of each question and its outcome,
// and reads the quality report of the run's days.
func (res *chaosResult) countQuestions(ctx context.Context, r *rig, qs []*chaosQuestion, began time.Time) {
	f := &questionFigures{Asked: len(qs), ByOutcome: map[string]int{}}
	res.Questions = f
	acked := map[string]bool{}
	for _, a := range r.slack.Acks() {
		acked[a.EnvelopeID] = true
	}
	now := time.Now()
	tally := map[string]int{}
	for _, q := range qs {
		answers := f.countAnswer(r.slack, q, acked)
		if q.thread == "" {
			continue
		}
		rec, err := r.store.Outcomes().Outcome(ctx, store.OutcomeRef{Team: loadTeam, Channel: q.channel, TS: q.thread})
		switch {
		case errors.Is(err, store.ErrNotFound):
			if answers > 0 {
				f.Missing++
				f.wrong = append(f.wrong, fmt.Sprintf("question %d (%s) answered without an outcome record", q.i, q.how))
			}
			continue
		case err != nil:
			res.issues = append(res.issues, fmt.Sprintf("reading the outcome of question %d: %v", q.i, err))
			continue
		}
		f.Records++
		o := qoutcome.At(rec, now)
		f.ByOutcome[o]++
		addTally(tally, rec, o)
		if q.answerTS != "" {
			if by, err := r.store.Outcomes().Outcome(ctx, store.OutcomeRef{Team: loadTeam, Channel: q.channel, TS: q.answerTS}); err != nil || by.TS != rec.TS {
				f.Split++
				f.wrong = append(f.wrong, fmt.Sprintf("question %d: its answer names no record or another (%v)", q.i, err))
			}
		}
		f.check(q, rec, o)
	}
	rep, err := qoutcome.Read(ctx, r.store.Outcomes(), "", loadTeam, began, now, now)
	if err != nil {
		res.issues = append(res.issues, "reading the quality report: "+err.Error())
		return
	}
	f.Report = rep.Period
	f.compare(tally)
}

// countAnswer counts what became of q's answer and returns how many
// answers it got.
func (f *questionFigures) countAnswer(sl *slacktest.Server, q *chaosQuestion, acked map[string]bool) int {
	if q.thread == "" && q.envelope != "" {
		q.findAnswer(sl) // the thread may have shown after its asker stopped waiting
	}
	shown, answers := 0, 0
	if q.how == askSlash {
		for _, m := range sl.Messages(q.channel) {
			if m.BotID != "" && strings.Contains(m.Text, q.text) {
				shown++
			}
		}
	}
	if q.thread != "" {
		answers = len(answersIn(sl, q.channel, q.thread))
	}
	told := false
	for _, m := range sl.Ephemerals(q.asker) {
		told = told || m.Channel == q.channel && !tsTime(m.TS).Before(q.sentAt.Add(-time.Second))
	}
	fate, _ := sl.EventFate(q.eventID)
	switch {
	case answers > 1 || shown > 1:
		f.Answers.Doubled++
		f.wrong = append(f.wrong, fmt.Sprintf("question %d (%s): %d answers, shown %d times", q.i, q.how, answers, shown))
	case answers == 1:
		f.Answers.Done++
	case told:
		f.Answers.Told++
	case q.envelope != "" && !acked[q.envelope]:
		f.Answers.Timeout++
	case q.eventID != "" && fate.GaveUp && fate.LastLost:
		f.Answers.GaveUp++
	default:
		f.Answers.Lost++
		f.wrong = append(f.wrong, fmt.Sprintf("question %d (%s) lost: %s", q.i, q.how, q.why))
	}
	return answers
}

// check compares q's record with what its plan implies, unless what its
// asker did is not known.
func (f *questionFigures) check(q *chaosQuestion, rec store.OutcomeRecord, o string) {
	f.Silent += q.silent
	if q.unsure || q.why != "" {
		f.Unsure++
		f.UnsureWhy = append(f.UnsureWhy, fmt.Sprintf("question %d (%s, %s): %s", q.i, q.how, q.plan, q.why))
		return
	}
	f.Checked++
	want, vote, othersDown := q.want(rec.Sources)
	down := 0
	for who, v := range rec.Votes {
		if who != rec.Asker && v.Choice == store.VoteDown {
			down++
		}
	}
	if o != want || rec.AskerVote() != vote || down != othersDown || rec.Asker != q.asker {
		f.Wrong++
		f.wrong = append(f.wrong, fmt.Sprintf("question %d (%s, %s): %s, asker's vote %q, others' 👎 %d; want %s, %q, %d",
			q.i, q.how, q.plan, o, rec.AskerVote(), down, want, vote, othersDown))
	}
}

// addTally adds what record rec, of outcome o, counts in the report.
func addTally(t map[string]int, rec store.OutcomeRecord, o string) {
	t["questions"]++
	t[o]++
	if rec.Sources {
		t["sources"]++
	}
	switch rec.AskerVote() {
	case store.VoteUp:
		t["rated"]++
		t["helpful"]++
	case store.VoteDown:
		t["rated"]++
	}
	for who, v := range rec.Votes {
		if who != rec.Asker && v.Choice != "" {
			t["others_"+v.Choice]++
		}
	}
}

// compare sets Miscounted: the report's figures that are not the sum of
// the records.
func (f *questionFigures) compare(t map[string]int) {
	p := f.Report
	got := map[string]int64{"questions": p.Questions, "sources": p.Sources, qoutcome.Open: p.Open, qoutcome.Resolved: p.Resolved,
		qoutcome.ResolvedByExpert: p.ResolvedByExpert, qoutcome.HandedOff: p.HandedOff, qoutcome.Uncertain: p.Uncertain,
		qoutcome.RatedHelpful: p.RatedHelpful, qoutcome.RatedUnhelpful: p.RatedUnhelpful, qoutcome.NoSignal: p.NoSignal,
		"rated": p.Rated, "helpful": p.Helpful, "others_up": p.OthersUp, "others_down": p.OthersDown}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if got[k] != int64(t[k]) {
			f.Miscounted = append(f.Miscounted, fmt.Sprintf("%s: %d in the report, %d in the records", k, got[k], t[k]))
		}
	}
}

func (f *questionFigures) problems() []string {
	var out []string
	if f.Answers.Lost > 0 || f.Answers.Doubled > 0 || f.Missing > 0 || f.Split > 0 || f.Wrong > 0 || f.Silent > 0 {
		out = append(out, fmt.Sprintf("questions: %d lost, %d doubled; %d answered without a record, %d split, %d outcomes wrong, %d presses without a word back",
			f.Answers.Lost, f.Answers.Doubled, f.Missing, f.Split, f.Wrong, f.Silent))
	}
	if len(f.wrong) > 0 {
		out = append(out, "questions: "+strings.Join(f.wrong, "; "))
	}
	if len(f.Miscounted) > 0 {
		out = append(out, "the quality report counts otherwise than the records: "+strings.Join(f.Miscounted, "; "))
	}
	return out
}

func (f *questionFigures) section() section {
	var by []string
	for _, o := range qoutcome.States {
		if n := f.ByOutcome[o]; n > 0 {
			by = append(by, fmt.Sprintf("%s %d", o, n))
		}
	}
	p := f.Report
	sec := section{heading: "Questions answered from the docs, and their outcomes", rows: []row{
		goal("questions (/docs-ask, mentions, a help channel)", fmt.Sprintf("%d asked: %s", f.Asked, f.Answers), "0 lost, 0 doubled",
			f.Answers.Lost == 0 && f.Answers.Doubled == 0),
		goal("outcome records", fmt.Sprintf("%d (%d answered without one, %d answers naming another)", f.Records, f.Missing, f.Split),
			"one a question answered", f.Missing == 0 && f.Split == 0),
		goal("outcomes as the signals imply", fmt.Sprintf("%d of %d checked (%d not: a press unacknowledged)", f.Checked-f.Wrong, f.Checked, f.Unsure),
			"all", f.Wrong == 0),
		fig("records by outcome", "%s", strings.Join(by, ", ")),
		goal("the quality report", fmt.Sprintf("%d questions, %d with sources, %d resolved, %d by an expert, %d handed off, %d uncertain, helpful %d of %d rated, %d 👎 by others",
			p.Questions, p.Sources, p.Resolved, p.ResolvedByExpert, p.HandedOff, p.Uncertain, p.Helpful, p.Rated, p.OthersDown),
			"the records' sums: nothing counted twice", len(f.Miscounted) == 0),
	}}
	for _, why := range f.UnsureWhy {
		sec.rows = append(sec.rows, fig("outcome left out", "%s", why))
	}
	return sec
}
