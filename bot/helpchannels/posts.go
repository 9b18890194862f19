package helpchannels

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// Marks of a help channel's question (help.post).
const (
	markQueued = "queued" // the question is handed to the answerer
)

// modeInAck bounds the read of a channel's mode in an event's ack: past
// it the work decides.
const modeInAck = time.Second

// ownerHelp is the help channels' row of the core's table of posts
// (bot/posts.go): a top-level question nobody addressed to the bot, in a
// channel that answers unasked.
const ownerHelp = "helpchannels"

// hears reports whether a person's top-level post in a channel, addressed
// to nobody, may be a help channel's question: a question (IsQuestion) from
// someone the allow-lists let in, in a channel whose mode answers unasked
// (or whose mode cannot be read within modeInAck: the work decides). Chatter
// costs nothing: no Redis command is sent for a post that is no question.
func (f *Feature) hears(ctx context.Context, p bot.Post) bool {
	if p.DM || p.Mention || p.InThread() || !IsQuestion(p.Text) || f.refusal(p.User, p.Channel) != "" {
		return false
	}
	mctx, cancel := context.WithTimeout(ctx, modeInAck)
	m, err := f.current(mctx, p.Channel)
	cancel()
	return err != nil || unasked(m.Mode)
}

// doOwned hands a help channel's question claimed to the answerer (doAsk).
func (f *Feature) doOwned(ctx context.Context, w *bot.Work, p bot.Post) error {
	return f.doQuestion(ctx, w, bot.Question{Team: p.Team, Channel: p.Channel, User: p.User, TS: p.TS, Text: p.Text, Files: p.Attached})
}

// unasked reports whether a channel in mode answers questions unasked.
func unasked(mode string) bool { return mode == bot.ModeAuto || mode == bot.ModePrivate }

// doPost hands a question recorded by earlier versions as help.post work
// to the answerer (doQuestion).
func (f *Feature) doPost(ctx context.Context, w *bot.Work) error {
	var q bot.Question
	if err := json.Unmarshal(w.Payload, &q); err != nil {
		return fmt.Errorf("decoding a help channel's question: %w", err)
	}
	return f.doQuestion(ctx, w, q)
}

// doQuestion hands a help channel's question to the answerer, by the table
// in the package's doc.
func (f *Feature) doQuestion(ctx context.Context, w *bot.Work, q bot.Question) error {
	if w.Marked(markQueued) != "" {
		return nil
	}
	log := f.log.With("user", q.User, "channel", q.Channel, "work", w.Key)
	m, err := f.current(ctx, q.Channel)
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if !unasked(m.Mode) {
		return nil
	}
	answered, err := f.answeredByPerson(ctx, q)
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if answered {
		log.Info("a person answered the question already; docsbot stays out")
		return nil
	}
	// The asker's share of questions first (the answers' own draw, named by
	// the answer's work: they take it again without taking), then the
	// channel's; a refusal of the channel's gives the asker's back.
	who := f.spender(ctx, q.Team, q.User)
	limits := f.core.QuestionLimitsIn(ctx, f.cfg.Questions) // the shares set in Slack, if any
	t := take{person: limits.QuestionDraw(who, askKey(w)), channel: f.throttle(q.Channel, "q:"+w.Key)}
	out, err := f.draw(ctx, &t)
	switch {
	case err != nil:
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	case !out.ok && out.byPerson:
		log.Info("the asker's share of questions is spent; the channel's is not touched", "retry_after", out.refused.RetryAfter)
		f.tellAsker(ctx, q, limits.Refusal(who, out.refused, f.cfg.Now()), log)
		return nil
	case !out.ok:
		log.Info("the channel had as many unasked answers as an hour allows; 👀 only", "retry_after", out.refused.RetryAfter)
		f.react(ctx, q.Channel, q.TS, "eyes", log)
		return nil
	}
	q.Via = m.Mode
	return f.handOver(ctx, w, q, log)
}

// tellAsker tells the asker of q privately, in its thread.
func (f *Feature) tellAsker(ctx context.Context, q bot.Question, text string, log *slog.Logger) {
	thread := q.ThreadTS
	if thread == "" {
		thread = q.TS
	}
	if err := f.tellPrivately(ctx, bot.Private{User: q.User, Channel: q.Channel, ThreadTS: thread, Text: text}); err != nil {
		log.Warn("telling the asker privately failed", "err", err)
	}
}

// askKey is the key of the answer's work (bot.WorkAsk) that w hands a
// question to.
func askKey(w *bot.Work) string { return "ask:" + w.Key }

// handOver hands q to the answerer once (markQueued): its bot.WorkAsk is
// keyed by w (askKey), so a second attempt queues nothing twice.
func (f *Feature) handOver(ctx context.Context, w *bot.Work, q bot.Question, log *slog.Logger) error {
	payload, _ := json.Marshal(q)
	_, err := w.Step(ctx, markQueued, func(ctx context.Context) (string, error) {
		return "", f.queueWork(ctx, store.Work{Key: askKey(w), Kind: bot.WorkAsk, Payload: payload})
	})
	switch {
	case errors.Is(err, bot.ErrUnmarked):
		log.Warn("marking the question handed over failed; it is handed over once all the same (the answer's work is keyed by this one)", "err", err)
	case err != nil:
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	return nil
}

// answeredByPerson reports whether someone other than the asker, not a
// bot, replied in the question's thread already.
func (f *Feature) answeredByPerson(ctx context.Context, q bot.Question) (bool, error) {
	msgs, err := f.replies(ctx, q.Channel, q.TS, 50, false)
	if err != nil {
		if bot.TransientSlack(err) {
			return false, err
		}
		return false, nil // no thread to read (thread_not_found): nobody answered
	}
	return answeredBy(msgs, q.TS, q.User), nil
}

// answeredBy reports whether msgs, a thread under ts, hold a reply of a
// person other than asker.
func answeredBy(msgs []slack.Message, ts, asker string) bool {
	for _, m := range msgs {
		if m.Timestamp != ts && m.User != "" && m.User != asker && m.BotID == "" && (m.SubType == "" || m.SubType == "thread_broadcast") {
			return true
		}
	}
	return false
}
