package slacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Mentioned is what a person's @mention of the bot produced (Mention).
type Mentioned struct {
	// TS is the message's ts.
	TS string
	// EventID is the app_mention event's id.
	EventID string
	// MessageEventID is the id of the plain message event Slack sends for the
	// same post to an app subscribed to message.channels (or .groups): the
	// bot sees the post twice and must not answer twice.
	MessageEventID string
}

// Mention posts m as the person m.UserID with the bot mentioned ("<@BOT> " is
// put in front of m.Text unless the text mentions the bot already), in a
// channel or in the thread m.ThreadTS. When the bot is a member of the
// channel, Slack delivers an app_mention event and, as the app also
// subscribes to message events, a message event for the same post; Mention
// delivers both, each to one connection, and returns after both acks or ctx.
// It is an error to mention the bot in a channel it has not joined (Slack
// offers to invite it instead) or in a direct message (DMs carry message
// events only).
func (s *Server) Mention(ctx context.Context, m UserMessage) (Mentioned, error) {
	s.mu.Lock()
	ch, ok := s.channels[m.ChannelID]
	if ok {
		// The tag of the bot user of the channel's workspace.
		tag := "<@" + s.channelWorkspaceLocked(ch).BotUserID + ">"
		if !strings.Contains(m.Text, tag) {
			m.Text = strings.TrimSpace(tag + " " + m.Text)
		}
	}
	switch {
	case !ok:
		s.mu.Unlock()
		return Mentioned{}, fmt.Errorf("slacktest: mention in unknown channel %q", m.ChannelID)
	case !ch.BotMember:
		s.mu.Unlock()
		return Mentioned{}, fmt.Errorf("slacktest: mention in %s, which the bot has not joined", m.ChannelID)
	case ch.IMUser != "":
		s.mu.Unlock()
		return Mentioned{}, fmt.Errorf("slacktest: mention in the direct message %s: post with PostUserMessage", m.ChannelID)
	}
	stored, err := s.storeUserMessageLocked(ch, m)
	if err != nil {
		s.mu.Unlock()
		return Mentioned{}, err
	}
	// Files attached: the message event is a file_share, and the
	// app_mention carries them too, as Slack sends both.
	files := s.shareFilesLocked(ch, stored, m)
	if len(files) > 0 {
		stored.files, _ = json.Marshal(files)
	}
	ev := s.messageEventLocked(ch, stored)
	ev["client_msg_id"] = newUUID()
	if len(files) > 0 {
		ev["subtype"], ev["upload"], ev["files"] = "file_share", false, files
	}
	mention := map[string]any{
		"type":          "app_mention",
		"user":          stored.user,
		"text":          stored.text,
		"ts":            stored.ts,
		"channel":       ch.ID,
		"event_ts":      stored.ts,
		"team":          s.teamOfLocked(stored.user),
		"blocks":        stored.blocks,
		"client_msg_id": ev["client_msg_id"],
	}
	if tts := stored.threadTSValue(); tts != "" {
		mention["thread_ts"] = tts
	}
	if len(files) > 0 {
		mention["files"] = files
	}
	if stored.userTeam != "" {
		mention["user_team"], mention["source_team"] = stored.userTeam, stored.userTeam
	}
	me, mentionID := s.callbackLocked(mention)
	msgEnv, msgID := s.callbackLocked(ev)
	envs := []*envelope{me, msgEnv}
	if e := s.linkSharedLocked(ch, stored); e != nil {
		envs = append(envs, e)
	}
	s.mu.Unlock()
	s.changed()
	out := Mentioned{TS: stored.ts, EventID: mentionID, MessageEventID: msgID}
	return out, s.deliverAll(ctx, envs)
}

// storeUserMessageLocked stores m, by a known person, in ch (under its
// thread's parent when m.ThreadTS is set).
func (s *Server) storeUserMessageLocked(ch *channelState, m UserMessage) (*msg, error) {
	if _, ok := s.users[m.UserID]; !ok {
		return nil, fmt.Errorf("slacktest: message by unknown user %q", m.UserID)
	}
	var parent *msg
	if m.ThreadTS != "" {
		if parent = threadParent(ch, m.ThreadTS); parent == nil {
			return nil, fmt.Errorf("slacktest: thread %s not found in %s", m.ThreadTS, ch.ID)
		}
	}
	// userTeam is the author's own team when it is not the channel's
	// workspace's (Slack Connect).
	userTeam := s.teamOfLocked(m.UserID)
	if userTeam == s.channelWorkspaceLocked(ch).Team {
		userTeam = ""
	}
	stored := &msg{ts: s.nextTSLocked(), user: m.UserID, userTeam: userTeam, text: m.Text, blocks: richTextBlocks(m.Text)}
	s.addMessageLocked(ch, stored, parent)
	return stored, nil
}

// OpenDM returns the id of the direct message between the bot and userID,
// creating it (id "D" + the user id without its "U") the first time. Post
// in it with PostUserMessage: the bot receives message events with
// channel_type "im", and can post there with chat.postMessage.
func (s *Server) OpenDM(userID string) (string, error) {
	s.mu.Lock()
	_, known := s.users[userID]
	if !known || s.botUserLocked(userID) {
		s.mu.Unlock()
		return "", fmt.Errorf("slacktest: no direct message with unknown user %q", userID)
	}
	id := s.dmLocked(userID).ID
	s.mu.Unlock()
	s.changed()
	return id, nil
}

// dmLocked returns the DM channel with userID, creating it when missing.
func (s *Server) dmLocked(userID string) *channelState {
	id := "D" + strings.TrimPrefix(userID, "U")
	if ch, ok := s.channels[id]; ok {
		return ch
	}
	team := "" // the DM is in the person's workspace; the primary's for another organisation's
	if w := s.userWorkspaceLocked(userID); w != nil && w != s.primary {
		team = w.Team
	}
	ch := &channelState{Channel: Channel{ID: id, BotMember: true, Private: true, IMUser: userID, Team: team}, byTS: map[string]*msg{}}
	s.channels[id] = ch
	s.channelOrder = append(s.channelOrder, id)
	return ch
}

// conversationsOpen answers conversations.open users=U…: the DM with that person.
func (s *Server) conversationsOpen(r *apiRequest) apiResult {
	user := r.params["users"]
	s.mu.Lock()
	defer s.mu.Unlock()
	if user == "" {
		return fail("users_list_not_supplied")
	}
	if strings.Contains(user, ",") {
		return fail("not_enough_users") // group DMs are not modelled
	}
	if !s.ownUserLocked(r.ws, user) {
		return fail("user_not_found")
	}
	ch := s.dmLocked(user)
	return apiResult{fields: map[string]any{"channel": map[string]any{"id": ch.ID}}}
}
