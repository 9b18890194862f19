package helpchannels

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// Reactions: :question: on a message in a channel docsbot is in asks the
// docs about it, whoever reacts (their question, their share), once per
// message for 30 days, unless the channel's mode is off: the answer in its
// thread under a line saying who asked, posted only once every check passed
// (reactquestion.go); :memo: by an editor shows them, privately, Start a docs job
// (jobdraft.ActionJobFromMessage), since a reaction carries no trigger to open
// the form: its draft carries the message, or, for a message in a thread
// with replies, the whole thread (jobdraft.Draft.Lines), read when the
// reaction's work runs, so the form opens within its trigger's seconds
// without reading Slack.

// The reactions docsbot acts on.
const (
	reactionQuestion = "question"
	reactionMemo     = "memo"
	reactionResolved = "white_check_mark" // ✅: outcomes.go
)

// workReact is a reaction's work.
const workReact = "help.react"

// markAttributed marks the line saying who asked posted.
const markAttributed = "attributed"

// reactRequest is what a reaction carries through the inbox.
type reactRequest struct {
	Team     string `json:"team"`
	Channel  string `json:"channel"`
	TS       string `json:"ts"`
	User     string `json:"user"`
	Reaction string `json:"reaction"`
}

// onReaction records a :question: or :memo: on a message as work, then
// acks; any other reaction is acked and costs nothing.
func (f *Feature) onReaction(ctx context.Context, req *bot.EventRequest) {
	ev, ok := req.Event.InnerEvent.Data.(*slackevents.ReactionAddedEvent)
	if ok && ev.Reaction == reactionResolved && ev.Item.Type == "message" && ev.User != "" {
		f.onResolvedReaction(ctx, req, ev)
		return
	}
	if !ok || ev.Item.Type != "message" || ev.User == "" || ev.User == f.self(ctx) ||
		(ev.Reaction != reactionQuestion && ev.Reaction != reactionMemo) || f.refusal(ev.User, ev.Item.Channel) != "" {
		req.Ack(nil)
		return
	}
	team := req.Event.TeamID
	// Each person's reaction is work of its own (each editor's own button;
	// a :question: refused for one person's share may be another's): a
	// message is asked about once by the once of askAbout, which lasts
	// longer than the inbox's memory of a key.
	key := "react:" + team + ":" + ev.Item.Channel + ":" + ev.Item.Timestamp + ":" + ev.Reaction + ":" + ev.User
	payload, _ := json.Marshal(reactRequest{Team: team, Channel: ev.Item.Channel, TS: ev.Item.Timestamp, User: ev.User, Reaction: ev.Reaction})
	if !f.accept(ctx, store.Work{Key: key, Kind: workReact, Payload: payload}) {
		if !req.LastDelivery {
			return // not acknowledged: Slack delivers it again
		}
		f.log.Warn("a reaction was not recorded on Slack's last try", "channel", ev.Item.Channel, "work", key)
	}
	req.Ack(nil)
}

// doReact asks the docs about the message (:question:) or shows an editor
// Start a docs job (:memo:).
func (f *Feature) doReact(ctx context.Context, w *bot.Work) error {
	var rr reactRequest
	if err := json.Unmarshal(w.Payload, &rr); err != nil {
		return fmt.Errorf("decoding a reaction: %w", err)
	}
	log := f.log.With("user", rr.User, "channel", rr.Channel, "reaction", rr.Reaction, "work", w.Key)
	if w.Marked(markQueued) != "" {
		return nil
	}
	if rr.Reaction == reactionMemo {
		if refusal, _ := f.editorCheck(ctx, rr.User, rr.Channel, ""); refusal != "" {
			return nil // anyone may use 📝; only an editor's starts anything
		}
	}
	m, found, err := f.message(ctx, rr.Channel, rr.TS)
	switch {
	case err != nil && bot.TransientSlack(err):
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	case err != nil || !found:
		log.Info("the message reacted to cannot be read", "err", err)
		return nil
	}
	text := strings.TrimSpace(mrkdwn.Plain(m.Text))
	if text == "" {
		return nil
	}
	if rr.Reaction == reactionMemo {
		return f.offerJob(ctx, w, rr, m, text, log)
	}
	return f.askAbout(ctx, w, rr, m, text, log)
}

