package agent

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// Which docs project a job goes to. A start decides it in its work, once
// (bot.Projects.Resolve: project=NAME in the instruction, which is taken out
// of it, the channel's default, the person's last choice); when nothing
// decides, the person is asked with a button per project (choose.go). The
// job modal shows a project select when the bot serves more than one. The
// decided project is marked on the start's work, so that later attempts use
// the same one, and recorded in the job (store.Job.Project, bot.ProjectKey),
// whose follow-ups and polls use that project's docs API (bot.Bot.Project).

// markProject is the name of the project a start decided on.
const markProject = "project"

// startProject decides the project of a start and takes project=NAME out of
// req.Prompt. It reports whether the start ends here: the person was told
// why (no such project, two projects named, no instruction left) or asked
// which project (askProject). An implicit set needs no decision.
func (a *agent) startProject(ctx context.Context, w *bot.Work, req *startRequest, log *slog.Logger) (project.Project, bool, error) {
	set := a.core.ProjectsIn(ctx)
	if set.Implicit() {
		return set.All()[0], false, nil
	}
	if name := w.Marked(markProject); name != "" || req.Project != "" {
		if req.Project == "" {
			// Decided by an earlier attempt: by the instruction's
			// project=NAME when it has one, the person's choice.
			stripped := withoutToken(req.Prompt)
			req.Remember = stripped != req.Prompt
			req.Prompt = stripped
		}
		name = cmp.Or(name, req.Project)
		p, ok := set.Get(name)
		if !ok {
			log.Error("a job start names a project that is not in the projects file; nothing started", "project", name)
			a.endBeforeRoot(ctx, w, *req, "docsbot no longer serves the docs project `"+mrkdwn.Escape(name)+"`, so nothing was started. "+project.Hint(set, "instruction"), log)
			return project.Project{}, true, nil
		}
		req.Project = p.Name
		return p, false, nil
	}
	res, err := a.core.ProjectsIn(ctx).Resolve(ctx, project.Request{Team: req.Team, Channel: req.Channel, User: req.User, Text: req.Prompt})
	if project.IsProblem(err) {
		log.Info("job start names no known project, or two", "err", mrkdwn.Cut(err.Error(), 120))
		a.endBeforeRoot(ctx, w, *req, project.Problem(err, set, "instruction")+" Nothing was started.", log)
		return project.Project{}, true, nil
	}
	if err != nil {
		return project.Project{}, true, bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if res.Ask {
		return project.Project{}, true, a.askProject(ctx, w, *req, res.Choices, log)
	}
	req.Prompt = res.Text
	// project=NAME is the person's choice, remembered once the start
	// passed the project's editors (start.decide).
	req.Remember = res.Source == project.ByToken
	if strings.TrimSpace(req.Prompt) == "" {
		key := bot.ProjectKey(res.Project)
		if refusal := a.core.Editors().Refusal(ctx, req.User, req.Channel, key); refusal != "" {
			log.Info("project chosen alone refused: not an editor of the project", "project", res.Project.Name)
			a.endBeforeRoot(ctx, w, *req, refusal, log)
			rec := bot.RefusalRecord(req.Team, req.Channel, req.User, viaStart, req.Prompt)
			rec.Project = key
			a.auditWork(ctx, w, rec)
			return project.Project{}, true, nil
		}
		a.remember(ctx, req.Team, req.User, res.Project.Name, log)
		a.endBeforeRoot(ctx, w, *req, "Your docs agent jobs now go to the docs project `"+mrkdwn.Escape(res.Project.Name)+
			"` unless the channel has a project of its own. Nothing was started: say what the agent should do after `project="+mrkdwn.Escape(res.Project.Name)+"`.", log)
		return project.Project{}, true, nil
	}
	// The decision is a step: a later attempt takes it from the mark
	// (above) and decides nothing again.
	if _, err := w.Step(ctx, markProject, func(context.Context) (string, error) { return res.Project.Name, nil }); err != nil {
		return project.Project{}, true, bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	req.Project = res.Project.Name
	return res.Project, false, nil
}

// withoutToken is text without its project=NAME word, if it has one.
func withoutToken(text string) string {
	_, rest, found, err := project.CutToken(text)
	if err != nil || !found {
		return text
	}
	return rest
}

// projectKey is the key (bot.ProjectKey) of the project named name: "" for
// none or the implicit project; a name docsbot no longer serves is its own
// key, so that its editors' check refuses rather than passes.
func (a *agent) projectKey(name string) string {
	if name == "" {
		return ""
	}
	if p, ok := a.core.Projects().Get(name); ok {
		return bot.ProjectKey(p)
	}
	return name
}

// remember keeps name as the person's last choice of project; a failure only
// means the next command may ask again.
func (a *agent) remember(ctx context.Context, team, user, name string, log *slog.Logger) {
	if err := a.core.ProjectsIn(ctx).Remember(ctx, team, user, name); err != nil {
		log.Warn("remembering the person's choice of project failed", "project", name, "err", err)
	}
}

// endBeforeRoot ends a start before its root message is posted: the
// thread's start claim is released and the person told why, privately
// (doc.go).
func (a *agent) endBeforeRoot(ctx context.Context, w *bot.Work, req startRequest, text string, log *slog.Logger) {
	a.releaseThread(ctx, w, req, log)
	a.tell(ctx, req, "", text, log)
}

// projectLabel is how a message names the project whose key is key; "" for
// the implicit project (or a job recorded before projects existed), which
// messages do not name.
func projectLabel(key string) string {
	if key == "" {
		return ""
	}
	return "Project: `" + mrkdwn.Escape(key) + "`"
}

// ActionSwitchProject is the action id of the root message's Switch
// project button (value: switchValue in JSON), shown when the bot serves
// more than one project, until the job ends. It opens the job modal with
// the same instruction and the project select, to start the job anew in
// another project.
const ActionSwitchProject = "agent.switch_project"

// The whole start (its instruction and the context that went with it) can
// be longer than a button's value holds: the start keeps it in Redis
// (store.PendingStarts.SavePending, for Config.PendingTTL) under an id made of its root
// message (switchID), which the click names.

// switchValue is the value of the Switch project button: the job's project,
// and whether a job may be running in it (its status is not final yet).
type switchValue struct {
	Project string `json:"p"`
	Running bool   `json:"r,omitempty"`
}

// switchID is the id under which the start whose root message is ts in
// channel is kept for its Switch project button. The message alone names
// it: the team of the start and that of a click may differ (Enterprise
// Grid, Slack Connect), while a channel id and a message ts are the same
// for everyone who sees the message.
func switchID(channel, ts string) string {
	sum := sha256.Sum256([]byte(channel + "\x00" + ts))
	return "switch-" + hex.EncodeToString(sum[:16])
}

// keepForSwitch keeps the start whose root message is root for its Switch
// project button: the instruction and its context (plain text by now),
// without where it was in the thread (the switched job starts a thread of
// its own). A failure is logged: a click then says the start is gone.
func (a *agent) keepForSwitch(ctx context.Context, req startRequest, root, key string, log *slog.Logger) {
	if key == "" || a.core.ProjectsIn(ctx).Len() < 2 {
		return
	}
	kept := startRequest{Team: req.Team, Channel: req.Channel, User: req.User, Prompt: req.Prompt, Context: req.Context,
		ContextMarkup: req.ContextMarkup, Project: req.Project}
	payload, _ := json.Marshal(kept)
	if err := a.store.SavePending(ctx, switchID(req.Channel, root), payload, a.cfg.PendingTTL); err != nil {
		log.Warn("keeping the start for its Switch project button failed", "err", err)
	}
}

// keptContext sets the context of req to that of the start kept under
// req.ContextKept (Switch project). A start no longer kept leaves the
// context out, and the person is told.
func (a *agent) keptContext(ctx context.Context, req *startRequest, log *slog.Logger) error {
	raw, err := a.store.Pending(ctx, req.ContextKept)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	var kept startRequest
	if err == nil {
		err = json.Unmarshal(raw, &kept)
	}
	req.ContextKept = ""
	if err != nil {
		log.Warn("the start kept for Switch project is gone or unreadable; starting without its context", "err", err)
		a.tell(ctx, *req, "", "docsbot no longer keeps the conversation that went with this instruction, so the agent gets the instruction alone.", log)
		return nil
	}
	req.Context, req.ContextMarkup = kept.Context, kept.ContextMarkup
	return nil
}

// switchButton is the root message's Switch project button.
func switchButton(v rootView) slack.Block {
	raw, _ := json.Marshal(switchValue{Project: v.Project, Running: v.running()})
	button := slack.NewButtonBlockElement(ActionSwitchProject, string(raw),
		slack.NewTextBlockObject(slack.PlainTextType, "Switch project", false, false))
	return slack.NewActionBlock("agent.root", button)
}

// onSwitchProject opens the job modal with the start of the root message
// whose Switch project button was pressed (its instruction, and its context
// for the agent), and the project select with no project chosen: the job
// starts anew, in a new thread of the channel, in the project the person
// picks. A start no longer kept is answered privately.
func (a *agent) onSwitchProject(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	channel, log, ok := a.editorInteraction(ctx, r, viaSwitch)
	if !ok {
		return
	}
	var v switchValue
	if err := json.Unmarshal([]byte(ic.ActionCallback.BlockActions[0].Value), &v); err != nil {
		log.Warn("a Switch project button without its project", "err", err)
	}
	id := switchID(channel, cmp.Or(ic.Container.MessageTs, ic.Message.Timestamp))
	raw, err := a.store.Pending(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		log.Info("Switch project pressed on a start no longer kept")
		a.refuseInteraction(ctx, r, channel, fmt.Sprintf("docsbot keeps a job's instruction for Switch project for %s, and this one is gone, so it cannot start it in another project. "+
			"Send the instruction again with `%s project=NAME`.", humanize.Duration(a.cfg.PendingTTL), Command))
		return
	}
	if err != nil {
		log.Warn("reading the start for Switch project failed", "err", err)
		a.refuseInteraction(ctx, r, channel, storageDown)
		return
	}
	var kept startRequest
	if err := json.Unmarshal(raw, &kept); err != nil {
		log.Warn("a start kept for Switch project that cannot be read", "err", err)
		a.refuseInteraction(ctx, r, channel, "docsbot could not read this job's instruction, so it cannot start it in another project. Send it again.")
		return
	}
	r.Ack(nil)
	about := "*Start this instruction again in another docs project.*"
	if v.Running && v.Project != "" {
		about += " The job in `" + mrkdwn.Escape(v.Project) + "` goes on: this starts a second job, in a new thread."
	} else if v.Project != "" {
		about += " It starts in a new thread."
	}
	t := modalTarget{Team: ic.Team.ID, Channel: channel, ResponseURL: ic.ResponseURL, NoDefault: true, Kept: id, KeptContext: kept.Context}
	a.openModal(ctx, ic.TriggerID, ic.User.ID, t, about, kept.Prompt)
}

// statusProjectGone is the status recorded for a job no longer followed
// because docsbot no longer serves its project.
const statusProjectGone = "project_removed"

// goneProject names the project of a job docsbot no longer serves: one
// removed from the projects file, or the one served without a file (key
// "") once there is one.
func goneProject(key string) string {
	if key == "" {
		return "the docs project docsbot served before its projects file, which it no longer serves"
	}
	return "the docs project `" + mrkdwn.Escape(key) + "`, which docsbot no longer serves"
}

// projectGone stops following a claimed job whose project docsbot has no
// docs API for (the project left the projects file): polling it could only
// fail. The requester is told privately in the job's thread, and the root
// message says the job is no longer followed.
func (a *agent) projectGone(ctx context.Context, c store.Claim, log *slog.Logger) bool {
	log.Error("the job's project is not in the projects file (no docs API for it); no longer following the job", "project", c.Job.Project)
	if err := a.store.Untrack(ctx, c, statusProjectGone); err != nil {
		return a.settle(ctx, log, err)
	}
	problem := "it runs in " + goneProject(c.Job.Project) + ". Follow it in your docs dashboard."
	t := c.Job.Thread
	text := "docsbot stopped following your docs agent job `" + mrkdwn.Escape(c.JobID) + "`: " + problem
	dm := text
	if where := channelRef(t.Channel); where != "" {
		dm = "docsbot stopped following your docs agent job `" + mrkdwn.Escape(c.JobID) + "` (in " + where + "): " + problem
	}
	if err := a.core.TellPrivately(ctx, bot.Private{User: c.Job.Requester, Channel: t.Channel, ThreadTS: t.TS, Text: text, DMText: dm}); err != nil {
		log.Error("telling the requester that the job is no longer followed failed", "err", err)
	}
	v := jobView(&c.Job)
	v.State, v.Problem = stateUntracked, problem
	a.updateRoot(ctx, t.Channel, rootTS(&c.Job), v, log)
	a.ended(ctx, &c.Job, "", log)
	return true
}
