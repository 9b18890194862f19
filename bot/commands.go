package bot

import (
	"context"
	"encoding/json"

	"github.com/docsbot/docsbot/store"
)

// RefuseCommand answers a slash command with refusal, privately in the ack,
// and audits the refusal of the command (text kept as the trail keeps
// instructions).
func (b *Bot) RefuseCommand(ctx context.Context, r *CommandRequest, refusal, text string) {
	cmd := r.Command
	r.Ack(Ephemeral(refusal))
	rec := RefusalRecord(cmd.TeamID, cmd.ChannelID, cmd.UserID, cmd.Command, text)
	rec.Work = "cmd:" + r.DeliveryID
	b.Audit().Record(ctx, rec)
}

// QueueCommand records a slash command's work of kind with payload (as
// JSON) in the inbox, keyed by the command's delivery, and acks it; when
// Redis cannot take it, the person reads in the ack that nothing was done:
// "docsbot cannot reach its storage right now, so " + notDone + ".".
func (b *Bot) QueueCommand(ctx context.Context, r *CommandRequest, kind string, payload any, notDone string) {
	body, err := json.Marshal(payload)
	if err != nil {
		b.log.Error("a command's work does not encode", "kind", kind, "err", err)
		r.Ack(Ephemeral("docsbot could not take this command. Tell whoever runs docsbot (the cause is in its log)."))
		return
	}
	if !b.acceptEnvelope(ctx, store.Work{Key: "cmd:" + r.DeliveryID, Kind: kind, Payload: body}, RedeliveredCommand) {
		r.Ack(Ephemeral("docsbot cannot reach its storage right now, so " + notDone + ". Try again in a minute."))
		return
	}
	r.Ack(nil)
	b.nudgeInbox() // after the ack: the work does not race it for the CPU
}
