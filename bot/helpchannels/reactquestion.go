package helpchannels

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
)

// A :question: on a message (the allow-lists checked in the ack,
// onReaction) is decided before anything is posted:
//
//	check                        past it
//	the channel's mode           off: the person who reacted is told privately, nothing else
//	once per message (30 days)   asked about already: nothing (store.Limits.Once, not the
//	                             inbox's hour that drops a redelivered event)
//	the person's share           spent: told privately, the message's once forgotten (someone
//	                             else may ask about it); the share is the answers' draw,
//	                             named by the answer's work (bot.QuestionLimits.QuestionDraw)
//	then                         the line saying who asked, and the question handed over

// Marks of a :question:'s work.
const markOnce = "once" // the message's once taken by this work

// questionOnce is how long a message asked about with :question: is not
// asked about again.
const questionOnce = 30 * 24 * time.Hour

// offReaction tells a person whose :question: is in a channel whose mode
// is off.
const offReaction = "docsbot does not answer questions in this channel, so :question: does not ask it anything here. " +
	"Ask it in a direct message, or in a channel where it answers (`" + askCommand + " here` says how a channel is answered)."

// errAskedBefore ends a :question: on a message asked about already.
var errAskedBefore = errors.New("helpchannels: the message was asked about already")

// askAbout asks the docs about the message m (text) for the person who
// reacted with :question:, by the table above.
func (f *Feature) askAbout(ctx context.Context, w *bot.Work, rr reactRequest, m slack.Message, text string, log *slog.Logger) error {
	thread := threadOf(m)
	p := bot.Private{User: rr.User, Channel: rr.Channel, ThreadTS: thread}
	mode, err := f.mode(ctx, rr.Channel)
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if mode == bot.ModeOff {
		log.Info(":question: in a channel whose mode is off; nothing asked")
		p.Text = offReaction
		if err := f.tellPrivately(ctx, p); err != nil {
			log.Warn("telling the person privately failed", "err", err)
		}
		return nil
	}
	once := "help-question:" + rr.Team + ":" + rr.Channel + ":" + m.Timestamp
	_, err = w.Step(ctx, markOnce, func(ctx context.Context) (string, error) {
		first, err := f.store.Limits.Once(ctx, once, questionOnce)
		if err == nil && !first {
			err = errAskedBefore
		}
		return "", err
	})
	switch {
	case errors.Is(err, errAskedBefore):
		log.Info("the message was asked about with :question: already; nothing asked")
		return nil
	case errors.Is(err, bot.ErrUnmarked):
		log.Warn("marking the message's once taken failed; this attempt goes on", "err", err)
	case err != nil:
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	who := f.spender(ctx, rr.Team, rr.User)
	limits := f.core.QuestionLimitsIn(ctx, f.cfg.Questions) // the shares set in Slack, if any
	g, err := f.store.Limits.Draw(ctx, limits.QuestionDraw(who, askKey(w)), 1)
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if !g.OK() {
		log.Info("the person's share of questions is spent; nothing asked", "retry_after", g.RetryAfter)
		if err := f.store.Limits.ForgetOnce(context.WithoutCancel(ctx), once); err != nil {
			log.Warn("forgetting the message's once failed: nobody may ask about it with :question: for a while", "err", err)
		}
		p.Text = limits.Refusal(who, g, f.cfg.Now())
		if err := f.tellPrivately(ctx, p); err != nil {
			log.Warn("telling the person privately failed", "err", err)
		}
		return nil
	}
	if _, err := w.Step(ctx, markAttributed, func(ctx context.Context) (string, error) {
		_, err := f.post(ctx, rr.Channel, slack.MsgOptionTS(thread),
			slack.MsgOptionText(mrkdwn.Mention(rr.User)+" asked the docs about this message with :question:", false))
		return "", err
	}); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	q := bot.Question{Team: rr.Team, Channel: rr.Channel, User: rr.User, TS: m.Timestamp, Text: text, Via: bot.ViaReaction}
	if m.ThreadTimestamp != m.Timestamp {
		q.ThreadTS = m.ThreadTimestamp
	}
	return f.handOver(ctx, w, q, log)
}
