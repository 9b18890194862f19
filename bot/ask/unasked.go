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

// notCovered tells the asker of an unasked question that the docs do not
// cover it.
const notCovered = "docsbot looked in the docs for your question and found nothing that answers it, so it did not answer in the channel."

// unasked ends the work of an unasked question by the table above.
func (a *answers) unasked(ctx context.Context, w *bot.Work, r reply, log *slog.Logger) error {
	q, thread, key, wr := r.q, r.thread, r.key, r.wr
	sources := r.stream.Sources()
	ref := bot.ThreadRef{Channel: q.Channel, TS: thread.TS, Project: key}.String()
	covered := r.outcome == "answered" && len(sourceKeys(sources)) > 0 && strings.TrimSpace(r.text) != ""
	if !covered && !q.Asked {
		a.metrics.Answer("uncovered")
		log.Info("the docs do not cover an unasked question; its asker is told privately", "outcome", r.outcome)
		var buttons []slack.BlockElement
		if a.hasExperts(key) {
			buttons = append(buttons, expertButton(ref))
		}
		if refusal, _ := a.core.Editors().Check(ctx, q.User, q.Channel, key); refusal == "" {
			j := jobdraft.Draft{Channel: q.Channel, Thread: thread.TS, Project: key, Question: r.question}
			buttons = append(buttons, slack.NewButtonBlockElement(jobdraft.ActionJobFromAnswer, j.Value(),
				slack.NewTextBlockObject(slack.PlainTextType, "Make this a docs job", false, false)))
		}
		blocks := []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, notCovered, false, false), nil, nil)}
		if len(buttons) > 0 {
			blocks = append(blocks, slack.NewActionBlock("uncovered", buttons...))
		}
		a.tellWith(ctx, bot.Question{Team: q.Team, Channel: q.Channel, User: q.User, ThreadTS: thread.TS}, notCovered, blocks, log)
		return a.done(ctx, w)
	}
	turn := a.remember(ctx, r, log)
	blocks := answerBlocks(wr.sites, sources, r.suggestions, "", turn)
	if q.Via == bot.ViaAuto {
		if a.hasExperts(key) {
			blocks = append(blocks, slack.NewActionBlock("expert", expertButton(ref)))
		}
		if err := wr.finish(ctx, r.note, blocks); err != nil {
			log.Warn("posting the answer failed", "err", err)
			if wr.ts == "" {
				return bot.Later(bot.RetryDelay(w.Attempt), err)
			}
		}
		a.metrics.Answer(r.outcome)
		return a.done(ctx, w)
	}
	// Private: the answer whole, its sources, Share in channel.
	text := mrkdwn.FromMarkdown(wr.showable(true), wr.sites)
	if r.note != "" {
		text += "\n\n" + mrkdwn.FromMarkdown(r.note, mrkdwn.Sites{})
	}
	shown := []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, mrkdwn.Cut(text, 3000), false, false), nil, nil)}
	if links := sourceLinks(wr.sites, sources); links != "" {
		shown = append(shown, slack.NewContextBlock("sources", slack.NewTextBlockObject(slack.MarkdownType, "*Sources:* "+links, false, false)))
	}
	var buttons []slack.BlockElement
	if turn > 0 { // kept: Share in channel posts this answer, its turn in the asker's conversation
		share := bot.ShareRef{ThreadRef: bot.ThreadRef{Channel: q.Channel, TS: thread.TS, Project: key}, Asker: q.User, Turn: turn}
		buttons = append(buttons, slack.NewButtonBlockElement(bot.ActionShareAnswer, share.String(),
			slack.NewTextBlockObject(slack.PlainTextType, "Share in channel", false, false)).WithStyle(slack.StylePrimary))
	}
	if a.hasExperts(key) {
		buttons = append(buttons, expertButton(ref))
	}
	if len(buttons) > 0 {
		shown = append(shown, slack.NewActionBlock("share", buttons...))
	}
	p := bot.Private{User: q.User, Channel: q.Channel, ThreadTS: thread.TS, ResponseURL: q.ResponseURL, Text: mrkdwn.Cut(text, 3000), Blocks: shown,
		DMText: "Your question in <#" + q.Channel + ">: " + mrkdwn.Cut(text, 2800)}
	if err := a.core.TellPrivately(ctx, p); err != nil {
		log.Warn("showing the private answer failed", "err", err)
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	a.metrics.Answer(r.outcome)
	return a.done(ctx, w)
}

// expertButton is Ask an expert about the question of thread ref.
func expertButton(ref string) *slack.ButtonBlockElement {
	return slack.NewButtonBlockElement(bot.ActionAskExpert, ref, slack.NewTextBlockObject(slack.PlainTextType, "Ask an expert", false, false))
}
