package ask

import (
	"context"
	"errors"
	"log/slog"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
)

// errStopped is why relay stopped reading an answer: the person pressed
// Stop in the pane, and Slack halted the answer's stream.
var errStopped = errors.New("ask: the answer's stream was stopped in Slack")

// haltedByStop reports Slack's answer to a call on a stream it halted
// (the person's Stop): the stream takes no more text.
func haltedByStop(err error) bool {
	return bot.SlackCode(err) == "message_not_in_streaming_state"
}

// stopped ends an answer whose stream the person stopped: the assistant is
// read no further, what showed is kept as the conversation's answer, and a
// note under it says it was stopped, with Ask again. The work is done.
func (a *answers) stopped(ctx context.Context, w *bot.Work, r reply, log *slog.Logger) error {
	q, thread, key := r.q, r.thread, r.key
	log.Info("the answer was stopped in Slack")
	a.metrics.Answer("stopped")
	if r.text != "" {
		a.remember(ctx, r, log)
	}
	note := "_Stopped: you pressed Stop, so docsbot stopped this answer here._"
	_, err := a.core.Post(ctx, q.Channel, bot.Plain{slack.MsgOptionTS(thread.TS), slack.MsgOptionText(note, false),
		slack.MsgOptionBlocks(slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, note, false, false), nil, nil),
			slack.NewActionBlock("again", askAgainButton(againOf(q.Text, key))))})
	if err != nil {
		log.Warn("saying the answer was stopped failed", "err", err)
	}
	return a.done(ctx, w)
}
