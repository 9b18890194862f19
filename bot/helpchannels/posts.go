package helpchannels

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// Marks of a help channel's question (help.post).
const (
	markQueued = "queued" // the question is handed to the answerer
)

// modeInAck bounds the read of a channel's mode in an event's ack: past
// it the work decides.
const modeInAck = time.Second

// onPost hears a person's top-level post in a channel that nobody
// addressed to the bot: a question (IsQuestion) in a channel that answers
// unasked becomes help.post work keyed by the message; anything else is
// acked and costs nothing. When Redis cannot take the work, the event is
// left unacked for Slack to send again; on its last try the question is
// dropped, logged (nobody asked docsbot, so nobody waits for it).
func (f *Feature) onPost(ctx context.Context, req *bot.EventRequest) {
	ev, ok := req.Event.InnerEvent.Data.(*slackevents.MessageEvent)
	if !ok || (ev.SubType != "" && ev.SubType != "file_share") || ev.User == "" || ev.ThreadTimeStamp != "" || f.isOwnOrBot(ev) {
		req.Ack(nil)
		return
	}
	text := strings.TrimSpace(mrkdwn.Plain(ev.Text))
	if !IsQuestion(text) || f.refusal(ev.User, ev.Channel) != "" {
		req.Ack(nil)
		return
	}
	mctx, cancel := context.WithTimeout(ctx, modeInAck)
	m, err := f.current(mctx, ev.Channel)
	cancel()
	if err == nil && !unasked(m.Mode) {
		req.Ack(nil)
		return
	}
	team := req.Event.TeamID
	payload, _ := json.Marshal(bot.Question{Team: team, Channel: ev.Channel, User: ev.User, TS: ev.TimeStamp, Text: text})
	key := "help:" + team + ":" + ev.Channel + ":" + ev.TimeStamp
	if !f.accept(ctx, store.Work{Key: key, Kind: workPost, Payload: payload}) {
		if !req.LastDelivery {
			return // not acknowledged: Slack delivers it again
		}
		f.log.Warn("a help channel's question was not recorded on Slack's last try; not answered", "channel", ev.Channel, "work", key)
	}
	req.Ack(nil)
}

// unasked reports whether a channel in mode answers questions unasked.
func unasked(mode string) bool { return mode == bot.ModeAuto || mode == bot.ModePrivate }

// doPost hands a help channel's question to the answerer, by the table in
// the package's doc.
func (f *Feature) doPost(ctx context.Context, w *bot.Work) error {
	var q bot.Question
	if err := json.Unmarshal(w.Payload, &q); err != nil {
		return fmt.Errorf("decoding a help channel's question: %w", err)
	}
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
	grant, err := f.store.Limits.Draw(ctx, f.throttle(q.Channel, "q:"+w.Key), 1)
	if err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if !grant.OK() {
		log.Info("the channel had as many unasked answers as an hour allows; 👀 only", "retry_after", grant.RetryAfter)
		f.react(ctx, q.Channel, q.TS, "eyes", log)
		return nil
	}
	q.Via = m.Mode
	payload, _ := json.Marshal(q)
	if err := f.queueWork(ctx, store.Work{Key: "ask:" + w.Key, Kind: bot.WorkAsk, Payload: payload}); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if err := w.Mark(ctx, map[string]string{markQueued: "1"}); err != nil {
		log.Warn("marking the question handed over failed; it is handed over once all the same (the answer's work is keyed by this one)", "err", err)
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
