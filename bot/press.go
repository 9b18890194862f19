package bot

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/store"
)

// Presses: a button whose work writes anything (a record, a vote, a post)
// is inbox work, as a command is. QueuePress records the press, the
// interaction as Slack sent it, before its ack; whichever replica claims
// the work does it (HandlePress gives its handler the interaction), so a
// replica stopped or killed after the ack leaves the press to another
// instead of dropping it. A handler that opens a modal answers inline: its trigger_id
// lasts 3 seconds. A press's work, by the marks it finds and what happens:
//
//	marks found            event                               action
//	none                   claimed                             its steps, each once (Work.Step)
//	some steps marked      claimed again (a crash, a stop)     resumes after the last marked
//	any                    a post fails for a passing reason   Later: tried again, any replica
//	                       (TransientSlack, a stop)
//	any                    waiting past WorkMaxAge             GiveUp: the person told; what was
//	                                                           taken once and not posted given back
//	(not recorded)         Redis cannot take it in time        acked; the person told privately

// QueuePress records the press r as inbox work of kind, keyed by its
// delivery, and acks it. When Redis cannot take it, the person is told
// privately beside the button: "docsbot cannot reach its storage right
// now, so " + notDone + ". Press it again in a minute.".
func (b *Bot) QueuePress(ctx context.Context, r *InteractionRequest, kind, notDone string) {
	ic := &r.Interaction
	body, err := json.Marshal(ic)
	if err == nil && !b.AcceptEnvelope(ctx, store.Work{Key: pressKey(r), Kind: kind, Payload: body}, RedeliveredInteraction) {
		err = errNotTaken
	}
	r.Ack(nil)
	if err == nil {
		return
	}
	b.log.Warn("a button's press was not taken", "kind", kind, "user", ic.User.ID, "err", err)
	p := Private{User: ic.User.ID, Channel: cmp.Or(ic.Channel.ID, ic.Container.ChannelID), ThreadTS: ic.Container.ThreadTs,
		ResponseURL: ic.ResponseURL, Text: "docsbot cannot reach its storage right now, so " + notDone + ". Press it again in a minute."}
	if err := b.TellPrivately(ctx, p); err != nil {
		b.log.Warn("telling the person privately failed", "user", ic.User.ID, "err", err)
	}
}

// errNotTaken is QueuePress's cause when the inbox did not take a press in
// time (AcceptEnvelope logged why).
var errNotTaken = errors.New("bot: the inbox did not take the press")

// pressKey names a press's work: its trigger_id, else the message, the
// person and the press's time, which Slack sends again alike.
func pressKey(r *InteractionRequest) string {
	if r.DeliveryID != "" {
		return "act:" + r.DeliveryID
	}
	ic := &r.Interaction
	at := ""
	if len(ic.ActionCallback.BlockActions) > 0 {
		at = ic.ActionCallback.BlockActions[0].ActionTs
	}
	return "act:" + cmp.Or(ic.Channel.ID, ic.Container.ChannelID) + "/" + cmp.Or(ic.Container.MessageTs, ic.Message.Timestamp) + "/" + ic.User.ID + "/" + at
}

// pressOf is the interaction of a press's work (QueuePress).
func pressOf(w *Work) (slack.InteractionCallback, error) {
	var ic slack.InteractionCallback
	if err := json.Unmarshal(w.Payload, &ic); err != nil {
		return ic, fmt.Errorf("bot: decoding a press: %w", err)
	}
	return ic, nil
}

// PressHandler does one kind of a press's work (QueuePress): WorkHandler's
// Do and GiveUp, given the interaction as Slack sent it.
type PressHandler struct {
	Do     func(ctx context.Context, w *Work, ic slack.InteractionCallback) error
	GiveUp func(ctx context.Context, w *Work, ic slack.InteractionCallback)
}

// HandlePress registers the handler of the presses queued as kind
// (QueuePress); work whose interaction does not decode is logged and
// ended.
func (r Router) HandlePress(kind string, h PressHandler) {
	log := r.b.log
	wh := WorkHandler{Do: func(ctx context.Context, w *Work) error {
		ic, err := pressOf(w)
		if err != nil {
			log.Error("a press's work cannot be read; dropped", "work", w.Key, "err", err)
			return nil
		}
		return h.Do(ctx, w, ic)
	}}
	if h.GiveUp != nil {
		wh.GiveUp = func(ctx context.Context, w *Work) {
			if ic, err := pressOf(w); err == nil {
				h.GiveUp(ctx, w, ic)
			}
		}
	}
	r.HandleWork(kind, wh)
}
