package bot

import (
	"encoding/json"

	"github.com/slack-go/slack/slackevents"
)

// decodeEventsPayload decodes an Events API payload (the body of an HTTP
// mode request) as slack-go's slackevents.ParseEvent does, but for the message events the bot ignores
// whoever it is (notAPersonsPost: its own posts and edits, other bots'
// messages): of those it reads only the fields that tell so, and leaves
// their blocks, attachments and edited message undecoded. Slack sends the
// bot an event for each of its own posts and edits, which slack-go would
// decode whole, blocks twice over, to be dropped (BENCHMARKS.md, "The
// command path, lighter reading"). Socket Mode envelopes are decoded by
// slack-go's socketmode client, which offers no hook to read them lighter.
func decodeEventsPayload(payload []byte) (slackevents.EventsAPIEvent, error) {
	if ev, ok := ignoredMessageEvent(payload); ok {
		return ev, nil
	}
	return slackevents.ParseEvent(payload, slackevents.OptionNoVerifyToken())
}

// messageHead is what the bot reads of a message event it ignores: the
// fields that say it is no person's new post, and where it is.
type messageHead struct {
	Type            string `json:"type"`
	User            string `json:"user"`
	SubType         string `json:"subtype"`
	BotID           string `json:"bot_id"`
	Channel         string `json:"channel"`
	ChannelType     string `json:"channel_type"`
	TimeStamp       string `json:"ts"`
	ThreadTimeStamp string `json:"thread_ts"`
	EventTimeStamp  string `json:"event_ts"`
}

// callbackHead is an Events API payload read in one pass: the outer event
// whole, and of the inner event only its messageHead (json.Unmarshal reads
// the field nearest the top of the struct: Event, not the embedded
// EventsAPICallbackEvent's InnerEvent, which stays nil).
type callbackHead struct {
	slackevents.EventsAPICallbackEvent
	Event messageHead `json:"event"`
}

// ignoredMessageEvent is the event ParseEvent would make of payload if it is
// a message event that is no person's post (notAPersonsPost), with only the
// fields of messageHead in its MessageEvent and no raw inner event; ok is
// false for any other payload, and for one that does not decode.
func ignoredMessageEvent(payload []byte) (ev slackevents.EventsAPIEvent, ok bool) {
	var cb callbackHead
	if json.Unmarshal(payload, &cb) != nil {
		return ev, false
	}
	m := cb.Event
	if cb.Type != slackevents.CallbackEvent || m.Type != string(slackevents.Message) || !notAPersonsPost(m.SubType, m.BotID, m.User) {
		return ev, false
	}
	msg := &slackevents.MessageEvent{Type: m.Type, User: m.User, SubType: m.SubType, BotID: m.BotID, Channel: m.Channel,
		ChannelType: m.ChannelType, TimeStamp: m.TimeStamp, ThreadTimeStamp: m.ThreadTimeStamp, EventTimeStamp: m.EventTimeStamp}
	outer := cb.EventsAPICallbackEvent
	return slackevents.EventsAPIEvent{
		Token: outer.Token, TeamID: outer.TeamID, Type: outer.Type, APIAppID: outer.APIAppID, EnterpriseID: outer.EnterpriseID,
		IsExtSharedChannel: outer.IsExtSharedChannel, Data: &outer,
		InnerEvent: slackevents.EventsAPIInnerEvent{Type: m.Type, Data: msg},
	}, true
}
