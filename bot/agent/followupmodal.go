package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/store"
)

// The follow-up modal: the result's Follow up button opens it, and its
// submission becomes one follow-up on the job: agent.followup work, sent
// as a reply in the thread is (replyInJobThread).
const (
	// workFollowUp is the kind of inbox work of a follow-up typed in the
	// modal. Earlier versions recorded it as agent.reply, now the core's
	// kind of posts (bot.LegacyWorkPost), which offers it as a reply in the
	// thread.
	workFollowUp = "agent.followup"
	// ViewFollowUp is the modal's callback_id.
	ViewFollowUp = "agent.followup_modal"
	// The input block and element that hold the instruction.
	blockFollowUp = "followup"
	inputFollowUp = "instruction"
	// followUpMax bounds the instruction typed in the modal, as Slack's
	// plain_text_input allows.
	followUpMax = 3000
)

// followUpMeta is what the modal carries in private_metadata: the job's
// thread.
type followUpMeta struct {
	Channel string `json:"c"`
	Thread  string `json:"t"`
}

// onFollowUpButton opens the follow-up modal for the thread of the result
// whose Follow up button was pressed. Slack lets the interaction's trigger
// open a view for 3 seconds only, so this is done at once, not through the
// inbox; if Slack says the trigger expired, the person is told privately to
// press the button again or reply in the thread.
func (a *agent) onFollowUpButton(ctx context.Context, r *bot.InteractionRequest) {
	r.Ack(nil)
	ic := r.Interaction
	act := ic.ActionCallback.BlockActions[0]
	meta := followUpMeta{
		Channel: interactionChannel(&ic),
		Thread:  cmp.Or(act.Value, ic.Container.ThreadTs),
	}
	log := a.log.With("user", ic.User.ID, "channel", meta.Channel, "thread", meta.Thread)
	note := replyRequest{Post: bot.Post{Channel: meta.Channel, User: ic.User.ID, ThreadTS: meta.Thread}}
	if meta.Channel == "" || meta.Thread == "" {
		log.Warn("a Follow up button without its thread; ignored")
		return
	}
	if refusal := a.core.Editors().For(roles.ActFollowUps).RefusalInAck(ctx, ic.User.ID, meta.Channel, ""); refusal != "" {
		a.tellInThread(ctx, note, refusal, log)
		a.auditRefusedInAck(ctx, r.DeliveryID, bot.RefusalRecord(ic.Team.ID, meta.Channel, ic.User.ID, viaFollowUpButton, ""))
		return
	}
	_, err := a.core.SlackIn(ctx).OpenViewContext(ctx, ic.TriggerID, followUpModal(meta))
	switch {
	case err == nil:
	case bot.SlackCode(err) == "expired_trigger_id":
		log.Warn("the follow-up modal could not open in time", "err", err)
		a.tellInThread(ctx, note, "Slack took too long to open the follow-up form. Press *Follow up* again, or reply in this thread with your instruction.", log)
	default:
		log.Warn("opening the follow-up modal failed", "err", err)
		a.tellInThread(ctx, note, "The follow-up form did not open. "+bot.Describe(err)+" You can also reply in this thread with your instruction.", log)
	}
}

// followUpModal is the modal that asks for a follow-up instruction.
func followUpModal(meta followUpMeta) slack.ModalViewRequest {
	md, _ := json.Marshal(meta)
	input := slack.NewPlainTextInputBlockElement(
		slack.NewTextBlockObject(slack.PlainTextType, "For example: also document the error codes", false, false), inputFollowUp)
	input.Multiline = true
	input.MaxLength = followUpMax
	return slack.ModalViewRequest{
		Type:            slack.VTModal,
		CallbackID:      ViewFollowUp,
		PrivateMetadata: string(md),
		Title:           slack.NewTextBlockObject(slack.PlainTextType, "Follow up", false, false),
		Submit:          slack.NewTextBlockObject(slack.PlainTextType, "Send", false, false),
		Close:           slack.NewTextBlockObject(slack.PlainTextType, "Cancel", false, false),
		Blocks: slack.Blocks{BlockSet: []slack.Block{
			slack.NewInputBlock(blockFollowUp,
				slack.NewTextBlockObject(slack.PlainTextType, "What should the docs agent do next?", false, false),
				slack.NewTextBlockObject(slack.PlainTextType, "It goes to the agent as a follow-up on this job, like a reply in its thread.", false, false),
				input),
		}},
	}
}

// onFollowUpSubmit records a submitted follow-up modal as agent.followup work,
// keyed by the view's id: a submission Slack delivers again is the same
// work, so the agent gets it once. The ack closes the modal, or shows the
// problem on its field (an empty instruction, storage down, a refusal).
func (a *agent) onFollowUpSubmit(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	var meta followUpMeta
	if err := json.Unmarshal([]byte(ic.View.PrivateMetadata), &meta); err != nil || meta.Channel == "" || meta.Thread == "" {
		a.log.Warn("a follow-up modal without its thread; closed", "view", ic.View.ID, "err", err)
		r.Ack(nil)
		return
	}
	fieldError := func(msg string) {
		r.Ack(slack.NewErrorsViewSubmissionResponse(map[string]string{blockFollowUp: msg}))
	}
	// A plain_text_input's value is the text as typed, not Slack-escaped.
	text := strings.TrimSpace(ic.View.State.Values[blockFollowUp][inputFollowUp].Value)
	if text == "" {
		fieldError("Write what the agent should do next.")
		return
	}
	if refusal := a.core.Refusal(ic.User.ID, meta.Channel); refusal != "" {
		fieldError(mrkdwn.Cut(mrkdwn.Plain(refusal), 150))
		a.auditRefusedInAck(ctx, "view:"+ic.View.ID, bot.RefusalRecord(ic.Team.ID, meta.Channel, ic.User.ID, viaFollowUpForm, text))
		return
	}
	if refusal := a.core.Editors().For(roles.ActFollowUps).RefusalInAck(ctx, ic.User.ID, meta.Channel, ""); refusal != "" {
		// The whole refusal names the editors, more than a field shows:
		// the form closes and the person reads it in the thread.
		r.Ack(nil)
		a.tellInThread(ctx, replyRequest{Post: bot.Post{Channel: meta.Channel, User: ic.User.ID, ThreadTS: meta.Thread}}, refusal, a.log)
		a.auditRefusedInAck(ctx, "view:"+ic.View.ID, bot.RefusalRecord(ic.Team.ID, meta.Channel, ic.User.ID, viaFollowUpForm, text))
		return
	}
	payload, _ := json.Marshal(replyRequest{Post: bot.Post{Team: cmp.Or(ic.Team.ID, ic.View.TeamID), Channel: meta.Channel, User: ic.User.ID,
		ThreadTS: meta.Thread, Text: text}, FromModal: true})
	if !a.core.AcceptEnvelope(ctx, store.Work{Key: "view:" + ic.View.ID, Kind: workFollowUp, Payload: payload}, bot.RedeliveredInteraction) {
		fieldError("docsbot cannot reach its storage right now, so this was not sent. Try again in a minute.")
		return
	}
	r.Ack(nil)
}
