package ask

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/store"
)

// Outcomes records how each question came out (store.Outcomes; the table
// is bot/outcome's).
type Outcomes = outcome.Updater

// The answers' events of a question's outcome (bot/outcome's table):
//
//	where                          event
//	an answer shown (show,         Answered when whole and with sources, else
//	  unasked)                     AnsweredUncertain: the record starts, named by the
//	                               thread and the answer (the first; a follow-up's
//	                               answer names the same question), with the
//	                               question, its topic and its time to the first text
//	a person's 👍/👎 (onFeedback)  Press, at the press's action_ts
//	another's reply in the thread  Reply (doThreadReply)
//	Ask the docs team sent         Handoff (onAskTeam)
//
// A signal that cannot be recorded is tried again as work (doOutcome),
// for as long as the failure may pass; the person of a press that cannot
// be recorded, at once or in the end, is told privately to press again.
// The person's answer or press goes on meanwhile.

// answeredOutcome records that r's answer was shown (answer: its message,
// "" when shown privately), uncertain when it cited no sources.
func (a *answers) answeredOutcome(ctx context.Context, r reply, answer string, log *slog.Logger) {
	ev := outcome.Event{Kind: outcome.Answered}
	if r.outcome != "answered" || len(sourceKeys(r.stream.Sources())) == 0 {
		ev.Kind = outcome.AnsweredUncertain
	}
	q, now := r.q, a.cfg.Now()
	// The question's time is its message's (a mention, a DM, a help
	// channel's post), else the message showing it (/docs-ask's); the
	// first text's, the answer's message's, else now, when it is told
	// whole (privately, or an unasked question's note).
	shown := now
	if r.wr != nil && !r.wr.shownAt.IsZero() {
		shown = r.wr.shownAt
	}
	create := &store.OutcomeRecord{Project: r.key, Team: q.Team, Channel: q.Channel, TS: r.thread.TS, Answer: answer, Asker: q.User,
		Asked: now, Question: outcome.Question(q.Text), Topic: outcome.TopicOf(q.Text), FirstText: outcome.FirstText(cmp.Or(q.TS, r.thread.TS), shown)}
	a.recordOutcome(ctx, store.OutcomeRef{Team: q.Team, Channel: q.Channel, TS: r.thread.TS}, create, ev, nil, log)
}

// answerKnown names r's answer, answer, in its question's record, which
// started before the answer's ts was known (a message posted whole shows
// before Slack says its ts: unasked.go): a signal on the answer then
// finds the question, and the record keeps it as its answer.
func (a *answers) answerKnown(ctx context.Context, r reply, answer string, log *slog.Logger) {
	q, now := r.q, a.cfg.Now()
	ref := store.OutcomeRef{Team: q.Team, Channel: q.Channel, TS: answer}
	// create names the question and its answer for the references; the
	// record itself was started (answeredOutcome).
	create := &store.OutcomeRecord{Project: r.key, Team: q.Team, Channel: q.Channel, TS: r.thread.TS, Answer: answer, Asker: q.User, Asked: now}
	_, _, err := a.store.Outcomes.UpdateOutcome(context.WithoutCancel(ctx), ref, create, now, func(rec *store.OutcomeRecord) bool {
		if rec.Outcome == "" || rec.Answer != "" {
			return false // not started (the record ran out): nothing to name
		}
		rec.Answer = answer
		return true
	})
	if err != nil {
		log.Warn("naming the answer in its question's outcome failed", "question", ref.String(), "err", err)
	}
}

// recordOutcome applies ev to the question ref names; a failure that may
// pass is tried again as work (doOutcome). tell, when not nil, is the
// person whose signal it is, told privately when the work cannot record
// it. It reports whether the signal was recorded or kept to be tried
// again: false tells the caller to tell its person.
func (a *answers) recordOutcome(ctx context.Context, ref store.OutcomeRef, create *store.OutcomeRecord, ev outcome.Event, tell *bot.Question,
	log *slog.Logger) bool {
	ctx, now := context.WithoutCancel(ctx), a.cfg.Now()
	_, err := outcome.Record(ctx, a.store.Outcomes, ref, create, ev, now)
	switch {
	case err == nil:
		return true
	case !passing(err):
		log.Error("recording a question's outcome failed", "question", ref.String(), "err", err)
		return false
	}
	s := outcomeSignal{Ref: ref, Create: create, Event: ev, At: now, Tell: tell}
	payload, _ := json.Marshal(s)
	key := "outcome:" + ref.String() + ":" + strconv.Itoa(int(ev.Kind)) + ":" + ev.By + ":" + ev.At
	if _, qerr := a.core.QueueFromWork(ctx, store.Work{Key: key, Kind: workOutcome, Payload: payload}); qerr != nil {
		log.Error("recording a question's outcome failed, and it cannot be tried again", "question", ref.String(), "err", err, "queue_err", qerr)
		return false
	}
	log.Warn("recording a question's outcome failed; it is tried again", "question", ref.String(), "err", err)
	return true
}

// workOutcome is a signal of a question's outcome tried again
// (recordOutcome).
const workOutcome = "ask.outcome"

// outcomeSignal is what a signal tried again carries: the event, where and
// when it came, and its person.
type outcomeSignal struct {
	Ref    store.OutcomeRef     `json:"ref"`
	Create *store.OutcomeRecord `json:"create,omitempty"`
	Event  outcome.Event        `json:"event"`
	At     time.Time            `json:"at"`
	Tell   *bot.Question        `json:"tell,omitempty"`
}

// notRecorded tells a person whose 👍/👎 could not be recorded.
const notRecorded = "docsbot could not record your feedback on this answer (its storage refused it). Please press again in a minute."

// doOutcome records a signal that failed at first, at the time it came:
// again after a while while the failure may pass, else its person is told.
func (a *answers) doOutcome(ctx context.Context, w *bot.Work) error {
	var s outcomeSignal
	if err := json.Unmarshal(w.Payload, &s); err != nil {
		return fmt.Errorf("decoding an outcome's signal: %w", err)
	}
	_, err := outcome.Record(ctx, a.store.Outcomes, s.Ref, s.Create, s.Event, s.At)
	switch {
	case err == nil:
		return nil
	case passing(err):
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	log := a.log.With("work", w.Key, "question", s.Ref.String())
	log.Error("recording a question's outcome failed for good", "err", err)
	a.tellNotRecorded(ctx, s, log)
	return nil
}

// giveUpOutcome tells the person of a signal that could not be recorded in
// time.
func (a *answers) giveUpOutcome(ctx context.Context, w *bot.Work) {
	var s outcomeSignal
	if json.Unmarshal(w.Payload, &s) == nil {
		a.tellNotRecorded(ctx, s, a.log.With("work", w.Key))
	}
}

func (a *answers) tellNotRecorded(ctx context.Context, s outcomeSignal, log *slog.Logger) {
	if s.Tell != nil {
		a.tell(ctx, *s.Tell, notRecorded, log)
	}
}

// passing reports whether a failure to record may pass: Redis unreachable,
// failing over or loading (store.Temporary), or other replicas' writes in
// between (store.ErrContended).
func passing(err error) bool { return store.Temporary(err) || errors.Is(err, store.ErrContended) }
