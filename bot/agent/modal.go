package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// The job modal: a multi-line instruction, with what it is about quoted
// above it (a message, a docs page and its visitors). The message shortcut,
// "/docs-agent" without text and the "Improve this page" button open it;
// its submission starts the job like a slash command does, as agent.start
// work keyed by the view's id (the same in every delivery of one
// submission, so a redelivery starts nothing more). Where the job goes
// travels in the view's private_metadata.

// The modal's callback id and its inputs.
const (
	ViewJob           = "docs_agent_job"
	blockInstruction  = "instruction"
	actionInstruction = "instruction"
	// The project select, when the bot serves more than one project.
	blockProject  = "project"
	actionProject = "project"
)

// modalResolveBound bounds reading the person's last choice of project
// when a modal opens. The trigger lives 3 seconds from when Slack issued
// it: the ack's role check takes at most 800ms (bot's ackRoleBound), this
// read at most 1s, which leaves views.open over a second. A read that is
// slower (storage in trouble) opens the modal at the first project, for
// the person to change; a tighter bound would lose the default to an
// ordinary pause of a busy replica.
const modalResolveBound = time.Second

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
	// Default is the project the modal's select starts at (when the bot
	// serves more than one): unless set already, the channel's default or
	// the person's last choice, else the first project. A submission of
	// another project makes it the person's last choice.
	Default string `json:"pd,omitempty"`
	// Kept is the id of the start kept for Switch project whose context
	// goes with the job (startRequest.ContextKept).
	Kept string `json:"k,omitempty"`
	// NoDefault leaves the select without a project chosen (Switch
	// project: the person picks another).
	NoDefault bool `json:"-"`
}

// metadata encodes t, cutting its context until it fits in a view.
func (t modalTarget) metadata() string {
	for {
		raw, _ := json.Marshal(t)
		if len(raw) <= metadataMax || t.Context == "" {
			return string(raw)
		}
		t.Context = mrkdwn.Cut(t.Context, len([]rune(t.Context))*3/4)
	}
}

// jobModal builds the modal: about (mrkdwn, already escaped) is shown
// above the instruction, which starts as initial; a select of the projects
// follows when projects has more than one, starting at t.Default.
func jobModal(t modalTarget, about, initial string, projects []string) slack.ModalViewRequest {
	plain := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
	}
	var blocks []slack.Block
	if about != "" {
		blocks = append(blocks, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, mrkdwn.Cut(about, 2900), false, false), nil, nil))
	}
	input := slack.NewPlainTextInputBlockElement(plain("For example: add a troubleshooting section for timeouts"), actionInstruction).
		WithMultiline(true).WithInitialValue(initial)
	blocks = append(blocks, slack.NewInputBlock(blockInstruction, plain("What should the docs agent do?"), nil, input))
	if len(projects) > 1 {
		blocks = append(blocks, projectSelect(projects, t.Default))
	}
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
	var projects []string
	if set := a.core.Projects(); set.Len() > 1 {
		projects = set.Names()
		if _, ok := set.Get(t.Default); !ok || t.NoDefault {
			t.Default = ""
		}
		if t.Default == "" && !t.NoDefault {
			// Where a command would go; when nothing says, the first
			// project, shown chosen in the select for the person to change.
			t.Default = cmp.Or(a.modalDefault(ctx, t.Team, t.Channel, user), projects[0])
		}
	}
	_, err := a.slack.OpenViewContext(ctx, trigger, jobModal(t, about, initial, projects))
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
	req := startRequest{Team: cmp.Or(t.Team, ic.Team.ID), Channel: t.Channel, User: ic.User.ID, Prompt: text,
		ResponseURL: t.ResponseURL, ThreadTS: t.ThreadTS, Context: t.Context, ContextMarkup: t.Markup, ContextKept: t.Kept}
	key := ""
	if ic.View.State != nil {
		if sel, ok := ic.View.State.Values[blockProject][actionProject]; ok {
			// Slack sends the option shown chosen; a state without one
			// means the select's initial option, the modal's default.
			name := cmp.Or(sel.SelectedOption.Value, t.Default)
			p, ok := a.core.Projects().Get(name)
			if !ok || name == "" {
				r.Ack(slack.NewErrorsViewSubmissionResponse(map[string]string{blockProject: "Choose the docs project the agent works in."}))
				return
			}
			req.Project, req.Remember, key = p.Name, p.Name != t.Default, bot.ProjectKey(p)
			prompt, problem := tokenAgainstSelect(text, p, a.core.Projects())
			if problem != "" {
				fail(problem)
				return
			}
			req.Prompt = prompt
		}
	}
	if refusal := a.core.EditorRefusalInAck(ctx, ic.User.ID, t.Channel, key); refusal != "" {
		fail(refusal)
		rec := bot.RefusalRecord(cmp.Or(t.Team, ic.Team.ID), t.Channel, ic.User.ID, viaModal, text)
		rec.Project = key
		a.auditRefusedInAck(ctx, "view:"+ic.View.ID, rec)
		return
	}
	payload, _ := json.Marshal(req)
	if !a.core.AcceptEnvelope(ctx, store.Work{Key: "view:" + ic.View.ID, Kind: workStart, Payload: payload}, bot.RedeliveredInteraction) {
		fail(storageDown)
		return
	}
	r.Ack(nil)
}

