package outcome_test

import (
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/store"
)

const (
	asker  = "U0ASKER"
	expert = "U0EXPERT"
)

var asked = time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)

// TestTable applies each event of the table to a question in each state
// (the package's doc table, a row each), within its quiet time unless the
// row says otherwise.
func TestTable(t *testing.T) {
	t.Parallel()
	soon := asked.Add(time.Hour)
	late := asked.Add(outcome.QuietAfter)
	answered := outcome.Event{Kind: outcome.Answered}
	uncertain := outcome.Event{Kind: outcome.AnsweredUncertain}
	check := outcome.Event{Kind: outcome.Resolve, By: asker}
	othersCheck := outcome.Event{Kind: outcome.Resolve, By: expert}
	markResolved := outcome.Event{Kind: outcome.Resolve, By: expert, ByAnyone: true}
	reply := outcome.Event{Kind: outcome.Reply, By: expert}
	askersReply := outcome.Event{Kind: outcome.Reply, By: asker}
	handoff := outcome.Event{Kind: outcome.Handoff}
	up := outcome.Event{Kind: outcome.Press, By: asker, Choice: store.VoteUp, At: "1800000000.000200"}
	down := outcome.Event{Kind: outcome.Press, By: asker, Choice: store.VoteDown, At: "1800000000.000200"}
	othersUp := outcome.Event{Kind: outcome.Press, By: expert, Choice: store.VoteUp, At: "1800000000.000200"}
	quiet := outcome.Event{Kind: outcome.Quiet}

	type facts struct {
		uncertain, replied bool
		vote               string // the asker's, pressed at ...100
	}
	rows := []struct {
		name    string
		from    string
		facts   facts
		ev      outcome.Event
		now     time.Time
		want    string
		changed bool
	}{
		{"none, answered", "", facts{}, answered, soon, outcome.Open, true},
		{"none, answered uncertain", "", facts{}, uncertain, soon, outcome.Uncertain, true},
		{"none, anything else", "", facts{}, check, soon, "", false},

		{"open, answered again", outcome.Open, facts{}, uncertain, soon, outcome.Open, false},
		{"open, asker's check", outcome.Open, facts{}, check, soon, outcome.Resolved, true},
		{"open, another's check", outcome.Open, facts{}, othersCheck, soon, outcome.Open, false},
		{"open, Mark resolved", outcome.Open, facts{}, markResolved, soon, outcome.Resolved, true},
		{"open after a reply, asker's check", outcome.Open, facts{replied: true}, check, soon, outcome.ResolvedByExpert, true},
		{"open, a reply", outcome.Open, facts{}, reply, soon, outcome.Open, true},
		{"open, the asker's reply", outcome.Open, facts{}, askersReply, soon, outcome.Open, false},
		{"open, handoff", outcome.Open, facts{}, handoff, soon, outcome.HandedOff, true},
		{"open, asker's 👍", outcome.Open, facts{}, up, soon, outcome.RatedHelpful, true},
		{"open, asker's 👎", outcome.Open, facts{}, down, soon, outcome.RatedUnhelpful, true},
		{"open, another's 👍", outcome.Open, facts{}, othersUp, soon, outcome.Open, true},
		{"open, quiet", outcome.Open, facts{}, quiet, late, outcome.NoSignal, true},
		{"open, quiet before its time", outcome.Open, facts{}, quiet, soon, outcome.Open, false},
		{"open, a signal after the quiet time", outcome.Open, facts{}, up, late, outcome.RatedHelpful, true},

		{"uncertain, asker's check", outcome.Uncertain, facts{uncertain: true}, check, soon, outcome.Resolved, true},
		{"uncertain, handoff", outcome.Uncertain, facts{uncertain: true}, handoff, soon, outcome.HandedOff, true},
		{"uncertain, asker's 👎", outcome.Uncertain, facts{uncertain: true}, down, soon, outcome.RatedUnhelpful, true},
		{"uncertain, another's 👍", outcome.Uncertain, facts{uncertain: true}, othersUp, soon, outcome.Uncertain, true},
		{"uncertain, quiet", outcome.Uncertain, facts{uncertain: true}, quiet, late, outcome.Uncertain, false},

		{"helpful, 👍 again withdraws it", outcome.RatedHelpful, facts{vote: store.VoteUp}, up, soon, outcome.Open, true},
		{"helpful, 👍 again withdraws it, quiet", outcome.RatedHelpful, facts{vote: store.VoteUp}, up, late, outcome.NoSignal, true},
		{"helpful of an uncertain answer, withdrawn", outcome.RatedHelpful, facts{uncertain: true, vote: store.VoteUp}, up, soon, outcome.Uncertain, true},
		{"helpful, then 👎", outcome.RatedHelpful, facts{vote: store.VoteUp}, down, soon, outcome.RatedUnhelpful, true},
		{"helpful, asker's check", outcome.RatedHelpful, facts{vote: store.VoteUp}, check, soon, outcome.Resolved, true},
		{"helpful, handoff", outcome.RatedHelpful, facts{vote: store.VoteUp}, handoff, soon, outcome.HandedOff, true},
		{"helpful, quiet", outcome.RatedHelpful, facts{vote: store.VoteUp}, quiet, late, outcome.RatedHelpful, false},
		{"unhelpful, then 👍", outcome.RatedUnhelpful, facts{vote: store.VoteDown}, up, soon, outcome.RatedHelpful, true},
		{"unhelpful, asker's check after a reply", outcome.RatedUnhelpful, facts{vote: store.VoteDown, replied: true}, check, soon, outcome.ResolvedByExpert, true},

		{"no signal, asker's check", outcome.NoSignal, facts{}, check, late, outcome.Resolved, true},
		{"no signal, handoff", outcome.NoSignal, facts{}, handoff, late, outcome.HandedOff, true},
		{"no signal, asker's 👎", outcome.NoSignal, facts{}, down, late, outcome.RatedUnhelpful, true},

		{"handed off, asker's check", outcome.HandedOff, facts{}, check, soon, outcome.Resolved, true},
		{"handed off, Mark resolved seeing a reply", outcome.HandedOff, facts{}, outcome.Event{Kind: outcome.Resolve, By: asker, ByAnyone: true, Replied: true},
			soon, outcome.ResolvedByExpert, true},
		{"handed off after a reply, Mark resolved", outcome.HandedOff, facts{replied: true}, markResolved, soon, outcome.ResolvedByExpert, true},
		{"handed off, asker's 👍 kept", outcome.HandedOff, facts{}, up, soon, outcome.HandedOff, true},
		{"handed off, handoff again", outcome.HandedOff, facts{}, handoff, soon, outcome.HandedOff, false},
		{"handed off, quiet", outcome.HandedOff, facts{}, quiet, late, outcome.HandedOff, false},

		{"resolved, asker's 👎 kept", outcome.Resolved, facts{}, down, soon, outcome.Resolved, true},
		{"resolved, a reply after", outcome.Resolved, facts{}, reply, soon, outcome.Resolved, true},
		{"resolved, handoff", outcome.Resolved, facts{}, handoff, soon, outcome.Resolved, false},
		{"resolved, check again", outcome.Resolved, facts{}, check, soon, outcome.Resolved, false},
		{"resolved by an expert, handoff", outcome.ResolvedByExpert, facts{replied: true}, handoff, soon, outcome.ResolvedByExpert, false},
		{"resolved by an expert, 👍 kept", outcome.ResolvedByExpert, facts{replied: true}, up, soon, outcome.ResolvedByExpert, true},
	}
	for _, row := range rows {
		r := store.OutcomeRecord{Asker: asker, Asked: asked, Outcome: row.from, Uncertain: row.facts.uncertain, Replied: row.facts.replied}
		if row.facts.vote != "" {
			r.Votes = map[string]store.Vote{asker: {Choice: row.facts.vote, At: "1800000000.000100"}}
		}
		changed := outcome.Apply(&r, row.ev, row.now)
		if r.Outcome != row.want || changed != row.changed {
			t.Errorf("%s: outcome %q, changed %t; want %q, %t", row.name, r.Outcome, changed, row.want, row.changed)
		}
	}
}

