package deploy

import (
	"context"
	"encoding/json"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/humanize"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/store"
)

// A bare /docs-deploy changes the live site, so it asks first, privately
// in the ack: "Deploy the docs site of PROJECT now?" with Deploy and Cancel.
// Deploy records the same start work as before the question (workStart),
// keyed by the question and the person who pressed it, so that Slack
// sending the press again, or a second press, deploys nothing more; the
// work checks the editor again. A preview asks nothing.

// confirmFor is how long the question's Deploy button deploys: within the
// inbox's dedupe window (an hour), so that a press is never done twice.
const confirmFor = 10 * time.Minute

// resolveAck is how long the ack waits for the person's last choice of
// project.
const resolveAck = time.Second

// confirmation is what the Deploy button carries.
type confirmation struct {
	// Project is the project asked about ("" for the implicit one, or
	// when the ack could not decide: the work decides).
	Project string `json:"project,omitempty"`
	// Ask is the delivery id of the command that asked: with the person
	// who pressed, the key of the work.
	Ask string `json:"ask"`
	// At is when it was asked (Unix seconds).
	At int64 `json:"at"`
}

// askToDeploy answers a bare /docs-deploy in the ack: the question with its
// Deploy and Cancel buttons, or why not (the project named is not served,
// none can be decided, the person does not edit the project).
func (d *deploys) askToDeploy(ctx context.Context, r *bot.CommandRequest, req request) {
	set := d.core.ProjectsIn(ctx)
	rctx, cancel := context.WithTimeout(ctx, resolveAck)
	res, err := d.core.ProjectsIn(ctx).Resolve(rctx, project.Request{Team: req.Team, Channel: req.Channel, User: req.User, Text: projectToken(req.Project)})
	cancel()
	c := confirmation{Ask: r.DeliveryID, At: d.cfg.Now().Unix()}
	switch {
	case project.IsProblem(err):
		r.Ack(bot.Ephemeral(project.Problem(err, set, "command")))
		return
	case err != nil:
		// The last choice could not be read in time: the work decides.
		d.log.Warn("deciding the project in the ack failed; the work decides", "user", req.User, "err", err)
		c.Project = req.Project
	case res.Ask:
		r.Ack(bot.Ephemeral(project.Which(set, "command")))
		return
	default:
		c.Project = res.Project.Name
		if !res.Project.Implicit {
			if refusal := d.core.Editors().For(roles.ActDeploys).RefusalInAck(ctx, req.User, req.Channel, bot.ProjectKey(res.Project)); refusal != "" {
				d.core.RefuseCommand(ctx, r, refusal, r.Command.Text)
				return
			}
		}
	}
	r.Ack(confirmQuestion(c, set.Implicit()))
}

// confirmQuestion is the question of c, with its buttons.
func confirmQuestion(c confirmation, implicit bool) *slack.WebhookMessage {
	site := "the docs site"
	if !implicit && c.Project != "" {
		site = "the docs site of `" + mrkdwn.Escape(c.Project) + "`"
	}
	text := ":rocket: Deploy " + site + " now? It deploys the deployment branch to the live site."
	value, _ := json.Marshal(c)
	deploy := slack.NewButtonBlockElement(ActionConfirm, string(value), slack.NewTextBlockObject(slack.PlainTextType, "Deploy", false, false))
	deploy.Style = slack.StylePrimary
	cancel := slack.NewButtonBlockElement(ActionCancel, c.Ask, slack.NewTextBlockObject(slack.PlainTextType, "Cancel", false, false))
	msg := bot.Ephemeral(text)
	msg.Blocks = &slack.Blocks{BlockSet: []slack.Block{
		slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil),
		slack.NewActionBlock("", deploy, cancel),
	}}
	return msg
}

// onConfirm handles the Deploy button: the deployment's start work,
// recorded for the work to check and do (doStart), once per question and
// person.
func (d *deploys) onConfirm(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	r.Ack(nil)
	user, channel := ic.User.ID, ic.Channel.ID
	if channel == "" {
		channel = ic.Container.ChannelID
	}
	asker := slack.SlashCommand{TeamID: ic.Team.ID, ChannelID: channel, UserID: user, ResponseURL: ic.ResponseURL}
	var c confirmation
	if len(ic.ActionCallback.BlockActions) == 0 || json.Unmarshal([]byte(ic.ActionCallback.BlockActions[0].Value), &c) != nil || c.Ask == "" {
		d.log.Warn("a Deploy button without a readable question", "user", user)
		d.replaceOwn(ctx, ic, asker, "This button no longer works, so nothing was deployed. Type `"+Command+"` again.")
		return
	}
	if age := d.cfg.Now().Sub(time.Unix(c.At, 0)); age > confirmFor {
		d.replaceOwn(ctx, ic, asker, "This question was asked "+humanize.Ago(age)+", so nothing was deployed. Type `"+Command+"` again.")
		return
	}
	// A question is answered in its place only when it is the person's
	// own (ephemeral): a button in a channel's message is everyone's.
	req := request{Team: ic.Team.ID, Channel: channel, User: user, ResponseURL: ic.ResponseURL, Project: c.Project,
		InQuestion: ic.Container.IsEphemeral}
	if d.core.ProjectsIn(ctx).Implicit() {
		req.Project = ""
	}
	payload, _ := json.Marshal(req)
	if !d.core.AcceptEnvelope(ctx, store.Work{Key: "act:deploy:" + c.Ask + ":" + user, Kind: workStart, Payload: payload}, "redelivered Deploy button ignored") {
		d.log.Warn("a Deploy button could not be recorded", "user", user)
		d.replaceOwn(ctx, ic, asker, "docsbot cannot reach its storage right now, so nothing was deployed. Press *Deploy* again in a minute.")
	}
}

// onCancel handles Cancel: the question is replaced, nothing is done.
func (d *deploys) onCancel(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	r.Ack(nil)
	d.replaceOwn(ctx, ic, slack.SlashCommand{TeamID: ic.Team.ID, ChannelID: ic.Channel.ID, UserID: ic.User.ID, ResponseURL: ic.ResponseURL},
		"Cancelled: nothing was deployed.")
}

// replaceOwn is replace for the question of ic when it is the person's own
// (ephemeral); otherwise, the message being everyone's, the person is told
// privately beside it.
func (d *deploys) replaceOwn(ctx context.Context, ic slack.InteractionCallback, asker slack.SlashCommand, text string) {
	if !ic.Container.IsEphemeral {
		asker.ResponseURL = ""
	}
	d.replace(ctx, asker, text)
}

// replace replaces the question with text, through the button's
// response_url; when Slack refuses, the person is told privately.
func (d *deploys) replace(ctx context.Context, asker slack.SlashCommand, text string) {
	if asker.ResponseURL != "" {
		err := d.core.Respond(ctx, asker, bot.Reply(&slack.WebhookMessage{ReplaceOriginal: true, Text: text}))
		if err == nil {
			return
		}
		d.log.Warn("replacing the deploy question failed; telling the person", "user", asker.UserID, "err", err)
	}
	if err := d.core.TellPrivately(ctx, bot.Private{User: asker.UserID, Channel: asker.ChannelID, Text: text}); err != nil {
		d.log.Warn("telling the person privately failed", "user", asker.UserID, "err", err)
	}
}
