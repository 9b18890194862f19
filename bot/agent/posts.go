package agent

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/store"
)

// A person's post that docsbot acts on: a reply in a thread (a follow-up
// when the thread is a job's), a top-level message in a DM with the bot, or
// a message that mentions the bot. Slack delivers a mention twice, as an
// app_mention event and as a message event (the app also subscribes to
// messages), with different event ids; both become the same piece of work,
// keyed by the message (team, channel, ts) rather than by the event, so
// whichever arrives first records it and the other is dropped as a
// redelivery. The work (agent.reply, doReply) decides what the post is once
// it knows whether its thread is a job's: a follow-up, a new job, a list.

// replyRequest is what a person's post carries through the inbox.
type replyRequest struct {
	Team     string `json:"team"`
	Channel  string `json:"channel"`
	User     string `json:"user"`
	TS       string `json:"ts"`
	ThreadTS string `json:"thread_ts"`
	// Text is the post as the person typed it, without the bot's mention.
	Text string `json:"text"`
	// Mention is set when the post mentions the bot; DM when it is in a
	// direct message with the bot.
	Mention bool `json:"mention,omitempty"`
	DM      bool `json:"dm,omitempty"`
	// FromModal marks a follow-up typed in the follow-up modal: there is no
	// message of the person's in the thread (TS is ""), so the bot shows
	// the instruction there once it is sent.
	FromModal bool `json:"modal,omitempty"`
	// Files marks a post with files attached (subtype file_share): only
	// its text goes on, and the person is told the files do not.
	Files bool `json:"files,omitempty"`
	// Project is the docs project a post in the assistant pane's thread
	// goes to (bot.AssistantTake.Project: the default of the channel the
	// person looks at), "" to decide as for any post. Set by doReply from
	// the pane's keeper, never recorded with the work.
	Project string `json:"-"`
}

// inThread reports whether the post is a reply in a thread.
func (r replyRequest) inThread() bool { return r.ThreadTS != "" && r.ThreadTS != r.TS }

// onMessage handles message events: a person's thread reply, top-level DM
// or mention is recorded in the inbox and then acknowledged; one with files
// attached (file_share) too, its text going on without the files. Everything
// else (the bot's own and other bots' messages, edits, joins) is
// acknowledged and ignored, but for people's top-level posts in channels,
// addressed to nobody, which go to the help channels (bot.HelpChannels.Hear). If Redis cannot record
// the post, the envelope is not acknowledged: Slack sends it again (see
// acceptPost for its last try).
func (a *agent) onMessage(ctx context.Context, req *bot.EventRequest) {
	ev, ok := req.Event.InnerEvent.Data.(*slackevents.MessageEvent)
	if !ok || !personsPost(ev.SubType) || a.core.Self().OwnOrBot(ev) {
		req.Ack(nil)
		return
	}
	p := a.post(req.Event.TeamID, ev.Channel, ev.User, ev.TimeStamp, ev.ThreadTimeStamp, ev.Text)
	p.DM = ev.ChannelType == "im"
	p.Files = ev.SubType == subtypeFileShare
	if !(p.inThread() || p.DM || p.Mention) {
		// Addressed to nobody: a help channel's (bot.HelpChannels.Hear).
		a.core.HelpChannels().Hear(ctx, req, ev)
		return
	}
	if p.Text == "" && !p.Mention && !p.Files {
		req.Ack(nil)
		return
	}
	a.acceptPost(ctx, req, p)
}

// subtypeFileShare is the subtype of a person's message with files attached.
const subtypeFileShare = "file_share"

// personsPost reports whether a message event of the subtype is a person's
// new post: a plain message, a thread reply also sent to the channel, or a
// message with files.
func personsPost(subtype string) bool {
	return subtype == "" || subtype == "thread_broadcast" || subtype == subtypeFileShare
}

// onMention handles app_mention events, the same way as the message event
// Slack sends for the same post.
func (a *agent) onMention(ctx context.Context, req *bot.EventRequest) {
	ev, ok := req.Event.InnerEvent.Data.(*slackevents.AppMentionEvent)
	if !ok || a.core.Self().OwnOrBot(&slackevents.MessageEvent{User: ev.User, BotID: ev.BotID}) {
		req.Ack(nil)
		return
	}
	a.acceptPost(ctx, req, a.post(req.Event.TeamID, ev.Channel, ev.User, ev.TimeStamp, ev.ThreadTimeStamp, ev.Text))
}

// post reads a person's message as the agent gets it: Slack's escaping and
// markup undone, the bot's mention taken out.
func (a *agent) post(team, channel, user, ts, threadTS, text string) replyRequest {
	tag := "<@" + a.core.Self().UserID + ">"
	mention := a.core.Self().UserID != "" && strings.Contains(text, tag)
	text = strings.TrimSpace(mrkdwn.Plain(strings.ReplaceAll(text, tag, "")))
	return replyRequest{Team: team, Channel: channel, User: user, TS: ts, ThreadTS: threadTS, Text: text, Mention: mention}
}

// acceptPost records a post as agent.reply work keyed by the message, then
// acknowledges the event; if Redis cannot take it, the event is left
// unacknowledged for Slack to send again. On Slack's last try there is no
// again: the person is told privately that the post was not taken, when it
// was addressed to the bot (a mention, a DM, a reply in a thread of the
// bot's).
func (a *agent) acceptPost(ctx context.Context, req *bot.EventRequest, p replyRequest) {
	payload, _ := json.Marshal(p)
	key := "msg:" + p.Team + ":" + p.Channel + ":" + p.TS
	if !a.core.AcceptEnvelope(ctx, store.Work{Key: key, Kind: workReply, Payload: payload}, bot.RedeliveredEvent) {
		if !req.LastDelivery {
			return // not acknowledged: Slack delivers it again
		}
		log := a.log.With("user", p.User, "channel", p.Channel, "thread", p.ThreadTS, "work", key)
		log.Warn("post not recorded on Slack's last try; not taken")
		if p.Mention || p.DM || a.botThread(ctx, p, log) {
			a.tellInThread(ctx, p, "docsbot could not take this message: it cannot reach its storage right now, and Slack will not send it again. Send it again in a minute.", log)
		}
		req.Ack(nil)
		return
	}
	req.Ack(nil)
}

// botThread reports whether the thread a post is in may be the bot's (a
// job's), reading its first message from Slack. A thread that cannot be
// read for a passing reason (bot.TransientSlack: Slack's own trouble, a
// rate limit, the network) counts as the bot's, so that a post that may be
// addressed to it is not dropped without a word; one Slack refuses to show
// for good (channel_not_found, not_in_channel, missing_scope) is not the
// bot's to answer.
func (a *agent) botThread(ctx context.Context, p replyRequest, log *slog.Logger) bool {
	if !p.inThread() {
		return false
	}
	msgs, _, _, err := a.slack.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
		ChannelID: p.Channel, Timestamp: p.ThreadTS, Limit: 1,
	})
	if err != nil {
		if !bot.TransientSlack(err) {
			log.Warn("Slack refuses to show the thread's first message; not answering as in a thread of the bot's", "err", err)
			return false
		}
		log.Warn("could not read the thread's first message; answering as in a thread of the bot's", "err", err)
		return true
	}
	if len(msgs) == 0 {
		return false
	}
	self := a.core.Self()
	return msgs[0].User == self.UserID || (self.BotID != "" && msgs[0].BotID == self.BotID)
}
