package helpchannels

import (
	"context"
	"fmt"
	"log/slog"

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
//	✅ by anyone on a question or an answer  Resolve by them (the table counts the asker's),
//	  (onResolvedReaction, resolved.go)      Replied as its thread reads
//	Mark resolved (onResolve)              Resolve by anyone, Replied when the thread
//	                                       has a reply by someone but the asker
//	Ask an expert, the experts called      Handoff
//	  (onAskExpert)
//
// A ✅ that cannot be recorded is retried, then its person told
// (resolved.go); a failure to record another signal is logged.

// othersReplied reports whether someone but the asker replied in call's
// thread (repliedBy); false when the thread cannot be read.
func (f *Feature) othersReplied(ctx context.Context, call store.ExpertCall, log *slog.Logger) bool {
	replied, err := f.repliedBy(ctx, call.Channel, call.TS, call.Asker)
	if err != nil {
		log.Info("the thread cannot be read; its outcome is recorded as if nobody else replied", "err", err)
	}
	return replied
}

// repliedBy reports whether someone but asker (a person, not docsbot nor
// another bot) replied in the thread of ts in channel.
func (f *Feature) repliedBy(ctx context.Context, channel, ts, asker string) (bool, error) {
	msgs, err := f.replies(ctx, channel, ts, 200, false)
	if err != nil {
		return false, err
	}
	for _, m := range msgs {
		if m.Timestamp != ts && m.User != "" && m.User != asker && m.BotID == "" && m.User != f.self(ctx) {
			return true, nil
		}
	}
	return false, nil
}

// recordOutcome applies ev to the question ref names, as a step of w: the
// table makes an event applied twice the same as once, so a failed write
// is tried again with the work (bot.Later).
func (f *Feature) recordOutcome(ctx context.Context, w *bot.Work, ref store.OutcomeRef, ev qoutcome.Event) error {
	if _, err := qoutcome.Record(context.WithoutCancel(ctx), f.store.Outcomes, ref, nil, ev, f.cfg.Now()); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), fmt.Errorf("recording the outcome of question %s: %w", ref, err))
	}
	return nil
}