// threadOf is the thread a message is in, or starts.
func threadOf(m slack.Message) string {
	if m.ThreadTimestamp != "" {
		return m.ThreadTimestamp
	}
	return m.Timestamp
}

// offerJob shows the editor of a :memo: Start a docs job, privately, with
// the message m (text) or its whole thread.
func (f *Feature) offerJob(ctx context.Context, w *bot.Work, rr reactRequest, m slack.Message, text string, log *slog.Logger) error {
	thread := threadOf(m)
	p := bot.Private{User: rr.User, Channel: rr.Channel, ThreadTS: thread}
	j := jobdraft.Draft{Channel: rr.Channel, Thread: thread, Message: text, By: m.User}
	p.Text = "Make this message a docs job: the agent gets it, quoted, and its pull request comes back in this thread."
	if m.ThreadTimestamp != "" { // a thread's parent or a reply: the thread goes
		msgs, err := f.wholeThread(ctx, rr.Channel, thread)
		switch {
		case err != nil && bot.TransientSlack(err):
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		case err != nil:
			log.Info("the thread of the message reacted to cannot be read; the message goes alone", "err", err)
		default:
			if lines := f.draftLines(ctx, msgs); len(lines) > 1 {
				j.Message, j.Lines = "", lines
				p.Text = "Make this thread a docs job: the agent gets its messages, quoted, and its pull request comes back in this thread."
			}
		}
	}
	p.Blocks = []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, p.Text, false, false), nil, nil),
		slack.NewActionBlock("job", slack.NewButtonBlockElement(jobdraft.ActionJobFromMessage, j.Value(),
			slack.NewTextBlockObject(slack.PlainTextType, "Start a docs job", false, false)).WithStyle(slack.StylePrimary))}
	_, err := w.Step(ctx, markQueued, func(ctx context.Context) (string, error) { return "", f.tellPrivately(ctx, p) })
	if err != nil && !errors.Is(err, bot.ErrUnmarked) {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	return err
}

// draftLines are a thread's messages as a job's draft carries them
// (jobdraft.Draft.Lines), oldest first: each one's text as typed and its
// writer, a person, a bot by name, or docsbot itself; messages without
// text (a file alone) are left out.
func (f *Feature) draftLines(ctx context.Context, msgs []slack.Message) []jobdraft.Line {
	self := f.core.Self(ctx)
	var out []jobdraft.Line
	for _, m := range msgs {
		text := strings.TrimSpace(mrkdwn.Plain(m.Text))
		if text == "" {
			continue
		}
		l := jobdraft.Line{Text: text}
		switch {
		case m.User != "" && m.User == self.UserID || self.BotID != "" && m.BotID == self.BotID:
			l.Own = true
		case m.BotID != "" || m.SubType == "bot_message" || m.User == "":
			l.Bot = m.Username
			if m.BotProfile != nil {
				l.Bot = cmp.Or(l.Bot, m.BotProfile.Name)
			}
			l.Bot = cmp.Or(l.Bot, "a bot")
		default:
			l.User = m.User
		}
		out = append(out, l)
	}
	return out
}

// message reads the message of ts in channel: a top-level one, or a reply
// (conversations.replies names its thread).
func (f *Feature) message(ctx context.Context, channel, ts string) (slack.Message, bool, error) {
	msgs, err := f.replies(ctx, channel, ts, 200, false)
	if err != nil {
		return slack.Message{}, false, err
	}
	for _, m := range msgs {
		if m.Timestamp == ts {
			return m, true, nil
		}
	}
	return slack.Message{}, false, nil
}
