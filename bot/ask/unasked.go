package ask

import (
	"context"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// Questions of help channels (bot.Question.Unasked): a question nobody
// asked docsbot is answered only when its answer cites the docs. The
// answer is read whole (nothing shows while it comes), then:
//
//	the answer                  auto (bot.ViaAuto)          private (bot.ViaPrivate)
//	complete, with sources      posted in the thread, with  shown to the asker alone in the
//	                            Ask an expert (experts set)  thread, with Share in channel
//	                                                        and Ask an expert
//	no sources, or incomplete   the asker is told privately that the docs do not
//	                            cover it, with Ask an expert (experts set) and, for an
//	                            editor, Make this a docs job; nothing is posted
//
// A question asked of docsbot in a private channel (Question.Asked: a
// mention, a reply, a :question: reaction; any of them where the channel's
// mode cannot be read) is shown to its asker alone, sources or not. Each
// asker's questions in a thread there are a conversation of their own
// (conversationOf), and Share in channel names the answer it shares: its
// asker and its turn in their conversation (bot.ShareRef).

// offHere tells a person who asks in a channel whose mode is off.
const offHere = "docsbot does not answer questions in this channel. Ask it in a direct message, " +
	"or in a channel where it answers (`" + Command + " here` says how a channel is answered)."

// unasked ends the work of an unasked question by the table above.
func (a *answers) unasked(ctx context.Context, w *bot.Work, r reply, log *slog.Logger) error {
	q, thread, key, wr := r.q, r.thread, r.key, r.wr
	sources := r.stream.Sources()
	ref := bot.ThreadRef{Channel: q.Channel, TS: thread.TS, Project: key}
	covered := r.outcome == "answered" && len(sourceKeys(sources)) > 0 && strings.TrimSpace(r.text) != ""
	if !covered && !q.Asked {
		a.metrics.Answer("uncovered")
		log.Info("the docs do not cover an unasked question; its asker is told privately", "outcome", r.outcome)
		var buttons []bot.Pressed
		if a.hasExperts(ctx, key) {
			buttons = append(buttons, bot.Pressed{Button: bot.ExpertButton(bot.ExpertRef{ShareRef: bot.ShareRef{ThreadRef: ref}})})
		}
		if refusal, _ := a.core.Editors().Check(ctx, q.User, q.Channel, key); refusal == "" {
			j := jobdraft.Draft{Channel: q.Channel, Thread: thread.TS, Project: key, Question: r.question}
			buttons = append(buttons, bot.Pressed{Button: slack.NewButtonBlockElement(jobdraft.ActionJobFromAnswer, j.Value(),
				slack.NewTextBlockObject(slack.PlainTextType, "Make this a docs job", false, false))})
		}
		a.answeredOutcome(ctx, r, "", log) // before its buttons show (show)
		a.tellWith(ctx, bot.Question{Team: q.Team, Channel: q.Channel, User: q.User, ThreadTS: thread.TS}, bot.NotCovered, bot.UncoveredNote(buttons...), log)
		return a.done(ctx, w)
	}
	turn := a.remember(ctx, r, log)
	blocks := answerBlocks(wr.sites, sources, r.suggestions, "", turn)
	if q.Via == bot.ViaAuto {
		if a.hasExperts(ctx, key) {
			blocks = append(blocks, slack.NewActionBlock("expert", bot.ExpertButton(bot.ExpertRef{ShareRef: bot.ShareRef{ThreadRef: ref}, Sourced: true, Answer: true})))
		}
		// Recorded before its buttons show (show): a message posted whole
		// has no ts before it shows, so the record is named by the
		// question's thread first (a ✅ or a press right after it shows
		// finds it), and its answer's ts is added once known.
		recorded := wr.ts != ""
		a.answeredOutcome(ctx, r, wr.ts, log)
		if err := wr.finish(ctx, r.note, blocks); err != nil {
			log.Warn("posting the answer failed", "err", err)
			if wr.ts == "" || bot.TransientSlack(err) {
				// Nothing shows, or the message was left cut short: the
				// next attempt tells the person, or ends the message
				// saying so (afterStop).
				return a.later(ctx, w, wr, err, log)
			}
		}
		a.metrics.Answer(r.outcome)
		if !recorded {
			a.answerKnown(ctx, r, wr.ts, log)
		}
		return a.done(ctx, w)
	}
	// Private: the answer whole, its sources, Share in channel.
	text := mrkdwn.FromMarkdown(wr.showable(true), wr.sites)
	if r.note != "" {
		text += "\n\n" + mrkdwn.FromMarkdown(r.note, mrkdwn.Sites{})
	}
	var buttons []bot.Pressed
	expert := bot.ExpertRef{ShareRef: bot.ShareRef{ThreadRef: ref}, Sourced: covered, Answer: true}
	if turn > 0 { // kept: Share in channel posts this answer, its turn in the asker's conversation
		expert.Asker, expert.Turn = q.User, turn
		buttons = append(buttons, bot.Pressed{Button: bot.ShareButton(expert.ShareRef)})
	}
	if a.hasExperts(ctx, key) {
		buttons = append(buttons, bot.Pressed{Button: bot.ExpertButton(expert)})
	}
	shown := bot.PrivateAnswer(mrkdwn.Cut(text, 3000), sourceLinks(wr.sites, sources), buttons...)
	p := bot.Private{User: q.User, Channel: q.Channel, ThreadTS: thread.TS, ResponseURL: q.ResponseURL, Text: mrkdwn.Cut(text, 3000), Blocks: shown,
		DMText: "Your question in <#" + q.Channel + ">: " + mrkdwn.Cut(text, 2800)}
	a.answeredOutcome(ctx, r, "", log) // before its buttons show (show); again on a retry changes nothing
	if err := a.core.TellPrivately(ctx, p); err != nil {
		log.Warn("showing the private answer failed", "err", err)
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	a.metrics.Answer(r.outcome)
	return a.done(ctx, w)
}
