package deploy

import (
	"context"
	"strconv"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
)

// request is a /docs-deploy, as its work carries it.
type request struct {
	Team        string `json:"team"`
	Channel     string `json:"channel"`
	User        string `json:"user"`
	ResponseURL string `json:"response_url,omitempty"`
	// Status asks for the deployments started lately; Preview for a
	// preview of Branch; neither, a deployment.
	Status  bool   `json:"status,omitempty"`
	Preview bool   `json:"preview,omitempty"`
	Branch  string `json:"branch,omitempty"`
	// Project is the project named (project=NAME), "" to decide.
	Project string `json:"project,omitempty"`
	// InQuestion is set on a deployment started with the Deploy button of
	// a bare /docs-deploy's question, shown to the person alone
	// (confirm.go): ResponseURL is the button's, and what the work answers
	// replaces the question.
	InQuestion bool `json:"in_question,omitempty"`
}

// parse reads /docs-deploy's text: "" (deploy), "preview BRANCH", "status"
// or "help", and project=NAME with a projects file. It returns what to
// answer in the ack instead when the text is help or wrong.
func (d *deploys) parse(ctx context.Context, text string) (request, string) {
	var req request
	if !d.core.ProjectsIn(ctx).Implicit() {
		name, rest, ok, err := project.CutToken(text)
		if err != nil {
			return req, project.Problem(err, d.core.ProjectsIn(ctx), "command")
		}
		if ok {
			req.Project, text = name, rest
		}
	}
	word, rest, _ := strings.Cut(strings.TrimSpace(text), " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(word) {
	case "":
	case "status":
		req.Status = true
	case "preview":
		if rest == "" || strings.ContainsAny(rest, " \t\n") {
			return req, "Name one branch: `" + Command + " preview BRANCH`."
		}
		req.Preview, req.Branch = true, rest
	case "help":
		return req, help(d.core.ProjectsIn(ctx).Implicit(), d.cfg.PerUser)
	default:
		return req, "`" + mrkdwn.Escape(mrkdwn.Cut(word, 40)) + "` is not something " + Command + " does.\n\n" + help(d.core.ProjectsIn(ctx).Implicit(), d.cfg.PerUser)
	}
	return req, ""
}

// onCommand answers /docs-deploy in the ack when it needs no I/O (help, a
// refusal, the question a bare /docs-deploy asks before it deploys:
// askToDeploy) and otherwise records its work in the inbox and acks.
func (d *deploys) onCommand(ctx context.Context, r *bot.CommandRequest) {
	cmd := r.Command
	req, answer := d.parse(ctx, mrkdwn.Plain(cmd.Text))
	if answer != "" {
		r.Ack(bot.Ephemeral(answer))
		return
	}
	refusal := d.core.Refusal(cmd.UserID, cmd.ChannelID)
	if refusal == "" && !req.Status {
		// Deploying changes the site: editors only (bot.Editors.Refusal's
		// order of checks); the project's own editors are checked by the
		// work once the project is known.
		refusal = d.core.Editors().For(roles.ActDeploys).RefusalInAck(ctx, cmd.UserID, cmd.ChannelID, "")
	}
	if refusal != "" {
		d.core.RefuseCommand(ctx, r, refusal, cmd.Text)
		return
	}
	req.Team, req.Channel, req.User, req.ResponseURL = cmd.TeamID, cmd.ChannelID, cmd.UserID, cmd.ResponseURL
	if !req.Status && !req.Preview {
		// Deploying the site is asked first: the Deploy button starts it.
		d.askToDeploy(ctx, r, req)
		return
	}
	d.core.QueueCommand(ctx, r, workStart, req, "nothing was deployed")
}

// help is /docs-deploy's help.
func help(implicit bool, perUser int) string {
	s := "*Deploy the docs:* `" + Command + "` asks first, then, when you press *Deploy*, deploys the docs site's deployment branch and shows how it goes in one message: " +
		"queued, in progress, then the commit and the files changed, or the end of the logs when it fails.\n" +
		"• `" + Command + " preview BRANCH` builds a preview of a branch and gives its address when it is ready.\n" +
		"• `" + Command + " status` lists the deployments and previews started from Slack lately.\n" +
		"Deploying and previews take an editor, and one person may start " + strconv.Itoa(perUser) + " an hour; anyone may ask for the status."
	if !implicit {
		s += "\nAdd `project=NAME` to choose the docs project."
	}
	return s
}
