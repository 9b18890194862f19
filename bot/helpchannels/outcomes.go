package helpchannels

import (
	"context"
	"log/slog"

	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	qoutcome "github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/store"
)

// Outcomes records how each question came out (store.Outcomes; the table
// is bot/outcome's).
type Outcomes = qoutcome.Updater

// The help channels' events of a question's outcome (bot/outcome's
// table), on questions the answers recorded when they answered:
//
//	where                                  event
//	✅ by anyone on a question or an answer  Resolve by them (the table counts the asker's)
//	  (onResolvedReaction, in the ack)
//	Mark resolved (onResolve)              Resolve by anyone, Replied when the thread
//	                                       has a reply by someone but the asker
//	Ask an expert, the experts called      Handoff
//	  (onAskExpert)
//
// A failure to record is logged, and the ✅ left unacknowledged for Slack
// to deliver again, but on its last try.

// onResolvedReaction records a ✅ on a message as a Resolve of the question
// the message is, or answers; a message of no recorded question costs one
// read. It acks.
func (f *Feature) onResolvedReaction(ctx context.Context, req *bot.EventRequest, ev *slackevents.ReactionAddedEvent) {
	ref := store.OutcomeRef{Team: req.Event.TeamID, Channel: ev.Item.Channel, TS: ev.Item.Timestamp}
	if _, err := qoutcome.Record(ctx, f.store.Outcomes, ref, nil, qoutcome.Event{Kind: qoutcome.Resolve, By: ev.User}, f.cfg.Now()); err != nil {
		f.log.Warn("recording a ✅ in a question's outcome failed", "question", ref.String(), "err", err)
		if !req.LastDelivery {
			return // not acknowledged: Slack delivers it again
		}
	}
	req.Ack(nil)
}

// othersReplied reports whether someone but the asker (a person, not
// docsbot nor another bot) replied in call's thread; false when the thread
// cannot be read.
func (f *Feature) othersReplied(ctx context.Context, call store.ExpertCall, log *slog.Logger) bool {
	msgs, err := f.replies(ctx, call.Channel, call.TS, 200, false)
	if err != nil {
		log.Info("the thread cannot be read; its outcome is recorded as if nobody else replied", "err", err)
		return false
	}
	for _, m := range msgs {
		if m.Timestamp != call.TS && m.User != "" && m.User != call.Asker && m.BotID == "" && m.User != f.self(ctx) {
			return true
		}
	}
	return false
}

// recordOutcome applies ev to the question ref names.
func (f *Feature) recordOutcome(ctx context.Context, ref store.OutcomeRef, ev qoutcome.Event, log *slog.Logger) {
	if _, err := qoutcome.Record(context.WithoutCancel(ctx), f.store.Outcomes, ref, nil, ev, f.cfg.Now()); err != nil {
		log.Warn("recording a question's outcome failed", "question", ref.String(), "err", err)
	}
}
