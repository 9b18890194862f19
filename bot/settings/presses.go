package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// Presses. Disconnect and Clear change what a workspace serves, so their
// presses are inbox work (bot.QueuePress: recorded before the ack, done
// by whichever replica claims them), as the agent's and the help
// channels' buttons are. Their work, by what it finds:
//
//	found                          action
//	the presser is no admin        the refusal shown (answer), audited once (mark refused)
//	the change not made yet        made once (mark retired / cleared, holding the telling)
//	nothing to change              the presser told so (Disconnect) or nothing (Clear)
//	storage failing                tried again (Later); past bot.WorkMaxAge the presser is
//	                               told in their DM that nothing changed (giveUp)
//	the change made                told (tell, told.go), each of its steps once
//
// A press's answer is a modal opened with its trigger (the Home has no
// place for a private message) while the trigger lasts, else a message in
// the presser's DM with docsbot (answer).

// The kinds of the presses' work.
const (
	workDisconnect = "settings.disconnect"
	workClear      = "settings.clear"
)

// press is one of the Settings' buttons done from the inbox: its action
// (a prefix of actions when group), its work's kind, what it does in the
// audit's words (followed by the button's value), what the presser is told
// was not done when it cannot be, and its work, for an admin.
type press struct {
	action  string
	group   bool
	kind    string
	what    string
	notDone string
	do      func(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) error
}

// presses are the Settings' buttons done from the inbox (the table above).
func (s *settings) presses() []press {
	return []press{
		{ActionDisconnect, false, workDisconnect, "disconnect", "the docs project was not disconnected", s.doDisconnect},
		{ActionClear, true, workClear, "clear", "the setting was not cleared", s.doClear},
	}
}

// routePresses routes each press: queued and acked (bot.QueuePress), then
// refused to anyone but an admin (pressRefused) or done by its work, or
// given up (giveUp).
func (s *settings) routePresses(routes bot.Router) {
	for _, p := range s.presses() {
		do := func(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) error {
			if s.pressRefused(ctx, w, ic, p.what+" "+mrkdwn.Cut(pressed(ic), 40)) {
				return nil
			}
			return p.do(ctx, w, ic)
		}
		queue := func(ctx context.Context, r *bot.InteractionRequest) { s.core.QueuePress(ctx, r, p.kind, p.notDone) }
		if p.group {
			routes.HandleBlockActions(p.action, queue)
		} else {
			routes.HandleBlockAction(p.action, queue)
		}
		routes.HandlePress(p.kind, bot.PressHandler{Do: do, GiveUp: s.giveUp(p.notDone)})
	}
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
	_, err := s.core.SlackIn(ctx).OpenViewContext(ctx, ic.TriggerID, noticeModal(text))
	if err == nil {
		return
	}
	s.log.Info("a press's answer could not be shown in a modal; sending it in a direct message", "press", what, "user", ic.User.ID, "err", err)
	if err := s.post(ctx, ic.User.ID, text); err != nil {
		s.log.Warn("a press's answer could not be sent", "press", what, "user", ic.User.ID, "err", err)
	}
}

// tellStep ends a press's work after its change's step, which returned
// told (the telling, toldRequest as JSON) and err, by the table above.
func (s *settings) tellStep(ctx context.Context, w *bot.Work, told string, err error) error {
	switch {
	case errors.Is(err, bot.ErrNoMark):
		return nil
	case errors.Is(err, bot.ErrUnmarked):
		s.log.Warn("a change of settings was made but its mark was not recorded", "work", w.Key, "err", err)
	case err != nil:
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	var req toldRequest
	if err := json.Unmarshal([]byte(told), &req); err != nil {
		return fmt.Errorf("decoding a change of settings to tell: %w", err)
	}
	return s.tell(ctx, w, req)
}

// giveUp is a press's GiveUp: its work waited past bot.WorkMaxAge (storage
// failing all along), and the presser is told in their DM that notDone.
func (s *settings) giveUp(notDone string) func(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) {
	return func(ctx context.Context, w *bot.Work, ic slack.InteractionCallback) {
		text := "docsbot could not reach its storage for a while, so " + notDone + ". Press it again on docsbot's Home."
		if err := s.post(ctx, ic.User.ID, text); err != nil {
			s.log.Warn("a press given up could not be told", "work", w.Key, "user", ic.User.ID, "err", err)
		}
	}
}
