package helpchannels

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	qoutcome "github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/store"
)

// A ✅ on a message resolves the question the message is, or answers
// (bot/outcome's table: the asker's alone counts), read so:
//
//	the message                          in the ack               then, as work (doResolved)
//	a recorded question's, or its        the asker's, with no     the thread read: resolved_by_expert
//	  answer's                           reply by another known   when someone but the asker
//	                                     yet: work                replied, else resolved
//	                                     anyone else's, or a      -
//	                                     reply known: recorded
//	docsbot's own, of no recorded        work                     the message read for its thread,
//	  question, in a channel that                                 then as above, on the thread's
//	  answers unasked (an answer posted                           question
//	  whole whose ts is not recorded yet)
//	anything else                        nothing (one read)       -
//
// A ✅ that cannot be recorded in the ack is left unacknowledged for Slack
// to deliver again; on Slack's last try, and when its work gives up, the
// person is told privately that it was not counted.

// postsWhole reports whether docsbot may have posted an answer whole in
// channel, whose ts its question's record may not hold yet: a channel that
// answers unasked (auto), or one whose mode cannot be read. A ✅ on
// docsbot's other messages (a job's result, a digest) costs no work and no
// read of Slack.
func (f *Feature) postsWhole(ctx context.Context, channel string) bool {
	m, err := f.mode(ctx, channel)
	return err != nil || m == bot.ModeAuto
}

// workResolved is a ✅'s work.
const workResolved = "help.resolved"

// resolvedRequest is what a ✅ carries through the inbox: the message, who
// reacted, and the question's thread when the record was found (else the
// message is read for it).
type resolvedRequest struct {
	Team    string `json:"team"`
	Channel string `json:"channel"`
	TS      string `json:"ts"`
	User    string `json:"user"`
	Thread  string `json:"thread,omitempty"`
}

// notCounted tells a person whose ✅ could not be recorded.
const notCounted = "docsbot could not count your ✅ as this question resolved (its storage did not answer). " +
	"Take the ✅ off and add it again in a minute."

// onResolvedReaction records a ✅ on a message by the table above. It acks.
func (f *Feature) onResolvedReaction(ctx context.Context, req *bot.EventRequest, ev *slackevents.ReactionAddedEvent) {
	ref := store.OutcomeRef{Team: req.Event.TeamID, Channel: ev.Item.Channel, TS: ev.Item.Timestamp}
	now := f.cfg.Now()
	resolve := qoutcome.Event{Kind: qoutcome.Resolve, By: ev.User}
	var question string
	var read bool
	_, _, err := f.store.Outcomes.UpdateOutcome(ctx, ref, nil, now, func(r *store.OutcomeRecord) bool {
		question = r.TS
		if read = needsThread(*r, ev.User, now); read {
			return false
		}
		return qoutcome.Apply(r, resolve, now)
	})
	if err == nil && (read || question == "" && ev.ItemUser != "" && ev.ItemUser == f.self(ctx) && f.postsWhole(ctx, ref.Channel)) {
		payload, _ := json.Marshal(resolvedRequest{Team: ref.Team, Channel: ref.Channel, TS: ref.TS, User: ev.User, Thread: question})
		key := "resolved:" + ref.Team + ":" + ref.Channel + ":" + ref.TS + ":" + ev.User
		if !f.accept(ctx, store.Work{Key: key, Kind: workResolved, Payload: payload}) {
			err = fmt.Errorf("the ✅ of %s: %w", ref, errNotTaken)
		}
	}
	if err != nil {
		f.log.Warn("recording a ✅ in a question's outcome failed", "question", ref.String(), "err", err)
		if !req.LastDelivery {
			return // not acknowledged: Slack delivers it again
		}
	}
	req.Ack(nil)
	if err != nil {
		f.tellNotCounted(ctx, ref.Channel, ref.TS, ev.User, f.log)
	}
}

// errNotTaken: the inbox did not take a piece of work.
var errNotTaken = errors.New("not taken")

// needsThread reports whether a ✅ by by resolves r with no reply by
// someone but the asker known: the thread says whether it is resolved by
// an expert.
func needsThread(r store.OutcomeRecord, by string, now time.Time) bool {
	if r.Replied {
		return false
	}
	qoutcome.Apply(&r, qoutcome.Event{Kind: qoutcome.Resolve, By: by}, now)
	return r.Outcome == qoutcome.Resolved
}

// doResolved records a ✅ whose question's thread is read (the table
// above).
func (f *Feature) doResolved(ctx context.Context, w *bot.Work) error {
	var rr resolvedRequest
	if err := json.Unmarshal(w.Payload, &rr); err != nil {
		return fmt.Errorf("decoding a ✅: %w", err)
	}
	log := f.log.With("user", rr.User, "channel", rr.Channel, "ts", rr.TS, "work", w.Key)
	thread := rr.Thread
	if thread == "" {
		m, found, err := f.message(ctx, rr.Channel, rr.TS)
		switch {
		case err != nil && bot.TransientSlack(err):
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		case err != nil || !found:
			log.Info("the message of a ✅ cannot be read; nothing recorded", "err", err)
			return nil
		}
		thread = threadOf(m)
	}
	ref := store.OutcomeRef{Team: rr.Team, Channel: rr.Channel, TS: thread}
	now := f.cfg.Now()
	var rec store.OutcomeRecord
	if _, _, err := f.store.Outcomes.UpdateOutcome(ctx, ref, nil, now, func(r *store.OutcomeRecord) bool { rec = *r; return false }); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if rec.TS == "" {
		log.Debug("a ✅ on a message of no recorded question")
		return nil
	}
	replied := false
	if needsThread(rec, rr.User, now) {
		var err error
		replied, err = f.repliedBy(ctx, rr.Channel, thread, rec.Asker)
		switch {
		case err != nil && bot.TransientSlack(err):
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		case err != nil:
			log.Info("the thread cannot be read; the ✅ is recorded as if nobody else replied", "err", err)
		}
	}
	ev := qoutcome.Event{Kind: qoutcome.Resolve, By: rr.User, Replied: replied}
	if _, err := qoutcome.Record(ctx, f.store.Outcomes, ref, nil, ev, now); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	return nil
}

// giveUpResolved tells the person whose ✅ could not be recorded.
func (f *Feature) giveUpResolved(ctx context.Context, w *bot.Work) {
	var rr resolvedRequest
	if err := json.Unmarshal(w.Payload, &rr); err != nil {
		return
	}
	f.tellNotCounted(ctx, rr.Channel, rr.TS, rr.User, f.log.With("work", w.Key))
}

// tellNotCounted tells user privately that their ✅ on ts was not counted.
func (f *Feature) tellNotCounted(ctx context.Context, channel, ts, user string, log *slog.Logger) {
	p := bot.Private{User: user, Channel: channel, ThreadTS: ts, Text: notCounted}
	if err := f.tellPrivately(context.WithoutCancel(ctx), p); err != nil {
		log.Warn("telling a person their ✅ was not counted failed", "err", err)
	}
}
