package pane

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
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

// What the thread says of a Stop that halted no answer: of the docs job
// it was following, or that nothing was going on there.
const (
	stoppedJobNote = "Stopped following here: docsbot no longer updates the job's status message in this thread. " +
		"The docs job %s itself cannot be cancelled through the docs API: it still runs, and its result will still be posted here, once, when it ends."
	stoppedIdleNote = "Stopped. docsbot was not following any work in this thread."
)

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
// A Stop that halted an answer's stream is the answers' to tell. Any other
// stops following the thread's docs job (store.Jobs.StopFollowing, a mark
// on the job's record that every replica's poller reads): its live message
// is edited no more, by any replica. Assumed and kept: the docs API has no
// cancel, so the job runs on, and its result is still posted once in the
// thread (the poller's exactly-once report does not read the mark); a
// follow-up typed in the thread starts a run that is followed again. The
// mark is made before the thread is told, and again on a retry (it is
// idempotent); the note is posted once (the posted mark).
func (p *pane) doStopped(ctx context.Context, w *bot.Work) error {
	var req stoppedRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding a Stop: %w", err)
	}
	log := p.core.Logger().With("feature", Name, "user", req.User, "channel", req.Channel, "thread", req.ThreadTS, "work", w.Key)
	p.core.Decorations().SetPaneSession(ctx, req.Channel, req.ThreadTS, req.User, false, log)
	if len(req.Halted) > 0 {
		return nil
	}
	_, err := w.Step(ctx, markPosted, func(ctx context.Context) (string, error) {
		return "", p.tellStopped(ctx, w, req, log)
	})
	switch {
	case errors.Is(err, bot.ErrUnmarked):
		log.Warn("said the Stop's outcome, but could not mark it", "err", err)
	case errors.Is(err, errNotSaid):
		return nil
	case err != nil:
		return err
	}
	return nil
}

// markPosted: the thread was told what the Stop did.
const markPosted = "posted"

// errNotSaid is why a Stop's note ends unmarked, the work done: Slack
// refused it.
var errNotSaid = errors.New("pane: the Stop's note was refused")

// tellStopped stops following the thread's job and says so in the thread:
// Later while Redis or Slack fail for a passing reason, errNotSaid when
// Slack refuses the note.
func (p *pane) tellStopped(ctx context.Context, w *bot.Work, req stoppedRequest, log *slog.Logger) error {
	note := stoppedIdleNote
	j, err := p.follows.StopFollowing(ctx, store.Thread{Team: req.Team, Channel: req.Channel, TS: req.ThreadTS})
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	case !j.Followed():
		note = fmt.Sprintf(stoppedJobNote, "`"+mrkdwn.Escape(j.ID)+"`")
		log.Info("no longer following the thread's job", "job", j.ID, "generation", j.Generation)
	}
	if _, err := p.core.Post(ctx, req.Channel, bot.Plain{slack.MsgOptionTS(req.ThreadTS), slack.MsgOptionText(note, false)}); err != nil {
		if bot.TransientSlack(err) {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
		log.Warn("saying the Stop's outcome failed", "err", err)
		return errNotSaid
	}
	return nil
}
