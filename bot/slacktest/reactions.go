package slacktest

import (
	"slices"
	"strings"
)

// reactionTargetLocked resolves reactions.add/remove's channel, timestamp
// and name to the message and the index of that reaction on it (-1 when
// absent), or Slack's error.
func (s *Server) reactionTargetLocked(p map[string]string) (*msg, string, int, string) {
	ch, code := s.visibleChannelLocked(p["channel"])
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
	m, name, i, code := s.reactionTargetLocked(r.params)
	switch {
	case code != "":
		return fail(code)
	case i < 0:
		m.reactions = append(m.reactions, reaction{name: name})
		i = len(m.reactions) - 1
	case slices.Contains(m.reactions[i].users, s.cfg.botUserID):
		return fail("already_reacted")
	}
	m.reactions[i].users = append(m.reactions[i].users, s.cfg.botUserID)
	return apiResult{}
}

// reactionsRemove takes the bot's reaction off a message: no_reaction when
// the bot had not reacted so.
func (s *Server) reactionsRemove(r *apiRequest) apiResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, _, i, code := s.reactionTargetLocked(r.params)
	switch {
	case code != "":
		return fail(code)
	case i < 0 || !slices.Contains(m.reactions[i].users, s.cfg.botUserID):
		return fail("no_reaction")
	}
	m.reactions[i].users = slices.DeleteFunc(m.reactions[i].users, func(u string) bool { return u == s.cfg.botUserID })
	if len(m.reactions[i].users) == 0 {
		m.reactions = slices.Delete(m.reactions, i, i+1)
	}
	return apiResult{}
}
