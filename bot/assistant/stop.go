package assistant

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// stoppedRequest is a Stop pressed in the pane, through the inbox.
type stoppedRequest struct {
	Team     string `json:"team"`
	Channel  string `json:"channel"`
	ThreadTS string `json:"thread_ts"`
	User     string `json:"user"`
	// Halted are the streams Slack stopped: answers, which say so
	// themselves (bot/ask).
	Halted []string `json:"halted,omitempty"`
}

// stoppedNote is what the thread says of a Stop that halted no answer:
// the work there is a docs job, which the docs API cannot cancel.
const stoppedNote = "Stopped following here: docsbot no longer shows the work in this thread as going on. " +
	"A docs job started here cannot be cancelled through the docs API: it runs to its end, and its result still shows in this thread."

// onStopped handles agent_session_stopped: recorded, then acked.
func (p *pane) onStopped(ctx context.Context, r *bot.EventRequest) {
	ev, ok := r.Event.InnerEvent.Data.(*slackevents.AgentSessionStoppedEvent)
	if !ok || ev.Channel == "" || ev.ThreadTimestamp == "" {
		r.Ack(nil)
		return
	}
	payload, _ := json.Marshal(stoppedRequest{Team: r.Event.TeamID, Channel: ev.Channel, ThreadTS: ev.ThreadTimestamp,
		User: ev.User, Halted: ev.StreamingMessageTimestamps})
	key := "ev:" + r.DeliveryID
	if r.DeliveryID == "" {
		key = "assistant-stop:" + ev.Channel + ":" + ev.ThreadTimestamp + ":" + ev.EventTimestamp
	}
	if !p.core.AcceptEnvelope(ctx, store.Work{Key: key, Kind: workStopped, Payload: payload}, bot.RedeliveredEvent) {
		return // not acknowledged: Slack sends it again
	}
	r.Ack(nil)
}

// doStopped moves the session on (Slack leaves that to the app): active.
// A Stop that halted an answer's stream is the answers' to tell; any other
// stops following the thread's job, saying it cannot be cancelled.
func (p *pane) doStopped(ctx context.Context, w *bot.Work) error {
	var req stoppedRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding a Stop: %w", err)
	}
	log := p.core.Logger().With("feature", Name, "user", req.User, "channel", req.Channel, "thread", req.ThreadTS, "work", w.Key)
	p.core.Decorations().SetSessionStatus(ctx, req.Channel, req.ThreadTS, req.User, false, log)
	if len(req.Halted) > 0 || w.Marked("posted") != "" {
		return nil
	}
	if _, err := p.core.Post(ctx, req.Channel, slack.MsgOptionTS(req.ThreadTS), slack.MsgOptionText(stoppedNote, false)); err != nil {
		if bot.TransientSlack(err) {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		log.Warn("saying the Stop's outcome failed", "err", err)
		return nil
	}
	if err := w.Mark(ctx, map[string]string{"posted": "1"}); err != nil {
		log.Warn("said the Stop's outcome, but could not mark it", "err", err)
	}
	return nil
}
