package visitors

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// Which docs project a /docs-visitors answer is for. The ack resolves the
// command's project (b.Projects().Resolve: project=NAME, the channel's default,
// the person's last choice); when nothing decides it, the ack asks with one
// button per project, whose value carries the command's text and the
// project, so that a click runs the command there (and remembers the
// choice). The work gets the project's name in its payload (commandWork).

// target is the project an answer is for and how to reach its numbers.
type target struct {
	proj project.Project
	// key is bot.ProjectKey(proj): "" for the implicit project. It is what
	// buttons and digest subscriptions record.
	key string
	api VisitorsAPI
	// named reports that the bot serves a projects file: every answer says
	// which project it is for.
	named bool
}

// target returns the target of p, with its docs API client (b.Project).
func (v *visitors) target(p project.Project) (target, error) {
	t := target{proj: p, key: bot.ProjectKey(p), named: !v.core.Projects().Implicit()}
	if s, ok := v.core.Project(t.key); ok {
		t.api = s.API
	}
	if t.api == nil {
		return target{}, &bot.Error{Message: "docsbot has no docs API client for the project " + mrkdwn.Escape(p.Name) + ", so it cannot count its visitors. Tell whoever runs docsbot.",
			Err: fmt.Errorf("visitors: no API client for project %q", p.Name)}
	}
	return t, nil
}

// targetByKey is the target of the project a record names (a button, a
// subscription): false when the projects file no longer has it.
func (v *visitors) targetByKey(key string) (target, bool, error) {
	p, ok := v.core.Project(key)
	if !ok {
		return target{}, false, nil
	}
	t, err := v.target(p.Project)
	return t, true, err
}

// draw is what by may take from the analytics budget t's project draws on
// (bot.AnalyticsBudgetName: the implicit project's, or the one its
// visitors_budget names, shared by every feature asking analytics).
func (v *visitors) draw(t target, by bot.Spender) store.Draw {
	return v.core.Analytics().Draw(t.proj, by)
}

// spenderOf is the person who typed cmd (or pressed a button), who pays for
// what it asks, with their share (bot.SpenderOf: a guest's is smaller).
func (v *visitors) spenderOf(ctx context.Context, cmd slack.SlashCommand) bot.Spender {
	return v.core.Sight(ctx, cmd.UserID, "").Spender(cmd.TeamID, cmd.UserID)
}

// cacheKey names a date range's cache entry: the project's id (as its API
// client tells it) and the API's date parameters. top, path and sort are
// applied after the cache, so they share the entry.
func (t target) cacheKey(r dateRange) string {
	from, to := r.Params()
	return t.api.ProjectID() + ":" + from + ":" + to
}

// dayProject names the project in the day cache.
func (t target) dayProject() string { return t.api.ProjectID() }

// label is the project's name as answers show it, "" when the bot serves
// the implicit project alone (answers are as they were before projects).
func (t target) label() string {
	if !t.named {
		return ""
	}
	return t.proj.Name
}

// commandWork is the payload of a visitors.summary work: the command (its
// text without the project=NAME word) and the project it is for. Read it
// with decodeCommandWork.
type commandWork struct {
	slack.SlashCommand
	// Project is the name of the project decided in the ack or chosen with
	// a button; "" when the work decides (the ack could not read the
	// person's last choice, or work queued before projects existed).
	Project string `json:"docsbot_project,omitempty"`
	// Remember: the person chose the project (project=NAME or a button);
	// the work keeps it as their last choice.
	Remember bool `json:"docsbot_remember,omitempty"`
	// Chosen: the project was chosen with a button; the work replaces the
	// question with the choice.
	Chosen bool `json:"docsbot_chosen,omitempty"`
	// AllProjects: `digest status` without project=NAME while the bot
	// serves several projects; the work lists the digests of every project
	// in the channel (digest_status.go) and Project stays "".
	AllProjects bool `json:"docsbot_all,omitempty"`
}

// decodeCommandWork reads a visitors.summary payload, or one queued before
// projects existed (the command alone). It is not commandWork's
// UnmarshalJSON: slack.SlashCommand has one, which would read the command
// alone.
func decodeCommandWork(data []byte) (commandWork, error) {
	var cw commandWork
	if err := json.Unmarshal(data, &cw.SlashCommand); err != nil {
		return cw, err
	}
	var extra struct {
		Project     string `json:"docsbot_project"`
		Remember    bool   `json:"docsbot_remember"`
		Chosen      bool   `json:"docsbot_chosen"`
		AllProjects bool   `json:"docsbot_all"`
	}
	if err := json.Unmarshal(data, &extra); err != nil {
		return cw, err
	}
	cw.Project, cw.Remember, cw.Chosen, cw.AllProjects = extra.Project, extra.Remember, extra.Chosen, extra.AllProjects
	return cw, nil
}

