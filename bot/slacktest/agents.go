package slacktest

import (
	"context"
	"fmt"
	"slices"
)

// sessionStatuses are the lifecycle statuses of an agent session.
var sessionStatuses = []string{"active", "processing", "suspended", "closed"}

// maxSessionTitleRunes is the longest title of an agent session.
const maxSessionTitleRunes = 200

// The entity types of an app context (app_context_changed).
const (
	ContextChannelType = "slack#/types/channel_id"
	ContextCanvasType  = "slack#/types/canvas_id"
	ContextListType    = "slack#/types/list_id"
	ContextMessageType = "slack#/types/message_context"
)

// AgentSession is an agent session as Slack keeps it: one thread's,
// created by agents.sessions.setStatus.
type AgentSession struct {
	Channel, ThreadTS string
	// Status is "active", "processing", "suspended" or "closed".
	Status string
	Title  string
	// Initiator is the person the app said started it, "" when none.
	Initiator string
	// Statuses are the statuses it was given, oldest first
	// (agents.sessions.setStatus, and chat.stopStream's session_status).
	Statuses []string
	// Stops counts the person's presses of Stop (StopAgentSession).
	Stops int
}

// agentSession is a stored agent session. Guarded by Server.mu.
type agentSession struct {
	AgentSession
}

func (a *agentSession) setStatus(st string) {
	a.Status = st
	a.Statuses = append(a.Statuses, st)
}

// AgentStop is what a person's Stop produced (StopAgentSession).
type AgentStop struct {
	// EventID is the agent_session_stopped event's id.
	EventID string
	// Halted are the ts of the app's streams Slack stopped.
	Halted []string
}

// ContextEntity is one thing a person has open in Slack, as
// app_context_changed reports it: a channel, canvas or list (Value is its
// id) or a message (Channel and TS).
type ContextEntity struct {
	Type        string
	Value       string
	Channel, TS string
}

// ChannelContext is the context entity of a channel the person views.
func ChannelContext(id string) ContextEntity {
	return ContextEntity{Type: ContextChannelType, Value: id}
}

// MessageContext is the context entity of a message the person views.
func MessageContext(channel, ts string) ContextEntity {
	return ContextEntity{Type: ContextMessageType, Channel: channel, TS: ts}
}

// wire renders e as Slack sends it.
func (e ContextEntity) wire(team string) map[string]any {
	w := map[string]any{"type": e.Type, "team_id": team}
	if e.Type == ContextMessageType {
		w["value"] = map[string]any{"channel_id": e.Channel, "message_ts": e.TS}
	} else {
		w["value"] = e.Value
	}
	return w
}

// sessionThreadLocked resolves the channel and thread of an
// agents.sessions.* call: the channel the bot is in and the root of the
// thread (session channels, agents.conversations.create, are not modelled,
// so both are needed). s.mu is held.
func (s *Server) sessionThreadLocked(w *Workspace, p map[string]string) (*channelState, *msg, apiResult) {
	if p["channel_id"] == "" {
		return nil, nil, invalidArgs(problem("/channel_id", "missing required field: channel_id"))
	}
	ch, code := s.visibleChannelLocked(w, p["channel_id"])
	if code != "" {
		return nil, nil, fail(code)
	}
	if !ch.BotMember {
		return nil, nil, fail("not_in_channel")
	}
	if p["thread_ts"] == "" {
		return nil, nil, invalidArgs(problem("/thread_ts", "required for thread-based sessions in channels and DMs"))
	}
	parent := threadParent(ch, p["thread_ts"])
	if parent == nil {
		return nil, nil, fail("thread_not_found")
	}
	return ch, parent, apiResult{}
}