// TestPresses: the asker's presses toggle (Slack's feedback buttons do),
// the latest wins, and a press applied twice or arriving late changes
// nothing.
func TestPresses(t *testing.T) {
	t.Parallel()
	now := asked.Add(time.Hour)
	press := func(choice, at string) outcome.Event {
		return outcome.Event{Kind: outcome.Press, By: asker, Choice: choice, At: at}
	}
	steps := []struct {
		name    string
		ev      outcome.Event
		want    string
		changed bool
	}{
		{"👍", press(store.VoteUp, "1800000000.000100"), outcome.RatedHelpful, true},
		{"the same press again", press(store.VoteUp, "1800000000.000100"), outcome.RatedHelpful, false},
		{"👎", press(store.VoteDown, "1800000000.000200"), outcome.RatedUnhelpful, true},
		{"a late 👍 from before", press(store.VoteUp, "1800000000.000150"), outcome.RatedUnhelpful, false},
		{"👎 again: withdrawn", press(store.VoteDown, "1800000001.000000"), outcome.Open, true},
		{"👍 a second later", press(store.VoteUp, "1800000002.000000"), outcome.RatedHelpful, true},
		{"a press with no time", press(store.VoteDown, ""), outcome.RatedHelpful, false},
	}
	r := store.OutcomeRecord{Asker: asker, Asked: asked, Outcome: outcome.Open}
	for _, st := range steps {
		if changed := outcome.Apply(&r, st.ev, now); r.Outcome != st.want || changed != st.changed {
			t.Errorf("%s: outcome %q, changed %t; want %q, %t", st.name, r.Outcome, changed, st.want, st.changed)
		}
	}
}

