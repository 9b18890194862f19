package slacktest

import (
	"context"
	"errors"
	"slices"
	"strings"
)

// reactionTargetLocked resolves reactions.add/remove's channel, timestamp
// and name to the message and the index of that reaction on it (-1 when
// absent), or Slack's error.
func (s *Server) reactionTargetLocked(w *Workspace, p map[string]string) (*msg, string, int, string) {
	ch, code := s.visibleChannelLocked(w, p["channel"])
	if code != "" {
		return nil, "", 0, code
	}
	name := strings.Trim(p["name"], ":")
	if name == "" {
		return nil, "", 0, "invalid_name"
	}
	m, ok := ch.byTS[p["timestamp"]]
	if !ok {
		return nil, "", 0, "message_not_found"
	}
	return m, name, slices.IndexFunc(m.reactions, func(x reaction) bool { return x.name == name }), ""
}

// reactionsAdd adds the bot's reaction to a message: already_reacted when it
// is there already.
func (s *Server) reactionsAdd(r *apiRequest) apiResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, name, i, code := s.reactionTargetLocked(r.ws, r.params)
	switch {
	case code != "":
		return fail(code)
	case i < 0:
		m.reactions = append(m.reactions, reaction{name: name})
		i = len(m.reactions) - 1
	case slices.Contains(m.reactions[i].users, r.ws.BotUserID):
		return fail("already_reacted")
	}
	m.reactions[i].users = append(m.reactions[i].users, r.ws.BotUserID)
	return apiResult{}
}

// reactionsRemove takes the bot's reaction off a message: no_reaction when
// the bot had not reacted so.
func (s *Server) reactionsRemove(r *apiRequest) apiResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, _, i, code := s.reactionTargetLocked(r.ws, r.params)
	switch {
	case code != "":
		return fail(code)
	case i < 0 || !slices.Contains(m.reactions[i].users, r.ws.BotUserID):
		return fail("no_reaction")
	}
	m.reactions[i].users = slices.DeleteFunc(m.reactions[i].users, func(u string) bool { return u == r.ws.BotUserID })
	if len(m.reactions[i].users) == 0 {
		m.reactions = slices.Delete(m.reactions, i, i+1)
	}
	return apiResult{}
}

// React adds the reaction name of user, a person, to the message ts of
// channel, as reactions.add with their own token does, and delivers
// reaction_added to the app when it is in the channel, waiting for its ack
// or ctx. A person not in the channel, an unknown message or a reaction of
// theirs already there is an error, with Slack's code.
func (s *Server) React(ctx context.Context, user, channel, ts, name string) error {
	s.mu.Lock()
	ch := s.channelByRefLocked(nil, channel)
	if ch == nil || !s.memberLocked(ch, user) {
		s.mu.Unlock()
		return errors.New("slacktest: reactions.add: channel_not_found")
	}
	m, name, i, code := s.reactionTargetLocked(s.channelWorkspaceLocked(ch), map[string]string{"channel": channel, "timestamp": ts, "name": name})
	switch {
	case code != "":
	case i < 0:
		m.reactions = append(m.reactions, reaction{name: name})
		i = len(m.reactions) - 1
	case slices.Contains(m.reactions[i].users, user):
		code = "already_reacted"
	}
	if code != "" {
		s.mu.Unlock()
		return errors.New("slacktest: reactions.add: " + code)
	}
	m.reactions[i].users = append(m.reactions[i].users, user)
	deliver := ch.BotMember || ch.IMUser != ""
	itemUser := m.user
	s.mu.Unlock()
	s.changed()
	if !deliver {
		return nil
	}
	_, err := s.DeliverEvent(ctx, map[string]any{"type": "reaction_added", "user": user, "reaction": name,
		"item_user": itemUser, "item": map[string]any{"type": "message", "channel": ch.ID, "ts": ts}})
	return err
}
