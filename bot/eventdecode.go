package bot

import (
	"encoding/json"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// decodeEventsPayload decodes an Events API payload (an events_api
// envelope's over Socket Mode, the body of a request in HTTP mode) as
// slack-go's slackevents.ParseEvent does, but reads message events lightly
// (lightMessageEvent): the fields the bot reads of a message, and not its
// blocks, attachments or rich text, which slack-go decodes whole and the bot
// never reads. Slack sends the bot a message event for each of its own
// posts and edits, and in the channels it is in, every person's and bot's
// message; decoding their blocks was a quarter of the CPU of a slash
// command and most of that of a message in a help channel (BENCHMARKS.md,
// "The command path, lighter reading" and "docsbot's own Socket Mode
// connection"). Every other event is slack-go's whole.
func decodeEventsPayload(payload []byte) (slackevents.EventsAPIEvent, error) {
	if ev, ok := lightMessageEvent(payload); ok {
		return ev, nil
	}
	return slackevents.ParseEvent(payload, slackevents.OptionNoVerifyToken())
}

// messageHead is what the bot reads of a message event: who sent it, where,
// its text and kind (onMessage, OwnOrBot, notAPersonsPost), whether it has
// files (eventFiles reads them), and of an edit (message_changed) the heads
// of the message as it is and as it was.
type messageHead struct {
	msgHead
	ChannelType      string `json:"channel_type"`
	EventTimeStamp   string `json:"event_ts"`
	UserTeam         string `json:"user_team"`
	SourceTeam       string `json:"source_team"`
	DeletedTimeStamp string `json:"deleted_ts"`
	// Files is kept raw: a message with files is given its raw inner
	// event, from which eventFiles reads them as for slack-go's.
	Files           json.RawMessage `json:"files"`
	Message         *msgHead        `json:"message"`
	PreviousMessage *msgHead        `json:"previous_message"`
}

// msgHead is the head of a message: the fields of slack.Msg the bot may
// read, without its blocks and attachments.
type msgHead struct {
	Type            string `json:"type"`
	ClientMsgID     string `json:"client_msg_id"`
	User            string `json:"user"`
	Text            string `json:"text"`
	SubType         string `json:"subtype"`
	BotID           string `json:"bot_id"`
	Username        string `json:"username"`
	Channel         string `json:"channel"`
	TimeStamp       string `json:"ts"`
	ThreadTimeStamp string `json:"thread_ts"`
	// Edited says who edited the message, and when.
	Edited *slack.Edited `json:"edited"`
}

// msg is h as slack-go's message (nil for none).
func (h *msgHead) msg() *slack.Msg {
	if h == nil {
		return nil
	}
	return &slack.Msg{Type: h.Type, ClientMsgID: h.ClientMsgID, User: h.User, Text: h.Text, SubType: h.SubType, BotID: h.BotID,
		Username: h.Username, Channel: h.Channel, Timestamp: h.TimeStamp, ThreadTimestamp: h.ThreadTimeStamp, Edited: h.Edited}
}

// callbackHead is an Events API payload read in one pass: the outer event
// whole, and of the inner event only its messageHead (json.Unmarshal reads
// the field nearest the top of the struct: Event, not the embedded
// EventsAPICallbackEvent's InnerEvent, which stays nil).
type callbackHead struct {
	slackevents.EventsAPICallbackEvent
	Event messageHead `json:"event"`
}

// lightMessageEvent is the event ParseEvent would make of payload if it is
// a message event, with only the fields of messageHead in its MessageEvent
// (Message set for an edit alone: slack-go copies any other message into
// it, which the bot never reads) and no raw inner event unless the message
// has files; ok is false for any other payload, and for one that does not
// decode. It may read a message slack-go would refuse for a field the bot
// does not read (blocks that are no blocks): Slack sends none.
func lightMessageEvent(payload []byte) (ev slackevents.EventsAPIEvent, ok bool) {
	var cb callbackHead
	if json.Unmarshal(payload, &cb) != nil {
		return ev, false
	}
	m := &cb.Event
	if cb.Type != slackevents.CallbackEvent || m.Type != string(slackevents.Message) {
		return ev, false
	}
	outer := cb.EventsAPICallbackEvent
	if len(m.Files) > 0 {
		var raw struct {
			Event json.RawMessage `json:"event"`
		}
		if json.Unmarshal(payload, &raw) != nil {
			return ev, false
		}
		outer.InnerEvent = &raw.Event
	}
	if m.Message == nil && m.SubType == "message_changed" {
		m.Message = &m.msgHead // as slack-go reads an edit without its message
	}
	msg := &slackevents.MessageEvent{ClientMsgID: m.ClientMsgID, Type: m.Type, User: m.User, Text: m.Text,
		ThreadTimeStamp: m.ThreadTimeStamp, TimeStamp: m.TimeStamp, Channel: m.Channel, ChannelType: m.ChannelType,
		EventTimeStamp: m.EventTimeStamp, UserTeam: m.UserTeam, SourceTeam: m.SourceTeam, Message: m.Message.msg(),
		PreviousMessage: m.PreviousMessage.msg(), DeletedTimeStamp: m.DeletedTimeStamp, SubType: m.SubType, BotID: m.BotID,
		Username: m.Username}
	return slackevents.EventsAPIEvent{
		Token: outer.Token, TeamID: outer.TeamID, Type: outer.Type, APIAppID: outer.APIAppID, EnterpriseID: outer.EnterpriseID,
		IsExtSharedChannel: outer.IsExtSharedChannel, Data: &outer,
		InnerEvent: slackevents.EventsAPIInnerEvent{Type: m.Type, Data: msg},
	}, true
}
