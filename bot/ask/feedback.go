package ask

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/store"
	"github.com/slack-go/slack"
)

// AuditAnswerFeedback is the audit trail's action of 👍/👎 on an answer.
const AuditAnswerFeedback = "docs.ask.feedback"

// voteKeep is how long a person's 👍/👎 on an answer is remembered, so
// that pressing again does not count again.
const voteKeep = 90 * 24 * time.Hour

// Work kinds of the answers' buttons that write (bot.QueuePress): each
// press is recorded before its ack and done by the replica that claims it.
const (
	workFeedback   = "ask.feedback"
	workFallsShort = "ask.falls-short"
	workAskTeam    = "ask.ask-team"
)

// Marks of the buttons' steps (bot.Work.Step).
const (
	markVote     = "vote"      // first or again: whether the press counted
	markTeamOnce = "team-once" // the question taken to send to the docs team
	markTeamSent = "team-sent" // and posted in the requests channel
)

// giveUpPress tells the person whose press waited too long for Slack or
// Redis (bot.WorkMaxAge) what was not done (text).
func (a *answers) giveUpPress(text string) func(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) {
	return func(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) {
		channel := cmp.Or(ic.Channel.ID, ic.Container.ChannelID)
		q := bot.Question{Team: ic.Team.ID, Channel: channel, User: ic.User.ID, ThreadTS: cmp.Or(ic.Container.ThreadTs, ic.Message.ThreadTimestamp),
			ResponseURL: ic.ResponseURL}
		a.tell(ctx, q, text, a.log.With("work", w.Key))
	}
}

func (a *answers) onFeedback(ctx context.Context, r *bot.InteractionRequest) {
	a.core.QueuePress(ctx, r, workFeedback, "your feedback was not recorded")
}

// doFeedback records a person's press of 👍/👎 in the question's outcome
// (each press: the buttons toggle; bot/outcome), and counts their first
// on an answer in /metrics and the audit trail, once across replicas (store.Limits.Once), and thanks
// them privately; a second press (the other button, or the same again) is
// thanked, saying it was counted already. A 👎 offers a way to have the
// docs fixed, every time. The count is a step (markVote): an attempt after
// a crash thanks as the first did.
func (a *answers) doFeedback(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) error {
	if len(ic.ActionCallback.BlockActions) == 0 {
		return nil
	}
	value := ic.ActionCallback.BlockActions[0].Value
	if value != feedbackGood && value != feedbackBad {
		a.log.Warn("feedback on an answer with an unknown value; ignored", "value", value)
		return nil
	}
	channel := cmp.Or(ic.Channel.ID, ic.Container.ChannelID)
	if refusal := a.core.Refusal(ic.User.ID, channel); refusal != "" {
		return nil
	}
	q := bot.Question{Team: ic.Team.ID, Channel: channel, User: ic.User.ID, ThreadTS: ic.Container.ThreadTs, ResponseURL: ic.ResponseURL}
	answer := cmp.Or(ic.Container.MessageTs, ic.Message.Timestamp, w.Key)
	log := a.log.With("user", ic.User.ID, "channel", channel, "answer", answer, "work", w.Key)
	choice := map[string]string{feedbackGood: store.VoteUp, feedbackBad: store.VoteDown}[value]
	// The question is named by its thread where the answer is in one: a
	// press right after an answer posted whole shows may come before its
	// ts names the question (unasked.go). A press applied again changes
	// nothing (its action_ts).
	kept := a.recordOutcome(ctx, store.OutcomeRef{Team: ic.Team.ID, Channel: channel, TS: cmp.Or(ic.Container.ThreadTs, answer)},
		nil, outcome.Event{Kind: outcome.Press, By: ic.User.ID, Choice: choice, At: ic.ActionCallback.BlockActions[0].ActionTs}, &q, log)
	// Counted once a person and answer, and only a press the outcome kept:
	// one that failed leaves the count to the next.
	counted, err := "", error(nil)
	if kept {
		counted, err = w.Step(ctx, markVote, func(ctx context.Context) (string, error) {
			first, err := a.store.Limits.OnceBy(ctx, "ask-vote:"+ic.Team.ID+":"+channel+":"+answer+":"+ic.User.ID, w.Key, voteKeep)
			if err != nil || !first {
				return "again", err
			}
			a.metrics.Feedback(value)
			return "first", nil
		})
		if errors.Is(err, bot.ErrUnmarked) {
			err = nil // counted: an attempt after a crash finds the count its own (OnceBy)
		}
	}
	var thanks string
	switch {
	case !kept:
		thanks = notRecorded
	case err != nil:
		log.Warn("cannot tell whether this feedback was counted; not counting it", "err", err)
		thanks = "docsbot could not record your feedback just now (its storage did not answer). Please press again in a minute."
	case counted != "first":
		log.Info("feedback on an answer given before; not counted again", "value", value)
		thanks = "Thanks; your feedback on this answer was counted already."
	default:
		a.core.Audit().Work(ctx, w, markAudited, store.AuditRecord{Team: ic.Team.ID, Channel: channel, User: ic.User.ID, Action: AuditAnswerFeedback,
			Outcome: value, Work: w.Key})
		thanks = "Thanks: this helps the docs team see which answers work."
		if value == feedbackBad {
			thanks = "Thanks for saying so: the docs team sees the answers that did not help."
		}
	}
	a.tell(ctx, q, thanks, log)
	if value == feedbackBad {
		a.offerFix(ctx, ic, a.log.With("user", ic.User.ID))
	}
	return nil
}

// onAskAgain asks the question of an answer that was lost or cut again, in
// the same thread, as the person who pressed (it spends their share).
func (a *answers) onAskAgain(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	if len(ic.ActionCallback.BlockActions) == 0 {
		r.Ack(nil)
		return
	}
	var v againValue
	channel := cmp.Or(ic.Channel.ID, ic.Container.ChannelID)
	thread := cmp.Or(ic.Container.ThreadTs, ic.Message.ThreadTimestamp, ic.Container.MessageTs)
	q := bot.Question{Team: ic.Team.ID, Channel: channel, User: ic.User.ID, ThreadTS: thread, Via: bot.ViaReply, ResponseURL: ic.ResponseURL}
	if err := json.Unmarshal([]byte(ic.ActionCallback.BlockActions[0].Value), &v); err != nil || v.Text == "" {
		r.Ack(nil)
		a.tell(ctx, q, "docsbot could not read the question of this button. Please ask it again.", a.log)
		return
	}
	if refusal := a.core.Refusal(ic.User.ID, channel); refusal != "" {
		r.Ack(nil)
		a.tell(ctx, q, refusal, a.log)
		return
	}
	q.Text, q.Project = v.Text, v.Project
	payload, _ := json.Marshal(q)
	if !a.core.AcceptEnvelope(ctx, store.Work{Key: "act:" + r.DeliveryID, Kind: bot.WorkAsk, Payload: payload}, bot.RedeliveredInteraction) {
		r.Ack(nil)
		a.tell(ctx, q, "docsbot cannot reach its storage right now, so your question was not taken. Try again in a minute.", a.log)
		return
	}
	r.Ack(nil)
}
