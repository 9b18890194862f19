package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// The job modal: a multi-line instruction, with what it is about quoted
// above it (a message, a docs page and its visitors). The message shortcut,
// "/docs-agent" without text and the "Improve this page" button open it;
// its submission starts the job like a slash command does, as agent.start
// work keyed by the view's id (the same in every delivery of one
// submission, so a redelivery starts nothing more). Where the job goes
// travels in the view's private_metadata.

// The modal's callback id and its input.
const (
	ViewJob           = "docs_agent_job"
	blockInstruction  = "instruction"
	actionInstruction = "instruction"
)

// metadataMax is the most private_metadata Slack keeps for a view.
const metadataMax = 3000

// modalTarget is where a job asked for in the modal goes, and the context
// it carries: the view's private_metadata.
type modalTarget struct {
	Team    string `json:"t,omitempty"`
	Channel string `json:"c"`
	// ThreadTS is the message whose thread the job goes in; "" starts a
	// new thread in the channel.
	ThreadTS string `json:"ts,omitempty"`
	// ResponseURL answers the person privately (slash command, shortcut,
	// button), while Slack keeps it (30 minutes).
	ResponseURL string `json:"ru,omitempty"`
	// Context goes to the agent after the instruction; Markup says it is
	// Slack markup whose mentions are turned into names when the job starts.
	Context string `json:"x,omitempty"`
	Markup  bool   `json:"m,omitempty"`
}

// metadata encodes t, cutting its context until it fits in a view.
func (t modalTarget) metadata() string {
	for {
		raw, _ := json.Marshal(t)
		if len(raw) <= metadataMax || t.Context == "" {
			return string(raw)
		}
		t.Context = bot.Cut(t.Context, len([]rune(t.Context))*3/4)
	}
}

// jobModal builds the modal: about (mrkdwn, already escaped) is shown
// above the instruction, which starts as initial.
func jobModal(t modalTarget, about, initial string) slack.ModalViewRequest {
	plain := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
	}
	var blocks []slack.Block
	if about != "" {
		blocks = append(blocks, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, bot.Cut(about, 2900), false, false), nil, nil))
	}
	input := slack.NewPlainTextInputBlockElement(plain("For example: add a troubleshooting section for timeouts"), actionInstruction).
		WithMultiline(true).WithInitialValue(initial)
	blocks = append(blocks, slack.NewInputBlock(blockInstruction, plain("What should the docs agent do?"), nil, input))
	where := "I post the job in this channel; its thread is the job's conversation."
	if t.ThreadTS != "" {
		where = "I post the job in this message's thread; replies there go to the agent as follow-ups."
	}
	blocks = append(blocks, slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, where, false, false)))
	return slack.ModalViewRequest{
		Type:            slack.VTModal,
		Title:           plain("Docs agent"),
		Submit:          plain("Start"),
		Close:           plain("Cancel"),
		Blocks:          slack.Blocks{BlockSet: blocks},
		CallbackID:      ViewJob,
		PrivateMetadata: t.metadata(),
	}
}

// openModal opens the job modal with the interaction's trigger id. When it
// cannot (the trigger expired: Slack gives it 3 seconds), the person is
// told privately through t's response_url.
func (a *agent) openModal(ctx context.Context, trigger, user string, t modalTarget, about, initial string) {
	_, err := a.slack.OpenViewContext(ctx, trigger, jobModal(t, about, initial))
	if err == nil {
		return
	}
	log := a.log.With("user", user, "channel", t.Channel)
	text := "docsbot could not open the docs agent form: " + bot.Describe(err)
	if bot.SlackCode(err) == "expired_trigger_id" {
		log.Warn("the trigger expired before the modal opened", "err", err)
		text = "Slack gave docsbot too little time to open the docs agent form (it allows 3 seconds), so it did not open. Try again."
	} else {
		log.Warn("opening the job modal failed", "err", err)
	}
	if t.ResponseURL == "" { // the App Home's button: say it where the job would have gone
		a.whisper(ctx, replyRequest{Channel: t.Channel, User: user}, text, log)
		return
	}
	a.core.ReplyPrivately(ctx, slack.SlashCommand{UserID: user, ChannelID: t.Channel, ResponseURL: t.ResponseURL}, text)
}

// onJobSubmitted starts the job asked for in the modal. An empty
// instruction, a refusal or storage that cannot record it are answered in
// the modal (response_action errors); anything else closes it.
func (a *agent) onJobSubmitted(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	fail := func(text string) {
		r.Ack(slack.NewErrorsViewSubmissionResponse(map[string]string{blockInstruction: text}))
	}
	var t modalTarget
	if err := json.Unmarshal([]byte(ic.View.PrivateMetadata), &t); err != nil || t.Channel == "" {
		a.log.Error("job modal submitted without its target", "view", ic.View.ID, "err", err)
		fail("docsbot lost track of where this job goes. Close this form and start again.")
		return
	}
	text := strings.TrimSpace(ic.View.State.Values[blockInstruction][actionInstruction].Value)
	if text == "" {
		fail("Say what the docs agent should do.")
		return
	}
	if refusal := a.core.EditorRefusalInAck(ctx, ic.User.ID, t.Channel); refusal != "" {
		fail(refusal)
		a.auditRefusedInAck(ctx, "view:"+ic.View.ID, bot.RefusalRecord(cmp.Or(t.Team, ic.Team.ID), t.Channel, ic.User.ID, viaModal, text))
		return
	}
	req := startRequest{Team: cmp.Or(t.Team, ic.Team.ID), Channel: t.Channel, User: ic.User.ID, Prompt: text,
		ResponseURL: t.ResponseURL, ThreadTS: t.ThreadTS, Context: t.Context, ContextMarkup: t.Markup}
	payload, _ := json.Marshal(req)
	if !a.core.Accept(ctx, store.Work{Key: "view:" + ic.View.ID, Kind: workStart, Payload: payload}, bot.RedeliveredInteraction) {
		fail(storageDown)
		return
	}
	r.Ack(nil)
}

// refuseInteraction acks an interaction and tells its person privately,
// through its response_url, why docsbot does nothing.
func (a *agent) refuseInteraction(ctx context.Context, r *bot.InteractionRequest, channel, refusal string, log *slog.Logger) {
	r.Ack(nil)
	ic := r.Interaction
	if ic.ResponseURL == "" {
		log.Warn("refused an interaction that has no response_url to answer on", "user", ic.User.ID)
		return
	}
	a.core.ReplyPrivately(ctx, slack.SlashCommand{UserID: ic.User.ID, ChannelID: channel, ResponseURL: ic.ResponseURL}, refusal)
}
