package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// Asking which project a job goes to. When a start cannot decide its project
// (no project=NAME, no channel default, no last choice), its work keeps the
// start in Redis under a random id (store.PendingStarts.SavePending, for
// Config.PendingTTL: an instruction can be longer than a button's value) and
// asks the person privately, with a button per project whose value names
// the project and the id. A click is agent.choose work keyed by the id and
// the person who clicked, so that their clicks on two buttons, or twice,
// start one job, and someone else's click (refused) takes nothing from
// them: it replaces the
// question with what happens, then queues the start with its project (so
// that a refusal by the start is the last thing the person sees), which
// remembers the choice (bot.Projects.Remember) once the person passed the
// project's editors. A click after the start was forgotten
// is told so.

// ActionChooseProject starts the action ids of the buttons that choose a
// job's project (value: choiceValue in JSON): button i of the question
// (bot.ProjectQuestion) is ActionChooseProject followed by "." and i; the
// bare id is that of questions asked before, one button a block. One route
// takes them all.
const ActionChooseProject = "agent.choose_project"

// workChoose is the kind of inbox work of a click on a project's button.
const workChoose = "agent.choose"

// markPending is the pending start's id (on a start that asked) or the
// start itself (on the click's work, once read).
const markPending = "pending"

// markAnswered is set on the click's work once the question was answered
// ("Starting…"), before its start is queued.
const markAnswered = "answered"

// choiceValue is the value of a project's button.
type choiceValue struct {
	Project string `json:"p"`
	Pending string `json:"k"`
}

// chooseRequest is what a click on a project's button carries through the
// inbox.
type chooseRequest struct {
	Team    string `json:"team"`
	Channel string `json:"channel"`
	User    string `json:"user"`
	Project string `json:"project"`
	Pending string `json:"pending"`
	// ResponseURL is the click's: it replaces the question.
	ResponseURL string `json:"response_url,omitempty"`
}

// askQuestion is what the person is asked.
const askQuestion = "Which docs project should the agent work in?"

// newPendingID returns a random id for a pending start.
func newPendingID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// askProject keeps the start and asks its person, privately, which project
// it goes to (bot.ProjectQuestion). The start ends here; a click starts it
// again with the project. When the buttons do not fit, nothing is kept: the
// person is asked to name one.
func (a *agent) askProject(ctx context.Context, w *bot.Work, req startRequest, choices []project.Project, log *slog.Logger) error {
	// The buttons carry the id before its step marks it (below).
	id := w.Marked(markPending)
	if id == "" {
		id = newPendingID()
	}
	q := bot.ProjectQuestion{Question: askQuestion, Quote: mrkdwn.Cut(req.Prompt, promptInRoot), Noun: "instruction",
		Action: ActionChooseProject + ".", Value: func(p project.Project) string {
			value, _ := json.Marshal(choiceValue{Project: p.Name, Pending: id})
			return string(value)
		}}
	text, blocks := q.Message(choices)
	if blocks == nil {
		log.Info("asking which project the job goes to, in words", "projects", len(choices))
		a.endBeforeRoot(ctx, w, req, text+" Nothing was started.", log)
		return nil
	}
	if _, err := w.Step(ctx, markPending, func(context.Context) (string, error) { return id, nil }); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	payload, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("encoding a pending start: %w", err)
	}
	if err := a.store.SavePending(ctx, id, payload, a.cfg.PendingTTL); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	a.releaseThread(ctx, w, req, log)
	log.Info("asking which project the job goes to", "pending", id)
	// A direct message (the bot cannot write in the channel) has no
	// buttons: one there would start the job where docsbot cannot write.
	dm := "docsbot needs to know which docs project your instruction " + instructionIn(req.Prompt, req.Channel) +
		" goes to, and cannot ask you there, so nothing was started. " + project.Hint(a.core.ProjectsIn(ctx), "instruction")
	a.tellBlocks(ctx, req, "", text, blocks, dm, log)
	return nil
}

// onChooseProject records a click on a project's button as agent.choose
// work keyed by the pending start and the person who clicked, then acks it.
func (a *agent) onChooseProject(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	channel := interactionChannel(&ic)
	log := a.log.With("user", ic.User.ID, "channel", channel)
	var v choiceValue
	if err := json.Unmarshal([]byte(ic.ActionCallback.BlockActions[0].Value), &v); err != nil || v.Project == "" || v.Pending == "" {
		log.Warn("a project button without its project or start", "err", err)
		a.refuseInteraction(ctx, r, channel, "docsbot could not read this choice, so nothing was started. Send your instruction again.")
		return
	}
	payload, _ := json.Marshal(chooseRequest{Team: ic.Team.ID, Channel: channel, User: ic.User.ID, Project: v.Project,
		Pending: v.Pending, ResponseURL: ic.ResponseURL})
	if !a.core.AcceptEnvelope(ctx, store.Work{Key: "choose:" + v.Pending + ":" + ic.User.ID, Kind: workChoose, Payload: payload}, bot.RedeliveredInteraction) {
		a.refuseInteraction(ctx, r, channel, storageDown)
		return
	}
	r.Ack(nil)
}