// resolveAck is how long the ack waits for the person's last choice.
const resolveAck = time.Second

// ActionChooseProject starts the action ids of the buttons that ask which
// project a /docs-visitors command is for (bot.ProjectQuestion): the
// button's position follows (docs_visitors_project_0, _1, ...). Its value
// is the JSON of a projectChoice. One route takes them all.
const ActionChooseProject = "docs_visitors_project_"

// projectChoice is a project button's value: the project and the command's
// text to run there.
type projectChoice struct {
	Project string `json:"p"`
	Text    string `json:"t"`
}

// askProject is the private question of a command whose project nothing
// decides, which shows the command (its text as Slack sent it, without
// project=NAME): one button per project, or, when they do not fit (the
// command is too long for a button's value), the ask to name the project.
func askProject(choices []project.Project, text string) *slack.WebhookMessage {
	q := bot.ProjectQuestion{Question: "Which docs project is this for?", About: inlineCode(commandLine(text)), Noun: "command",
		Action: ActionChooseProject, Value: func(p project.Project) string {
			value, _ := json.Marshal(projectChoice{Project: p.Name, Text: text})
			return string(value)
		}}
	plain, blocks := q.Message(choices)
	msg := bot.Ephemeral(plain)
	if blocks != nil {
		msg.Blocks = &slack.Blocks{BlockSet: blocks}
	}
	return msg
}

// onChooseProject handles a project button: the command is run in the
// chosen project from the inbox, like a typed one, and the choice is
// remembered there.
func (v *visitors) onChooseProject(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	var ch projectChoice
	if len(ic.ActionCallback.BlockActions) == 0 || json.Unmarshal([]byte(ic.ActionCallback.BlockActions[0].Value), &ch) != nil {
		v.log.Warn("a project button without a readable choice", "user", ic.User.ID)
		r.Ack(nil)
		return
	}
	// The container names the message's channel where the payload may
	// have no channel (as the agent reads it).
	cmd := slack.SlashCommand{TeamID: ic.Team.ID, ChannelID: cmp.Or(ic.Container.ChannelID, ic.Channel.ID), UserID: ic.User.ID, UserName: ic.User.Name,
		Command: Command, Text: ch.Text, ResponseURL: ic.ResponseURL, TriggerID: ic.TriggerID}
	if refusal := v.core.Refusal(cmd.UserID, cmd.ChannelID); refusal != "" {
		v.core.ReplyPrivately(ctx, cmd, refusal)
		rec := bot.RefusalRecord(cmd.TeamID, cmd.ChannelID, cmd.UserID, Command, "")
		rec.Work = "act:" + r.DeliveryID
		v.core.Audit().Record(ctx, rec)
		r.Ack(nil)
		return
	}
	if _, ok := v.core.ProjectsIn(ctx).Get(ch.Project); !ok {
		v.core.ReplyPrivately(ctx, cmd, project.Problem(&project.UnknownError{Name: ch.Project}, v.core.ProjectsIn(ctx), "command"))
		r.Ack(nil)
		return
	}
	payload, _ := json.Marshal(commandWork{SlashCommand: cmd, Project: ch.Project, Remember: true, Chosen: true})
	// A button has no answer to give in its ack: if the work cannot be
	// recorded, the person is told through the button's response_url.
	if !v.core.AcceptEnvelope(ctx, store.Work{Key: "act:" + r.DeliveryID, Kind: workVisitors, Payload: payload}, "redelivered project button ignored") {
		v.log.Warn("a project button could not be recorded", "user", ic.User.ID)
		v.core.ReplyPrivately(ctx, cmd, "docsbot cannot reach its storage right now, so it did not count visitors. Try again in a minute.")
	}
	r.Ack(nil)
}

