package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// Presses. Disconnect and Clear change what a workspace serves, so their
// presses are inbox work (bot.QueuePress: recorded before the ack, done
// by whichever replica claims them), as the agent's and the help
// channels' buttons are. A press's work decides its change from what is
// stored (decide, no write) and marks the decision, then makes the write,
// which is harmless to make again, then tells it (tell, told.go). By the
// marks it finds and what happens:
//
//	marks                 event                       action
//	none                  the presser is no admin     the refusal shown (answer), audited once (refused)
//	none                  nothing to change           the presser told so (Disconnect) or nothing (Clear)
//	none                  decided                     the decision marked (decided), then as below
//	decided               -                           the write made (again), then marked (written)
//	written               -                           told, each step of the telling once
//	any                   storage or Slack failing    tried again (Later)
//	any                   waiting past WorkMaxAge     giveUp: the presser told in their DM what
//	                                                  was done (written) or that nothing was
//
// The admin check is made until a decision is marked: a later attempt
// finishes what an admin decided. A press's answer is a modal opened with
// its trigger (the Home has no place for a private message) while the
// trigger lasts, else a message in the presser's DM with docsbot (answer).

// The kinds of the presses' work, and the marks of a press's decision and
// its write.
const (
	workDisconnect = "settings.disconnect"
	workClear      = "settings.clear"
	markDecided    = "decided"
	markWritten    = "written"
)

// press is one of the Settings' buttons done from the inbox: its action
// (a prefix of actions when group), its work's kind, what it does in the
// audit's words (followed by the button's value), what the presser is told
// was not done when it cannot be, and its change: decided, then written.
type press struct {
	action  string
	group   bool
	kind    string
	what    string
	notDone string
	decide  func(ctx context.Context, ic slack.InteractionCallback) (pressDecision, error)
	write   func(ctx context.Context, ic slack.InteractionCallback, d pressDecision) error
}

// pressDecision is a press's change as decided (mark decided): what it
// tells and, for Disconnect, when the project is retired.
type pressDecision struct {
	Told    toldRequest `json:"told"`
	Retired time.Time   `json:"retired,omitzero"`
}

// presses are the Settings' buttons done from the inbox (the table above).
func (s *settings) presses() []press {
	return []press{
		{ActionDisconnect, false, workDisconnect, "disconnect", "the docs project was not disconnected", s.decideDisconnect, s.writeDisconnect},
		{ActionClear, true, workClear, "clear", "the setting was not cleared", s.decideClear, s.writeClear},
	}
}

// routePresses routes each press: queued and acked (bot.QueuePress), then
// done by its work (doPress), or given up (giveUp).
func (s *settings) routePresses(routes bot.Router) {
	for _, p := range s.presses() {
		queue := func(ctx context.Context, r *bot.InteractionRequest) { s.core.QueuePress(ctx, r, p.kind, p.notDone) }
		if p.group {
			routes.HandleBlockActions(p.action, queue)
		} else {
			routes.HandleBlockAction(p.action, queue)
		}
		routes.HandlePress(p.kind, bot.PressHandler{
			Do: func(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) error {
				return s.doPress(ctx, w, ic, p)
			},
			GiveUp: s.giveUp(p.notDone)})
	}
}

// doPress does the work of a press of p, by the table above.
func (s *settings) doPress(ctx context.Context, w *bot.Work, ic slack.InteractionCallback, p press) error {
	if w.Marked(markDecided) == "" && s.pressRefused(ctx, w, ic, p.what+" "+mrkdwn.Cut(pressed(ic), 40)) {
		return nil
	}
	raw, err := w.Step(ctx, markDecided, func(ctx context.Context) (string, error) {
		d, err := p.decide(ctx, ic)
		if err != nil {
			return "", err
		}
		b, err := json.Marshal(d)
		return string(b), err
	})
	switch {
	case errors.Is(err, bot.ErrNoMark):
		return nil
	case err != nil:
		// Unmarked too: nothing is written before the decision's mark.
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	var d pressDecision
	if err := json.Unmarshal([]byte(raw), &d); err != nil {
		return fmt.Errorf("decoding a press's decision: %w", err)
	}
	_, err = w.Step(ctx, markWritten, func(ctx context.Context) (string, error) { return "1", p.write(ctx, ic, d) })
	switch {
	case errors.Is(err, bot.ErrUnmarked):
		s.log.Warn("a change of settings was made but its mark was not recorded; a later attempt makes it again", "work", w.Key, "err", err)
	case err != nil:
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	return s.tell(ctx, w, d.Told)
}

// pressRefused answers and audits a press of what by someone who is no
// admin of its workspace, and reports whether it did.
func (s *settings) pressRefused(ctx context.Context, w *bot.Work, ic slack.InteractionCallback, what string) bool {
	refusal := s.core.AdminRefusal(ctx, ic.User.ID)
	if refusal == "" {
		return false
	}
	s.answer(ctx, ic, refusal, what)
	if _, err := w.Step(ctx, "refused", func(ctx context.Context) (string, error) {
		s.refused(ctx, ic.Team.ID, ic.User.ID, what, refusal)
		return "1", nil
	}); err != nil {
		s.log.Warn("recording a refusal's mark failed", "work", w.Key, "err", err)
	}
	return true
}

// answer shows text to the presser of ic: in a modal while its trigger
// lasts (3 seconds), else in their DM with docsbot. what names the press,
// for the log.
func (s *settings) answer(ctx context.Context, ic slack.InteractionCallback, text, what string) {
	if s.show(ctx, ic, noticeModal(text), what) {
		return
	}
	if err := s.post(ctx, ic.User.ID, text); err != nil {
		s.log.Warn("a press's answer could not be sent", "press", what, "user", ic.User.ID, "err", err)
	}
}

// giveUp is a press's GiveUp: its work waited past bot.WorkMaxAge, storage
// or Slack failing all along. The presser is told in their DM what was
// done: the change when it was written, else that notDone.
func (s *settings) giveUp(notDone string) func(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) {
	return func(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) {
		var text string
		var d pressDecision
		switch {
		case w.Marked(markWritten) == "":
			text = "docsbot could not reach its storage for a while, so " + notDone + ". Press it again on docsbot's Home."
		case w.Marked(markConfirmed) != "" || json.Unmarshal([]byte(w.Marked(markDecided)), &d) != nil:
			return // told already, or nothing to tell
		default:
			text = d.Told.Confirm
		}
		if err := s.post(ctx, ic.User.ID, text); err != nil {
			s.log.Warn("a press given up could not be told", "work", w.Key, "user", ic.User.ID, "err", err)
		}
	}
}