// doChoose starts a pending start in the project the person chose.
func (a *agent) doChoose(ctx context.Context, w *bot.Work) error {
	var c chooseRequest
	if err := json.Unmarshal(w.Payload, &c); err != nil {
		return fmt.Errorf("decoding a project choice: %w", err)
	}
	log := a.log.With("user", c.User, "channel", c.Channel, "work", w.Key, "project", c.Project)
	// Kept on the work before the start is queued and the pending start
	// dropped (a step): a later attempt queues it from here.
	pending, err := w.Step(ctx, markPending, func(ctx context.Context) (string, error) {
		raw, err := a.store.Pending(ctx, c.Pending)
		return string(raw), err
	})
	if errors.Is(err, store.ErrNotFound) {
		log.Info("a project chosen for a start that was forgotten")
		a.answerChoice(ctx, c, "", fmt.Sprintf("This instruction waited for its docs project for more than %s, so docsbot forgot it and nothing was started. Send it again.",
			humanize.Duration(a.cfg.PendingTTL)), true, log)
		return nil
	}
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	var req startRequest
	if err := json.Unmarshal([]byte(pending), &req); err != nil {
		return fmt.Errorf("decoding a pending start: %w", err)
	}
	if req.User != c.User {
		// Not the requester: their instruction is not shown.
		a.answerChoice(ctx, c, "", "Only the person who asked for this job can choose its project.", false, log)
		return nil
	}
	p, ok := a.core.ProjectsIn(ctx).Get(c.Project)
	if !ok {
		log.Warn("a project chosen that is not in the projects file")
		a.answerChoice(ctx, c, req.Prompt, "docsbot no longer serves the docs project `"+mrkdwn.Escape(mrkdwn.Cut(c.Project, 40))+"`, so nothing was started. "+
			project.Hint(a.core.ProjectsIn(ctx), "instruction"), true, log)
		return nil
	}
	// Remembered by the start, once it passed the project's editors.
	req.Project, req.Remember = p.Name, true
	if req.ResponseURL != "" && c.ResponseURL != "" {
		req.ResponseURL = c.ResponseURL // the command's may be used up or expired
	}
	// The question is answered before the start is queued: the start may
	// refuse the person (not an editor of the project), and its refusal,
	// told through the same response_url, must come after the answer, never
	// be replaced by it. The answer is marked so that a later attempt (the
	// queueing failed) does not answer twice; the start's key is the work's,
	// so a later attempt queues it once and never loses it.
	if _, err := w.Step(ctx, markAnswered, func(ctx context.Context) (string, error) {
		a.answerChoice(ctx, c, req.Prompt, "Starting the docs agent in the project `"+mrkdwn.Escape(p.Name)+"`.", true, log)
		return "1", nil
	}); err != nil {
		log.Warn("marking the choice answered failed; a later attempt may answer again", "err", err)
	}
	payload, _ := json.Marshal(req)
	queued, err := a.core.QueueFromWork(ctx, store.Work{Key: "start:" + w.Key, Kind: workStart, Payload: payload})
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if queued {
		log.Info("job start queued in the project chosen")
	}
	if err := a.store.DropPending(ctx, c.Pending); err != nil {
		log.Warn("dropping the pending start failed; it expires by itself", "err", err)
	}
	return nil
}

// answerChoice answers the person who clicked a project's button,
// privately: in place of the question (replace), else below it, else
// (bot.TellPrivately) in the channel or in a direct message, which says
// what it is about: the choice, and the instruction when prompt is set.
func (a *agent) answerChoice(ctx context.Context, c chooseRequest, prompt, text string, replace bool, log *slog.Logger) {
	if c.ResponseURL != "" && replace {
		msg := bot.Ephemeral(text)
		msg.ReplaceOriginal = true
		err := a.core.Respond(ctx, slack.SlashCommand{UserID: c.User, ChannelID: c.Channel, ResponseURL: c.ResponseURL}, bot.Reply(msg))
		if err == nil {
			return
		}
		log.Warn("replacing the question through response_url failed; answering in the channel", "err", err)
		c.ResponseURL = ""
	}
	about := "your instruction"
	if prompt != "" {
		about += " " + instructionIn(prompt, c.Channel)
	} else if where := channelRef(c.Channel); where != "" {
		about += " in " + where
	}
	dm := "About the docs project `" + mrkdwn.Escape(mrkdwn.Cut(c.Project, 40)) + "` you chose for " + about + ": " + text
	p := bot.Private{User: c.User, Channel: c.Channel, ResponseURL: c.ResponseURL, Text: text, DMText: dm}
	if err := a.core.TellPrivately(ctx, p); err != nil {
		log.Error("could not answer the choice privately", "err", err)
	}
}

// instructionIn names an instruction in a direct message: its beginning,
// quoted, and the channel it was sent in.
func instructionIn(prompt, channel string) string {
	s := "“" + mrkdwn.Escape(mrkdwn.Cut(strings.Join(strings.Fields(prompt), " "), 100)) + "”"
	if where := channelRef(channel); where != "" {
		s += " (in " + where + ")"
	}
	return s
}

// channelRef is a channel's mention for a direct message, "" for a
// direct message itself.
func channelRef(channel string) string {
	if channel == "" || strings.HasPrefix(channel, "D") {
		return ""
	}
	return "<#" + channel + ">"
}

// giveUpChoose tells the person their choice could not be acted on.
func (a *agent) giveUpChoose(ctx context.Context, w *bot.Work) {
	var c chooseRequest
	if json.Unmarshal(w.Payload, &c) != nil {
		return
	}
	a.answerChoice(ctx, c, "", fmt.Sprintf("docsbot could not start your job in the project `%s`: its storage kept failing for %d minutes. Nothing was started; try again.",
		mrkdwn.Escape(mrkdwn.Cut(c.Project, 40)), int(bot.WorkMaxAge/time.Minute)), false, a.log)
}
