package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// The job modal: a multi-line instruction, with what it is about above it
// (a message, a docs page and its visitors, a problem of the docs) and,
// read-only, the context the agent gets after the instruction, as it gets
// it (contextShown). The message shortcut,
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

// contextShownMax is the most characters of context a job started from the
// form gets after its instruction: the form shows it all, read-only, and
// the view's private_metadata carries it (beside where the job goes, in
// what is left of metadataMax), so what the agent gets is what the form
// showed. A longer context is cut to it (renderContext), and the form says
// so.
const contextShownMax = 2400

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
	// Context goes to the agent after the instruction, as the form showed
	// it. It travels after the JSON (metadata); "x" is read from a form
	// opened before that. Markup says it is Slack markup whose mentions are
	// turned into names when the job starts (only such an older form's).
	Context string `json:"x,omitempty"`
	Markup  bool   `json:"m,omitempty"`
	// parts are the context as the form's opener gives it: rendered into
	// Context, within contextShownMax and the metadata's room, when the
	// form is built (jobModal).
	parts []contextPart
	// Default is the project the modal's select starts at (when the bot
	// serves more than one): unless set already, the channel's default or
	// the person's last choice, else the first project. A submission of
	// another project makes it the person's last choice.
	Default string `json:"pd,omitempty"`
	// Kept is the id of the start kept for Switch project whose context
	// goes with the job (startRequest.ContextKept); KeptContext is that
	// context, which the form shows as it is kept.
	Kept        string `json:"k,omitempty"`
	KeptContext string `json:"-"`
	// NoDefault leaves the select without a project chosen (Switch
	// project: the person picks another).
	NoDefault bool `json:"-"`
	// filesNote says, under the context, what became of the files of the
	// message the form is about (filesRead.lines): those not sent, those
	// not read.
	filesNote string
}

// metadata is t as a view's private_metadata, within metadataMax bytes
// (Slack counts characters; a byte is never more): t's JSON (no new line
// in it), then, after a new line, its context rendered from its parts,
// within contextShownMax characters and the room left (less for text of
// wide characters). It returns the context too, and the characters it was
// cut to (0 when it was not cut).
func (t modalTarget) metadata() (md, context string, cutTo int) {
	t.Context, t.Markup = "", false
	raw, _ := json.Marshal(t)
	head := string(raw)
	limit := min(contextShownMax, metadataMax-len(head)-1)
	for {
		var cut bool
		context, cut = renderContext(t.parts, limit)
		if cut {
			cutTo = limit
		}
		over := len(head) + 1 + len(context) - metadataMax
		if context == "" || over <= 0 {
			break
		}
		limit -= max(over/utf8.UTFMax, 1) // a character is at most UTFMax bytes
	}
	if context == "" {
		return head, "", cutTo
	}
	return head + "\n" + context, context, cutTo
}

// parseTarget reads a job form's private_metadata (metadata): the JSON,
// then the context after the first new line, if any.
func parseTarget(md string) (modalTarget, error) {
	var t modalTarget
	head, context, found := strings.Cut(md, "\n")
	if err := json.Unmarshal([]byte(head), &t); err != nil {
		return t, fmt.Errorf("reading a job form's metadata: %w", err)
	}
	if found {
		t.Context, t.Markup = context, false
	}
	return t, nil
}

// jobModal builds the modal: about (mrkdwn, already escaped) is shown
// above the instruction, which starts as initial, and, read-only between
// them, the context the agent gets after the instruction, as it gets it
// (contextShown); a select of the projects follows when projects has more
// than one, starting at t.Default.
func jobModal(t modalTarget, about, initial string, projects []string) slack.ModalViewRequest {
	plain := func(s string) *slack.TextBlockObject {
		return slack.NewTextBlockObject(slack.PlainTextType, s, false, false)
	}
	md, context, cutTo := t.metadata()
	var blocks []slack.Block
	if about != "" {
		blocks = append(blocks, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, mrkdwn.Cut(about, 2900), false, false), nil, nil))
	}
	if t.Kept != "" {
		context, cutTo = t.KeptContext, 0
	}
	blocks = append(blocks, contextShown(context, cutTo)...)
	if t.filesNote != "" {
		blocks = append(blocks, slack.NewContextBlock("files", slack.NewTextBlockObject(slack.MarkdownType, mrkdwn.Cut(t.filesNote, 2900), false, false)))
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
		PrivateMetadata: md,
	}
}