// tokenAgainstSelect takes a project=NAME word out of a modal's
// instruction when it names the project chosen in the select, p. Anything
// else is the problem to show on the instruction: a word naming another
// project (the instruction and the select disagree), no project, two
// projects, or no instruction left.
func tokenAgainstSelect(text string, p project.Project, set *project.Set) (prompt, problem string) {
	name, rest, found, err := project.CutToken(text)
	if _, ok := errors.AsType[*project.TokenError](err); ok {
		return "", "Your instruction names two docs projects: choose the project in the select below and take `project=` out of the instruction."
	}
	if _, ok := errors.AsType[*project.EmptyNameError](err); ok {
		return "", "Write a project name after `project=`, or take it out: the project is the one chosen in the select below."
	}
	if err != nil || !found {
		return text, ""
	}
	named, ok := set.Get(name)
	switch {
	case !ok:
		return "", "There is no docs project `" + mrkdwn.Cut(name, 40) + "`: choose the project in the select below and take `project=` out of the instruction."
	case named.Name != p.Name:
		return "", "Your instruction says `project=" + mrkdwn.Cut(named.Name, 40) + "`, but the project chosen below is `" + p.Name +
			"`: choose one, in the select, and take `project=` out of the instruction."
	case strings.TrimSpace(rest) == "":
		return "", "Say what the docs agent should do."
	}
	return strings.TrimSpace(rest), ""
}

// interactionChannel is the channel of an interaction on a message: the
// container's (always set for a block action, an ephemeral message's
// included), else the payload's channel (a message shortcut).
func interactionChannel(ic *slack.InteractionCallback) string {
	return cmp.Or(ic.Container.ChannelID, ic.Channel.ID)
}

// editorInteraction begins an interaction on a message that only an editor
// may use (of some project: the project is decided later): it returns the
// interaction's channel (interactionChannel) and a logger naming the person
// and the channel, and ok false when the person is an editor of no project,
// in which case they were told privately why and the refusal was audited
// as via.
func (a *agent) editorInteraction(ctx context.Context, r *bot.InteractionRequest, via string) (channel string, log *slog.Logger, ok bool) {
	ic := &r.Interaction
	channel = interactionChannel(ic)
	log = a.log.With("user", ic.User.ID, "channel", channel)
	if refusal := a.core.EditorRefusalInAck(ctx, ic.User.ID, channel, ""); refusal != "" {
		a.refuseInteraction(ctx, r, channel, refusal)
		a.auditRefusedInAck(ctx, r.DeliveryID, bot.RefusalRecord(ic.Team.ID, channel, ic.User.ID, via, ""))
		return channel, log, false
	}
	return channel, log, true
}

// refuseInteraction acks an interaction and tells its person privately why
// docsbot does nothing: through its response_url, else in the channel or a
// direct message (bot.Bot.ReplyPrivately).
func (a *agent) refuseInteraction(ctx context.Context, r *bot.InteractionRequest, channel, refusal string) {
	r.Ack(nil)
	ic := r.Interaction
	a.core.ReplyPrivately(ctx, slack.SlashCommand{UserID: ic.User.ID, ChannelID: channel, ResponseURL: ic.ResponseURL}, refusal)
}

// projectSelect is the modal's choice of project, starting at def ("" for
// none: the person must choose).
func projectSelect(names []string, def string) *slack.InputBlock {
	plain := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
	}
	options := make([]*slack.OptionBlockObject, len(names))
	var initial *slack.OptionBlockObject
	for i, n := range names {
		options[i] = slack.NewOptionBlockObject(n, plain(n), nil)
		if n == def {
			initial = options[i]
		}
	}
	sel := slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, plain("Choose a project"), actionProject, options...)
	sel.InitialOption = initial
	return slack.NewInputBlock(blockProject, plain("Docs project"), plain("The project whose docs the agent changes."), sel)
}

// modalDefault is the project a job modal's select starts at: the one a
// command in channel would go to (its default, the person's last choice),
// "" when none or when it cannot be read in time.
func (a *agent) modalDefault(ctx context.Context, team, channel, user string) string {
	ctx, cancel := context.WithTimeout(ctx, modalResolveBound)
	defer cancel()
	res, err := a.core.ResolveProject(ctx, project.Request{Team: team, Channel: channel, User: user})
	if err != nil || res.Ask {
		return ""
	}
	return res.Project.Name
}