// agentsSessionsSetStatus answers agents.sessions.setStatus (chat:write):
// it sets the status of the thread's agent session, creating it with its
// title and initiator the first time (both ignored after). Icon and name
// overrides need chat:write.customize. Answers status, agent_status and
// title.
func (s *Server) agentsSessionsSetStatus(r *apiRequest) apiResult {
	p := r.params
	if !slices.Contains(sessionStatuses, p["status"]) {
		return invalidArgs(problem("/status", "must be one of %v", sessionStatuses))
	}
	if p["icon_emoji"] != "" || p["icon_url"] != "" || p["username"] != "" {
		if res, ok := s.needScope("chat:write.customize"); !ok {
			return res
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, parent, res := s.sessionThreadLocked(r.ws, p)
	if res.err != "" {
		return res
	}
	key := statusKey(ch.ID, parent.ts)
	sess := s.sessions[key]
	if sess == nil {
		if runes(p["title"]) > maxSessionTitleRunes {
			return invalidArgs(problem("/title", "must be less than %d characters", maxSessionTitleRunes+1))
		}
		if u := p["initiator_user_id"]; u != "" && !s.memberLocked(ch, u) {
			return fail("user_not_in_channel") // the error name is our assumption
		}
		sess = &agentSession{AgentSession{Channel: ch.ID, ThreadTS: parent.ts, Title: p["title"], Initiator: p["initiator_user_id"]}}
		s.sessions[key] = sess
	}
	sess.setStatus(p["status"])
	out := map[string]any{"status": sess.Status, "agent_status": sess.Status}
	if sess.Title != "" {
		out["title"] = sess.Title
	}
	return apiResult{fields: out}
}

// agentsSessionsRename answers agents.sessions.rename (chat:write): a new
// title of 1 to 200 characters for the thread's agent session;
// session_not_found when the thread has none (the name is our assumption:
// Slack documents none).
func (s *Server) agentsSessionsRename(r *apiRequest) apiResult {
	p := r.params
	if n := runes(p["title"]); n < 1 || n > maxSessionTitleRunes {
		return invalidArgs(problem("/title", "must be 1 to %d characters", maxSessionTitleRunes))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, parent, res := s.sessionThreadLocked(r.ws, p)
	if res.err != "" {
		return res
	}
	sess := s.sessions[statusKey(ch.ID, parent.ts)]
	if sess == nil {
		return fail("session_not_found")
	}
	sess.Title = p["title"]
	return apiResult{fields: map[string]any{"title": sess.Title}}
}

// AgentSession returns the agent session of the thread of channel whose
// parent is threadTS, false when there is none.
func (s *Server) AgentSession(channel, threadTS string) (AgentSession, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[statusKey(channel, threadTS)]
	if !ok {
		return AgentSession{}, false
	}
	out := sess.AgentSession
	out.Statuses = slices.Clone(out.Statuses)
	return out, true
}

// StopAgentSession is the person userID pressing the Stop button of the
// agent session of the thread channel/threadTS, which Slack shows only
// while the session is processing (an error otherwise). Slack stops the
// app's streams in progress in the thread (appendStream then answers
// message_not_in_streaming_state) and sends agent_session_stopped with
// their ts; the session's status does not change: the app must move it
// on. It returns after the ack or ctx.
func (s *Server) StopAgentSession(ctx context.Context, channel, threadTS, userID string) (AgentStop, error) {
	s.mu.Lock()
	sess, ok := s.sessions[statusKey(channel, threadTS)]
	switch {
	case !ok:
		s.mu.Unlock()
		return AgentStop{}, fmt.Errorf("slacktest: no agent session in thread %s of %s", threadTS, channel)
	case sess.Status != "processing":
		s.mu.Unlock()
		return AgentStop{}, fmt.Errorf("slacktest: no Stop button: the session of thread %s is %s, not processing", threadTS, sess.Status)
	}
	if _, known := s.users[userID]; !known {
		s.mu.Unlock()
		return AgentStop{}, fmt.Errorf("slacktest: Stop by unknown user %q", userID)
	}
	halted := []string{}
	if parent := s.channels[channel].byTS[threadTS]; parent != nil {
		for _, m := range append([]*msg{parent}, parent.replies...) {
			if s.botUserLocked(m.user) && m.stream == streamOpen {
				m.stream, m.halted = streamStopped, true
				halted = append(halted, m.ts)
			}
		}
	}
	sess.Stops++
	e, id := s.callbackLocked(map[string]any{
		"type":                 "agent_session_stopped",
		"channel":              channel,
		"thread_ts":            threadTS,
		"user":                 userID,
		"streaming_message_ts": halted,
	})
	s.mu.Unlock()
	s.changed()
	out := AgentStop{EventID: id, Halted: slices.Clone(halted)}
	return out, s.deliverAll(ctx, []*envelope{e})
}

// ChangeAppContext is what the person userID has open in Slack changing
// while the app's agent view is open: Slack sends app_context_changed with
// the entities (most relevant first; none for nothing) and the app's
// direct message with the person, and from then on adds the context to
// the message events of that direct message (app_context). It returns the
// event id after the ack or ctx.
func (s *Server) ChangeAppContext(ctx context.Context, userID string, entities ...ContextEntity) (string, error) {
	s.mu.Lock()
	if _, ok := s.users[userID]; !ok || s.botUserLocked(userID) {
		s.mu.Unlock()
		return "", fmt.Errorf("slacktest: app context of unknown user %q", userID)
	}
	list := make([]map[string]any, len(entities))
	for i, e := range entities {
		list[i] = e.wire(s.homeWorkspaceLocked(userID).Team)
	}
	appCtx := map[string]any{}
	if len(list) > 0 {
		appCtx["entities"] = list
	}
	s.appContexts[userID] = appCtx
	dm := s.dmLocked(userID)
	e, id := s.callbackLocked(map[string]any{
		"type":    "app_context_changed",
		"context": appCtx,
		"channel": dm.ID,
		"user":    userID,
	})
	s.mu.Unlock()
	s.changed()
	return id, s.deliverAll(ctx, []*envelope{e})
}
