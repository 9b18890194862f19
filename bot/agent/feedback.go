package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// workFeedback is the kind of inbox work of a feedback button's click.
const workFeedback = "agent.feedback"

// voteKeep is how long a person's feedback on a result is remembered, so
// that clicking again does not count again.
const voteKeep = 90 * 24 * time.Hour

// feedbackRequest is what a feedback click carries through the inbox.
type feedbackRequest struct {
	Team    string `json:"team"`
	Channel string `json:"channel"`
	// Result is the result message's ts, Thread its thread's.
	Result string `json:"result"`
	Thread string `json:"thread"`
	User   string `json:"user"`
	// Outcome is feedbackGood or feedbackBad.
	Outcome string `json:"outcome"`
}

// onFeedback records a click on a result's 👍/👎 as inbox work keyed by the
// interaction, then acks it.
func (a *agent) onFeedback(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	act := ic.ActionCallback.BlockActions[0]
	req := feedbackRequest{
		Team:    cmp.Or(ic.Team.ID, ic.User.TeamID),
		Channel: interactionChannel(&ic),
		Result:  cmp.Or(ic.Container.MessageTs, ic.Message.Timestamp),
		Thread:  ic.Container.ThreadTs,
		User:    ic.User.ID,
		Outcome: act.Value,
	}
	if (req.Outcome != feedbackGood && req.Outcome != feedbackBad) || req.Channel == "" || req.Result == "" {
		a.log.Warn("feedback on something that is not a result; ignored", "value", act.Value, "channel", req.Channel)
		r.Ack(nil)
		return
	}
	note := replyRequest{Post: bot.Post{Channel: req.Channel, User: req.User, ThreadTS: req.Thread}}
	if refusal := a.core.Refusal(req.User, req.Channel); refusal != "" {
		r.Ack(nil)
		a.tellInThread(ctx, note, refusal, a.log)
		return
	}
	payload, _ := json.Marshal(req)
	key := "act:" + cmp.Or(r.DeliveryID, req.Channel+"/"+req.Result+"/"+req.User+"/"+act.ActionTs)
	if !a.core.AcceptEnvelope(ctx, store.Work{Key: key, Kind: workFeedback, Payload: payload}, bot.RedeliveredInteraction) {
		r.Ack(nil)
		a.tellInThread(ctx, note, "docsbot cannot reach its storage right now, so your feedback was not recorded. Try again in a minute.", a.log)
		return
	}
	r.Ack(nil)
}

// doFeedback counts a person's first feedback on a result in /metrics, logs
// it, and thanks them privately.
func (a *agent) doFeedback(ctx context.Context, w *bot.Work) error {
	var req feedbackRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding feedback: %w", err)
	}
	log := a.log.With("user", req.User, "channel", req.Channel, "result", req.Result, "work", w.Key)
	first, err := a.store.Once(ctx, "vote:"+req.Team+":"+req.Channel+":"+req.Result+":"+req.User, voteKeep)
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	thanks := "Thanks for the feedback on this result."
	if first {
		log.Info("feedback on a result", "outcome", req.Outcome)
		a.metrics.Feedback(req.Outcome)
	} else {
		log.Info("feedback on a result given before; not counted again", "outcome", req.Outcome)
		thanks = "Thanks; your feedback on this result was already counted."
	}
	_, err = a.core.SlackIn(ctx).PostEphemeralContext(ctx, req.Channel, req.User, slack.MsgOptionText(thanks, false), slack.MsgOptionTS(req.Thread))
	if err != nil {
		log.Warn("thanking for the feedback failed", "err", err)
	}
	return nil
}
