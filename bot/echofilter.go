package bot

import (
	"bytes"
	"encoding/json"
)

// Slack sends the bot its own posts and edits back as message events (the
// app subscribes to messages), two or three per job started, each with the
// message's blocks and, for an edit, the previous version's too. slack-go's
// Socket Mode client parses every envelope in full (slackevents.ParseEvent,
// blocks included) before a handler can look at it, and about a tenth of
// the bot's CPU per command went there (BENCHMARKS.md, "At the floor").
//
// shrinkOwnEcho looks at the raw envelope first, decoding only the few
// fields the decision reads, and hands slack-go, in place of a message
// event the bot is bound to drop, the same envelope with an event holding
// only those fields: slack-go parses that in a fraction of the time, and
// the envelope still goes the whole way through the router to its handler,
// which drops and acks it as before. Nothing is dropped here: the pre-filter
// only makes the drop cheaper, so an ack is still sent for every envelope.

// ownEcho is what shrinkOwnEcho decodes of an envelope: the fields of the
// Socket Mode request slack-go reads, and of its event the fields IsOwnOrBot
// and the message handlers decide on.
type ownEcho struct {
	Type                   string `json:"type"`
	EnvelopeID             string `json:"envelope_id"`
	AcceptsResponsePayload bool   `json:"accepts_response_payload,omitempty"`
	RetryAttempt           int    `json:"retry_attempt"`
	RetryReason            string `json:"retry_reason"`
	Payload                struct {
		Type           string `json:"type"`
		Token          string `json:"token,omitempty"`
		TeamID         string `json:"team_id,omitempty"`
		ContextTeamID  string `json:"context_team_id,omitempty"`
		APIAppID       string `json:"api_app_id,omitempty"`
		EventID        string `json:"event_id,omitempty"`
		EventTime      int64  `json:"event_time,omitempty"`
		EnterpriseID   string `json:"enterprise_id,omitempty"`
		IsExtShared    bool   `json:"is_ext_shared_channel,omitempty"`
		EventContextID string `json:"event_context,omitempty"`
		Event          struct {
			Type        string `json:"type"`
			SubType     string `json:"subtype,omitempty"`
			User        string `json:"user,omitempty"`
			BotID       string `json:"bot_id,omitempty"`
			Channel     string `json:"channel,omitempty"`
			ChannelType string `json:"channel_type,omitempty"`
			TS          string `json:"ts,omitempty"`
			EventTS     string `json:"event_ts,omitempty"`
		} `json:"event"`
	} `json:"payload"`
}

// shrinkOwnEcho returns the envelope to hand slack-go in place of raw: a
// shrunk copy when raw is an Events API message event from this bot or any
// other (isOwnOrBot of its top-level user, bot_id and subtype, self being
// the bot's user id), which every message handler drops; nil, to hand raw
// on unchanged, otherwise and whenever in doubt (not JSON, another type of
// envelope or event).
//
// Invariant: for every envelope it shrinks, IsOwnOrBot decides the same on
// the shrunk event as on the full one, and the shrunk event keeps the
// event's type, subtype, user, bot_id, channel and timestamps, so that a
// handler reading only those (as every message handler does before it drops
// a bot's message) decides the same (echofilter_test.go).
func shrinkOwnEcho(raw []byte, self string) []byte {
	// Only an Events API message event is looked at; the cheap checks on
	// the raw bytes first keep slash commands and interactions from being
	// decoded twice.
	if !bytes.Contains(raw, []byte(`"events_api"`)) || !bytes.Contains(raw, []byte(`"message"`)) {
		return nil
	}
	var e ownEcho
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil
	}
	ev := &e.Payload.Event
	if e.Type != "events_api" || e.Payload.Type != "event_callback" || ev.Type != "message" {
		return nil
	}
	if !isOwnOrBot(ev.User, ev.BotID, ev.SubType, self) {
		return nil
	}
	out, err := json.Marshal(&e)
	if err != nil {
		return nil
	}
	return out
}

// isOwnOrBot is the decision of IsOwnOrBot on a message's top-level fields.
func isOwnOrBot(user, botID, subtype, self string) bool {
	if botID != "" || subtype == "bot_message" {
		return true
	}
	return user == "" || user == self
}
