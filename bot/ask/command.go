package ask

import (
	"context"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
)

// onCommand answers /docs-ask in the ack when it needs no I/O (help, a
// refusal, a project=NAME that names no project) and otherwise records the
// question in the inbox and acks.
func (a *answers) onCommand(ctx context.Context, r *bot.CommandRequest) {
	cmd := r.Command
	text := strings.TrimSpace(mrkdwn.Plain(cmd.Text))
	if refusal := a.core.Refusal(cmd.UserID, cmd.ChannelID); refusal != "" {
		a.core.RefuseCommand(ctx, r, refusal, "")
		return
	}
	named := ""
	if !a.core.ProjectsIn(ctx).Implicit() {
		name, rest, ok, err := project.CutToken(text)
		if err != nil {
			r.Ack(bot.Ephemeral(project.Problem(err, a.core.ProjectsIn(ctx), "question")))
			return
		}
		if ok {
			named, text = name, rest
		}
	}
	if text == "" || strings.EqualFold(text, "help") {
		r.Ack(bot.Ephemeral(help(a.core.ProjectsIn(ctx).Implicit())))
		return
	}
	a.core.QueueCommand(ctx, r, bot.WorkAsk, bot.Question{Team: cmd.TeamID, Channel: cmd.ChannelID, User: cmd.UserID, Text: text,
		Via: bot.ViaAskCommand, Project: named, ResponseURL: cmd.ResponseURL}, "your question was not taken")
}

// help is /docs-ask's help, with the rule of which mentions are questions.
func help(implicit bool) string {
	s := "*Ask the docs:* `" + Command + " how do I rotate an API key?` answers from the docs, with its sources, " +
		"in a thread under your question. Reply in that thread to ask more (in a channel, others mention docsbot there to ask theirs).\n" +
		"You can also mention docsbot or write to it directly: from someone who may not start docs jobs, " +
		"every message is a question; from an editor, a message that starts with `ask` or ends with `?` is a question " +
		"and anything else starts a docs job.\n" +
		"`" + Command + " here` says how docsbot answers in this channel (editors set it: `auto` answers questions without a mention)."
	if !implicit {
		s += "\nAdd `project=NAME` to ask the docs of one project."
	}
	return s
}
