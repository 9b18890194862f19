package slacktest

import (
	"encoding/base64"
	"fmt"
	"maps"
	"time"
)

// callbackLocked wraps an inner event in Slack's event_callback payload and
// registers it as an events_api envelope. It returns the envelope and event id.
func (s *Server) callbackLocked(inner map[string]any) (*envelope, string) {
	ev := maps.Clone(inner)
	if _, ok := ev["event_ts"]; !ok {
		ev["event_ts"] = s.nextTSLocked()
	}
	id := s.eventIDLocked()
	channel, _ := ev["channel"].(string)
	ctxJSON := fmt.Sprintf(`{"tid":%q,"aid":%q,"cid":%q}`, s.cfg.teamID, s.cfg.appID, channel)
	payload := map[string]any{
		"token":                 s.verify,
		"team_id":               s.cfg.teamID,
		"context_team_id":       s.cfg.teamID,
		"context_enterprise_id": nil,
		"api_app_id":            s.cfg.appID,
		"event":                 ev,
		"type":                  "event_callback",
		"event_id":              id,
		"event_time":            time.Now().Unix(),
		"authorizations": []map[string]any{{
			"enterprise_id":         nil,
			"team_id":               s.cfg.teamID,
			"user_id":               s.cfg.botUserID,
			"is_bot":                true,
			"is_enterprise_install": false,
		}},
		"is_ext_shared_channel": false,
		"event_context":         "4-" + base64.RawURLEncoding.EncodeToString([]byte(ctxJSON)),
	}
	e := s.newEnvelopeLocked(typeEventsAPI, payload)
	e.eventID = id
	s.byEvent[id] = e
	return e, id
}

func channelType(ch *channelState) string {
	if ch.IMUser != "" {
		return "im"
	}
	if ch.Private {
		return "group"
	}
	return "channel"
}

// messageEventLocked is the message event Slack sends for a new message m in ch.
func (s *Server) messageEventLocked(ch *channelState, m *msg) map[string]any {
	ev := m.wire(s.cfg.teamID)
	delete(ev, "reply_count")
	delete(ev, "reply_users_count")
	delete(ev, "reply_users")
	delete(ev, "latest_reply")
	delete(ev, "is_locked")
	delete(ev, "subscribed")
	delete(ev, "reactions")
	ev["channel"] = ch.ID
	ev["event_ts"] = m.ts
	ev["channel_type"] = channelType(ch)
	return ev
}

// botEchoLocked returns the event envelope echoing the bot's new message m, or
// nil when echo is off or the bot would not receive events from ch.
func (s *Server) botEchoLocked(ch *channelState, m *msg) *envelope {
	if !s.cfg.echo || !ch.BotMember {
		return nil
	}
	e, _ := s.callbackLocked(s.messageEventLocked(ch, m))
	return e
}

// changedEchoLocked returns the message_changed event envelope for an edit of m.
func (s *Server) changedEchoLocked(ch *channelState, m *msg, previous map[string]any) *envelope {
	if !s.cfg.echo || !ch.BotMember {
		return nil
	}
	ts := s.nextTSLocked()
	ev := map[string]any{
		"type":             "message",
		"subtype":          "message_changed",
		"hidden":           true,
		"channel":          ch.ID,
		"ts":               ts,
		"event_ts":         ts,
		"channel_type":     channelType(ch),
		"message":          m.wire(s.cfg.teamID),
		"previous_message": previous,
	}
	e, _ := s.callbackLocked(ev)
	return e
}

// deletedEchoLocked returns the message_deleted event envelope for m.
func (s *Server) deletedEchoLocked(ch *channelState, m *msg) *envelope {
	if !s.cfg.echo || !ch.BotMember {
		return nil
	}
	ts := s.nextTSLocked()
	ev := map[string]any{
		"type":             "message",
		"subtype":          "message_deleted",
		"hidden":           true,
		"channel":          ch.ID,
		"ts":               ts,
		"event_ts":         ts,
		"deleted_ts":       m.ts,
		"channel_type":     channelType(ch),
		"previous_message": m.wire(s.cfg.teamID),
	}
	if tts := m.threadTSValue(); tts != "" && m.parent != nil {
		ev["thread_ts"] = tts
	}
	e, _ := s.callbackLocked(ev)
	return e
}