// TestAtAndDays: an open question reads no_signal from its quiet time on,
// and a day's open questions count as no_signal once the whole day is
// that old.
func TestAtAndDays(t *testing.T) {
	t.Parallel()
	r := store.OutcomeRecord{Asker: asker, Asked: asked, Outcome: outcome.Open}
	reads := []struct {
		now  time.Time
		want string
	}{
		{asked, outcome.Open},
		{asked.Add(outcome.QuietAfter - time.Second), outcome.Open},
		{asked.Add(outcome.QuietAfter), outcome.NoSignal},
	}
	for _, rd := range reads {
		if got := outcome.At(r, rd.now); got != rd.want {
			t.Errorf("At %v after the question = %q, want %q", rd.now.Sub(asked), got, rd.want)
		}
	}
	day := asked.Truncate(24 * time.Hour)
	days := []store.OutcomeDay{{Day: day, Counts: map[string]int64{store.CountQuestions: 3, store.CountOutcome(outcome.Open): 2,
		store.CountOutcome(outcome.Resolved): 1}}}
	folds := []struct {
		now            time.Time
		open, noSignal int64
	}{
		{asked.Add(outcome.QuietAfter), 2, 0}, // the day's later questions are not quiet yet
		{day.Add(24*time.Hour + outcome.QuietAfter), 0, 2},
	}
	for _, f := range folds {
		c := outcome.Days(days, f.now)[0].Counts
		if c[store.CountOutcome(outcome.Open)] != f.open || c[store.CountOutcome(outcome.NoSignal)] != f.noSignal || c[store.CountQuestions] != 3 {
			t.Errorf("Days at %v: %v; want open %d, no_signal %d of 3", f.now, c, f.open, f.noSignal)
		}
	}
	if days[0].Counts[store.CountOutcome(outcome.Open)] != 2 {
		t.Errorf("Days changed the counts it was given: %v", days[0].Counts)
	}
}