// workTarget decides the project of a command's work: the one the ack (or
// a button) recorded, else resolved now. ok is false when the person was
// told privately why nothing is done, or asked (tellMessage: the
// response_url, else the channel, else a direct message).
func (v *visitors) workTarget(ctx context.Context, cw *commandWork) (target, bool, error) {
	set := v.core.ProjectsIn(ctx)
	cmd := &cw.SlashCommand
	if cw.Project == "" {
		res, err := v.core.ProjectsIn(ctx).Resolve(ctx, project.Request{Team: cmd.TeamID, Channel: cmd.ChannelID, User: cmd.UserID, Text: cmd.Text})
		switch {
		case project.IsProblem(err):
			v.tell(ctx, *cmd, project.Problem(err, set, "command"))
			return target{}, false, nil
		case err != nil:
			if store.Temporary(err) {
				return target{}, false, bot.Later(30*time.Second, err)
			}
			return target{}, false, err
		case res.Ask:
			v.tellMessage(ctx, *cmd, askProject(res.Choices, res.Text))
			return target{}, false, nil
		}
		cmd.Text, cw.Project, cw.Remember = res.Text, res.Project.Name, res.Source == project.ByToken
	}
	p, ok := set.Get(cw.Project)
	if !ok {
		v.tell(ctx, *cmd, project.Problem(&project.UnknownError{Name: cw.Project}, set, "command"))
		return target{}, false, nil
	}
	t, err := v.target(p)
	if err != nil {
		v.tell(ctx, *cmd, bot.Describe(err))
		return target{}, false, nil
	}
	if cw.Remember {
		if err := v.core.ProjectsIn(ctx).Remember(ctx, cmd.TeamID, cmd.UserID, p.Name); err != nil {
			v.log.Warn("remembering the project chosen failed", "user", cmd.UserID, "project", p.Name, "err", err)
		}
	}
	if cw.Chosen {
		// cmd.Text is as Slack sent it (escaped): inlineCode escapes it
		// once, and keeps a backtick from ending the code span.
		msg := &slack.WebhookMessage{ReplaceOriginal: true, Text: "Project *" + mrkdwn.Escape(p.Name) + "* it is: docsbot runs " + inlineCode(commandLine(cmd.Text)) +
			" there. Your next commands go there too, unless they say `project=NAME`."}
		if err := v.core.Respond(ctx, *cmd, bot.Reply(msg)); err != nil {
			v.log.Warn("answering the project button failed", "user", cmd.UserID, "err", err)
		}
	}
	return t, true, nil
}

// ackTarget resolves the command's project in the ack. It returns the
// answer to ack with instead of queueing work ("" for none, then msg may
// be set to ask with buttons), and otherwise fills cw.
func (v *visitors) ackTarget(ctx context.Context, cw *commandWork) (msg *slack.WebhookMessage) {
	cmd := &cw.SlashCommand
	rctx, cancel := context.WithTimeout(ctx, resolveAck)
	defer cancel()
	res, err := v.core.ProjectsIn(ctx).Resolve(rctx, project.Request{Team: cmd.TeamID, Channel: cmd.ChannelID, User: cmd.UserID, Text: cmd.Text})
	switch {
	case project.IsProblem(err):
		return bot.Ephemeral(project.Problem(err, v.core.ProjectsIn(ctx), "command"))
	case err != nil:
		// The last choice could not be read in time: the work decides.
		v.log.Warn("deciding the project in the ack failed; the work decides", "user", cmd.UserID, "err", err)
		return nil
	case res.Ask:
		return askProject(res.Choices, res.Text)
	}
	cmd.Text, cw.Project, cw.Remember = res.Text, res.Project.Name, res.Source == project.ByToken
	return nil
}

// fileProject is the project's part of a file name: "api-", "" for an
// unnamed project.
func fileProject(name string) string {
	if name == "" {
		return ""
	}
	return name + "-"
}

// projectsHelp is the help's paragraph on projects, "" for the implicit one.
func projectsHelp(set *project.Set) string {
	if set.Implicit() {
		return ""
	}
	names := make([]string, 0, set.Len())
	for _, n := range set.Names() {
		names = append(names, inlineCode(n))
	}
	help := "\n*Projects:* " + strings.Join(names, ", ") + ". `project=NAME` at the start or the end of the command chooses one " +
		"(and is remembered for your next commands); otherwise the channel's project is used, then your last choice, and otherwise docsbot asks."
	if set.Len() < 2 {
		return help
	}
	return help + "\n*Digests:* each project's digest is a subscription of its own: `digest weekly project=NAME`, `digest daily project=NAME` and `digest off project=NAME` change one project's. " +
		"`digest status` lists the digests of every project in the channel; `digest status project=NAME` shows one."
}
