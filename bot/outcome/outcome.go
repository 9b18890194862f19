// Package outcome decides how each question docsbot answered came out: one
// outcome a question, by one table (below), from the signals the answers,
// the help channels and the agent see. It is shared by them (features never
// import each other) and knows nothing of Slack: the features name the events, the
// store keeps the record (store.Outcomes) and counts it once across
// replicas, and the report reads it (At, Days; report.go: Read, the
// figures of a span of days and of the span before, and the topics of the
// questions docsbot could not answer well). What a record keeps of the
// question, its text, its topic and its time to the first text, is
// topic.go's (Question, TopicOf, FirstText); Metered counts the writes in
// the metrics.
//
// # The table
//
// A question's record starts when docsbot's answer is posted. Each event
// is applied to the outcome the record has, after Quiet when the question
// is QuietAfter old (so a question silent for 3 days is no_signal, and a
// later signal still wins over that where the table says so):
//
//	state \ event       Answered   Answered-  Resolve(1)    Reply    Handoff     AskerPress(2)     OtherPress Quiet
//	                               Uncertain
//	(none)              open       uncertain  -             -        -           -                 -          -
//	open                -          -          resolved      fact     handed_off  rated / base      beside     no_signal
//	uncertain           -          -          resolved      fact     handed_off  rated / base      beside     -
//	rated_helpful       -          -          resolved      fact     handed_off  rated / base      beside     -
//	rated_unhelpful     -          -          resolved      fact     handed_off  rated / base      beside     -
//	no_signal           -          -          resolved      fact     handed_off  rated / base      beside     -
//	handed_off          -          -          resolved      fact     -           choice kept       beside     -
//	resolved            -          -          -             fact     -           choice kept       beside     -
//	resolved_by_expert  -          -          -             fact     -           choice kept       beside     -
//
//	-      nothing changes
//	fact   the record notes that someone but the asker replied; the outcome stays
//	beside the person's vote is kept and counted beside, the outcome stays
//	(1)    the asker's ✅ on the question or the answer, or Mark resolved by
//	       anyone: resolved, or resolved_by_expert when someone but the asker
//	       had replied in the thread before (a Reply, or Event.Replied)
//	(2)    the asker's press, toggled against their last (pressing the choice
//	       they hold withdraws it, Slack's feedback buttons toggle): their
//	       latest choice wins, rated_helpful or rated_unhelpful; a withdrawn
//	       one goes back to base: uncertain when the answer was, else
//	       no_signal when quiet, else open
//
// Answered and Uncertain start a record: a second answer in the thread
// (a follow-up) changes nothing. An event for a question with no record
// (docsbot never answered it) is nothing.
package outcome

import (
	"context"
	"maps"
	"time"

	"github.com/docsbot/docsbot/store"
)

// The outcomes (states) of a question.
const (
	Open             = "open"
	Resolved         = "resolved"
	ResolvedByExpert = "resolved_by_expert"
	HandedOff        = "handed_off"
	Uncertain        = "uncertain"
	RatedHelpful     = "rated_helpful"
	RatedUnhelpful   = "rated_unhelpful"
	NoSignal         = "no_signal"
)

// States are the outcomes, in the report's order.
var States = [...]string{Open, Resolved, ResolvedByExpert, HandedOff, Uncertain, RatedHelpful, RatedUnhelpful, NoSignal}

// QuietAfter is how long a question stays open without a signal before it
// is no_signal.
const QuietAfter = 3 * 24 * time.Hour

// Kind is what happened to a question: the table's columns.
type Kind int

// The events of the table.
const (
	// Answered: docsbot's answer was posted, with sources.
	Answered Kind = iota + 1
	// AnsweredUncertain: the answer had no sources or said the docs do not
	// cover the question.
	AnsweredUncertain
	// Resolve: the asker's ✅ (on the question or the answer) or Mark
	// resolved; By is who, checked against the asker for ✅ (ByAnyone for
	// Mark resolved, which its button checks).
	Resolve
	// Reply: someone replied in the question's thread (By).
	Reply
	// Handoff: Ask an expert, Ask the docs team or a docs job made from
	// the answer.
	Handoff
	// Press: By pressed 👍 (Choice store.VoteUp) or 👎 (store.VoteDown)
	// at At (the press's action_ts); the asker's is AskerPress in the
	// table, anyone else's OtherPress.
	Press
	// Quiet: QuietAfter passed since the question; applied by Apply and At
	// themselves.
	Quiet
)

