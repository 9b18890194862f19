package slacktest

import (
	"encoding/base64"
	"fmt"
	"maps"
	"time"
)

// callbackLocked wraps an inner event in Slack's event_callback payload and
// registers it as an events_api envelope, from the workspace the event is
// about (eventWorkspaceLocked). It returns the envelope and event id.
func (s *Server) callbackLocked(inner map[string]any) (*envelope, string) {
	return s.callbackInLocked(s.eventWorkspaceLocked(inner), inner)
}

// eventWorkspaceLocked is the workspace an inner event is about: its
// channel's (channel, item.channel, assistant_thread.channel_id), else its
// person's, else the primary. s.mu is held.
func (s *Server) eventWorkspaceLocked(ev map[string]any) *Workspace {
	channel, _ := ev["channel"].(string)
	if item, ok := ev["item"].(map[string]any); ok && channel == "" {
		channel, _ = item["channel"].(string)
	}
	if th, ok := ev["assistant_thread"].(map[string]any); ok && channel == "" {
		channel, _ = th["channel_id"].(string)
	}
	if ch, ok := s.channels[channel]; ok {
		return s.channelWorkspaceLocked(ch)
	}
	if user, ok := ev["user"].(string); ok {
		return s.homeWorkspaceLocked(user)
	}
	return s.primary
}

// callbackInLocked is callbackLocked from workspace w: team_id,
// context_team_id and the authorization (w's bot user) say w.
func (s *Server) callbackInLocked(w *Workspace, inner map[string]any) (*envelope, string) {
	ev := maps.Clone(inner)
	if _, ok := ev["event_ts"]; !ok {
		ev["event_ts"] = s.nextTSLocked()
	}
	id := s.eventIDLocked()
	channel, _ := ev["channel"].(string)
	ctxJSON := fmt.Sprintf(`{"tid":%q,"aid":%q,"cid":%q}`, w.Team, s.cfg.appID, channel)
	enterprise := nullable(w.Enterprise)
	payload := map[string]any{
		"token":                 s.verify,
		"team_id":               w.Team,
		"context_team_id":       w.Team,
		"context_enterprise_id": enterprise,
		"api_app_id":            s.cfg.appID,
		"event":                 ev,
		"type":                  "event_callback",
		"event_id":              id,
		"event_time":            time.Now().Unix(),
		"authorizations": []map[string]any{{
			"enterprise_id":         enterprise,
			"team_id":               w.Team,
			"user_id":               w.BotUserID,
			"is_bot":                true,
			"is_enterprise_install": s.orgInstalledLocked(w),
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
	ev := s.wireLocked(m)
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
		"message":          s.wireLocked(m),
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
		"previous_message": s.wireLocked(m),
	}
	if tts := m.threadTSValue(); tts != "" && m.parent != nil {
		ev["thread_ts"] = tts
	}
	e, _ := s.callbackLocked(ev)
	return e
}