// contextShown shows the context a job's agent gets after the instruction,
// read-only and whole: a line saying so (and, when cutTo is not 0, that it
// was cut to that many characters), then the text in code blocks, escaped
// (codeSections). Nothing when there is no context.
func contextShown(context string, cutTo int) []slack.Block {
	if context == "" {
		return nil
	}
	head := "*The agent also gets this, after your instruction* (as it gets it; you cannot change it here). " +
		"Text others wrote is marked as quoted data, not an instruction."
	if cutTo > 0 {
		head += " It was longer: it is cut to " + humanize.Count(int64(cutTo)) + " characters."
	}
	blocks := []slack.Block{slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, head, false, false))}
	return append(blocks, codeSections(context)...)
}

// sectionMax is the most characters of a section's text Slack takes.
const sectionMax = 3000

// codeSections shows text read-only as code blocks, one section each,
// every one within sectionMax: escaped (mrkdwn.Escape), no three
// backticks in a row (a zero-width space between them, so that the text
// cannot end the block). A section ends at a line's end when one fits.
func codeSections(text string) []slack.Block {
	const frame = len("```\n\n```")
	var blocks []slack.Block
	for text != "" {
		size, end, lastNL := 0, len(text), -1
		for i, r := range text {
			n := 1
			switch r {
			case '&':
				n = len("&amp;")
			case '<', '>':
				n = len("&lt;")
			case '`':
				n = 2 // with a zero-width space at most
			}
			if size+n > sectionMax-frame {
				end = i
				if lastNL > 0 {
					end = lastNL
				}
				break
			}
			size += n
			if r == '\n' {
				lastNL = i
			}
		}
		chunk := text[:end]
		text = strings.TrimPrefix(text[end:], "\n")
		shown := strings.ReplaceAll(mrkdwn.Escape(chunk), "``", "`\u200b`")
		blocks = append(blocks, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "```\n"+shown+"\n```", false, false), nil, nil))
	}
	return blocks
}

// openModal opens the job modal with the interaction's trigger id. When it
// cannot (the trigger expired: Slack gives it 3 seconds), the person is
// told privately through t's response_url.
func (a *agent) openModal(ctx context.Context, trigger, user string, t modalTarget, about, initial string) {
	var projects []string
	if set := a.core.ProjectsIn(ctx); set.Len() > 1 {
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
	_, err := a.core.SlackIn(ctx).OpenViewContext(ctx, trigger, jobModal(t, about, initial, projects))
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
		a.tellInThread(ctx, replyRequest{Post: bot.Post{Channel: t.Channel, User: user}}, text, log)
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
	t, err := parseTarget(ic.View.PrivateMetadata)
	if err != nil || t.Channel == "" {
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
			p, ok := a.core.ProjectsIn(ctx).Get(name)
			if !ok || name == "" {
				r.Ack(slack.NewErrorsViewSubmissionResponse(map[string]string{blockProject: "Choose the docs project the agent works in."}))
				return
			}
			req.Project, req.Remember, key = p.Name, p.Name != t.Default, bot.ProjectKey(p)
			prompt, problem := tokenAgainstSelect(text, p, a.core.ProjectsIn(ctx).Set)
			if problem != "" {
				fail(problem)
				return
			}
			req.Prompt = prompt
		}
	}
	if refusal := a.core.Editors().RefusalInAck(ctx, ic.User.ID, t.Channel, key); refusal != "" {
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
	if refusal := a.core.Editors().RefusalInAck(ctx, ic.User.ID, channel, ""); refusal != "" {
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
	res, err := a.core.ProjectsIn(ctx).Resolve(ctx, project.Request{Team: team, Channel: channel, User: user})
	if err != nil || res.Ask {
		return ""
	}
	return res.Project.Name
}