// Event is one signal of a question.
type Event struct {
	Kind Kind
	// By is the person (Resolve, Reply, Press).
	By string
	// ByAnyone: a Resolve that need not be the asker's (Mark resolved).
	ByAnyone bool
	// Replied: a Resolve whose thread, as read when it came, has a reply
	// by someone but the asker (Mark resolved reads it; the answers'
	// Reply events are only of threads they keep a conversation of).
	Replied bool
	// Choice and At: a Press's.
	Choice, At string
}

// row is what an event does to a question in one state: the table's cells.
type row map[Kind]func(r *store.OutcomeRecord, ev Event, now time.Time) bool

// table is the table above (read only); a state with no cell for an
// event is "-".
var table = map[string]row{
	"":               {Answered: start(Open), AnsweredUncertain: start(Uncertain)},
	Open:             open(true),
	Uncertain:        open(false),
	RatedHelpful:     open(false),
	RatedUnhelpful:   open(false),
	NoSignal:         open(false),
	HandedOff:        {Resolve: resolve, Reply: replied, Press: keepVote},
	Resolved:         {Reply: replied, Press: keepVote},
	ResolvedByExpert: {Reply: replied, Press: keepVote},
}

// open is the row of a state a later signal still decides; goesQuiet:
// Quiet moves it to no_signal.
func open(goesQuiet bool) row {
	r := row{Resolve: resolve, Reply: replied, Handoff: to(HandedOff), Press: rate}
	if goesQuiet {
		r[Quiet] = func(r *store.OutcomeRecord, _ Event, now time.Time) bool {
			if !quiet(*r, now) {
				return false
			}
			r.Outcome = NoSignal
			return true
		}
	}
	return r
}

func start(o string) func(*store.OutcomeRecord, Event, time.Time) bool {
	return func(r *store.OutcomeRecord, _ Event, _ time.Time) bool {
		r.Outcome, r.Uncertain, r.Sources = o, o == Uncertain, o == Open
		return true
	}
}

func to(o string) func(*store.OutcomeRecord, Event, time.Time) bool {
	return func(r *store.OutcomeRecord, _ Event, _ time.Time) bool {
		r.Outcome = o
		return true
	}
}

// resolve: the asker's ✅ or anyone's Mark resolved; by an expert when
// someone but the asker replied before.
func resolve(r *store.OutcomeRecord, ev Event, _ time.Time) bool {
	if !ev.ByAnyone && ev.By != r.Asker {
		return false
	}
	r.Replied = r.Replied || ev.Replied
	r.Outcome = Resolved
	if r.Replied {
		r.Outcome = ResolvedByExpert
	}
	return true
}

func replied(r *store.OutcomeRecord, ev Event, _ time.Time) bool {
	if ev.By == "" || ev.By == r.Asker || r.Replied {
		return false
	}
	r.Replied = true
	return true
}

// vote applies a press to its person's vote: toggled against their last,
// nothing for a press not later than it (the same press again, or one
// arriving late).
func vote(r *store.OutcomeRecord, ev Event) bool {
	if ev.By == "" || ev.At == "" || ev.Choice != store.VoteUp && ev.Choice != store.VoteDown {
		return false
	}
	last := r.Votes[ev.By]
	if !tsAfter(ev.At, last.At) {
		return false
	}
	v := store.Vote{Choice: ev.Choice, At: ev.At}
	if last.Choice == ev.Choice {
		v.Choice = "" // the press undoes the one before
	}
	if r.Votes == nil {
		r.Votes = map[string]store.Vote{}
	}
	r.Votes[ev.By] = v
	return true
}

// keepVote: the vote is kept (and counted), the outcome stays.
func keepVote(r *store.OutcomeRecord, ev Event, _ time.Time) bool { return vote(r, ev) }

