package ask

import (
	"cmp"
	"context"
	"log/slog"

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
// A failure to record is logged: the person's answer or press goes on.

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
	a.recordOutcome(ctx, store.OutcomeRef{Team: q.Team, Channel: q.Channel, TS: r.thread.TS}, create, ev, log)
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

// recordOutcome applies ev to the question ref names.
func (a *answers) recordOutcome(ctx context.Context, ref store.OutcomeRef, create *store.OutcomeRecord, ev outcome.Event, log *slog.Logger) {
	if _, err := outcome.Record(context.WithoutCancel(ctx), a.store.Outcomes, ref, create, ev, a.cfg.Now()); err != nil {
		log.Warn("recording a question's outcome failed", "question", ref.String(), "err", err)
	}
}