// rate: the asker's latest choice is the outcome; anyone else's is kept
// beside.
func rate(r *store.OutcomeRecord, ev Event, now time.Time) bool {
	if !vote(r, ev) {
		return false
	}
	if ev.By != r.Asker {
		return true
	}
	switch r.AskerVote() {
	case store.VoteUp:
		r.Outcome = RatedHelpful
	case store.VoteDown:
		r.Outcome = RatedUnhelpful
	default:
		r.Outcome = base(*r, now)
	}
	return true
}

// base is the outcome of a question with no signal but its answer.
func base(r store.OutcomeRecord, now time.Time) string {
	switch {
	case r.Uncertain:
		return Uncertain
	case quiet(r, now):
		return NoSignal
	}
	return Open
}

func quiet(r store.OutcomeRecord, now time.Time) bool { return !now.Before(r.Asked.Add(QuietAfter)) }

// Apply applies ev to r at now, after Quiet when r is QuietAfter old, by
// the table; it reports whether r changed.
func Apply(r *store.OutcomeRecord, ev Event, now time.Time) bool {
	changed := false
	if r.Outcome != "" && quiet(*r, now) {
		changed = cell(r, Event{Kind: Quiet}, now)
	}
	return cell(r, ev, now) || changed
}

func cell(r *store.OutcomeRecord, ev Event, now time.Time) bool {
	do := table[r.Outcome][ev.Kind]
	return do != nil && do(r, ev, now)
}

// At is r's outcome at now: as recorded, but no_signal for one left open
// QuietAfter.
func At(r store.OutcomeRecord, now time.Time) string {
	if r.Outcome == Open && quiet(r, now) {
		return NoSignal
	}
	return r.Outcome
}

// Days are days as their questions' outcomes stand at now: the open
// questions of a day that ended QuietAfter before now counted as
// no_signal (a day's counts keep a question open until a signal writes
// it; a day less old keeps them open, never no_signal too early).
//
// The day's topics are folded the same way; its times to the first text
// and its examples are shared with days, not copied.
func Days(days []store.OutcomeDay, now time.Time) []store.OutcomeDay {
	out := make([]store.OutcomeDay, len(days))
	for i, d := range days {
		c := maps.Clone(d.Counts)
		topics := make(map[string]map[string]int64, len(d.Topics))
		for t, by := range d.Topics {
			topics[t] = maps.Clone(by)
		}
		if !now.Before(d.Day.Add(24*time.Hour + QuietAfter)) {
			fold(c, store.CountOutcome(Open), store.CountOutcome(NoSignal))
			for _, by := range topics {
				fold(by, Open, NoSignal)
			}
		}
		out[i] = store.OutcomeDay{Day: d.Day, Counts: c, FirstTexts: d.FirstTexts, Topics: topics, Examples: d.Examples}
	}
	return out
}

// fold moves the count of field from to field to.
func fold(c map[string]int64, from, to string) {
	if n := c[from]; n != 0 {
		c[to] += n
		delete(c, from)
	}
}

// tsAfter reports whether Slack timestamp a is later than b ("" is
// earliest): seconds, then the digits after the point.
func tsAfter(a, b string) bool {
	as, af := split(a)
	bs, bf := split(b)
	if len(as) != len(bs) {
		return len(as) > len(bs)
	}
	if as != bs {
		return as > bs
	}
	return af > bf
}

func split(ts string) (secs, frac string) {
	for i := range len(ts) {
		if ts[i] == '.' {
			return ts[:i], ts[i+1:]
		}
	}
	return ts, ""
}

// Updater is the part of the store a feature records outcomes with
// (store.Outcomes).
type Updater interface {
	UpdateOutcome(ctx context.Context, ref store.OutcomeRef, create *store.OutcomeRecord, now time.Time, fn func(*store.OutcomeRecord) bool) (store.OutcomeRecord, bool, error)
}

// Record applies ev at now to the question ref names (its message or its
// answer's), by the table, once across replicas (store.Outcomes.UpdateOutcome);
// create starts the record of a question not yet recorded (Answered,
// AnsweredUncertain), nil for every other event. It returns the record as
// it stands.
func Record(ctx context.Context, st Updater, ref store.OutcomeRef, create *store.OutcomeRecord, ev Event, now time.Time) (store.OutcomeRecord, error) {
	r, _, err := st.UpdateOutcome(ctx, ref, create, now, func(r *store.OutcomeRecord) bool { return Apply(r, ev, now) })
	return r, err
}
