package slacktest

import (
	"slices"
	"strconv"
	"strings"
)

// readScope is the scope reading what ch is (conversations.info,
// users.conversations) needs, as Slack asks it by the channel's type.
func readScope(ch *channelState) string {
	switch {
	case ch.IMUser != "":
		return "im:read"
	case ch.Private:
		return "groups:read"
	default:
		return "channels:read"
	}
}

// memberLocked reports whether user is in ch: the channel's Members, else
// (nil Members) every member of the channel's workspace, but not its guests
// (Slack puts a guest in the channels they are invited to only) nor people
// of another organisation; a direct message has its person. s.mu is held.
func (s *Server) memberLocked(ch *channelState, user string) bool {
	switch {
	case ch.IMUser != "":
		return ch.IMUser == user
	case ch.Members != nil:
		return slices.Contains(ch.Members, user)
	}
	_, known := s.users[user]
	if w := s.channelWorkspaceLocked(ch); w != s.primary {
		return known && s.standing[user] == Standing{Team: w.Team}
	}
	return known && s.standing[user] == Standing{}
}

// channelObjectLocked is ch as conversations.info and users.conversations
// show it. s.mu is held.
func (s *Server) channelObjectLocked(ch *channelState) map[string]any {
	o := map[string]any{
		"id":                    ch.ID,
		"is_channel":            ch.IMUser == "" && !ch.Private,
		"is_group":              ch.IMUser == "" && ch.Private,
		"is_im":                 ch.IMUser != "",
		"is_private":            ch.Private || ch.IMUser != "",
		"is_member":             ch.BotMember || ch.IMUser != "",
		"is_shared":             ch.Shared,
		"is_ext_shared":         ch.Shared,
		"is_org_shared":         false,
		"is_pending_ext_shared": false,
		"is_archived":           false,
	}
	if ch.IMUser != "" {
		o["user"] = ch.IMUser
	} else {
		o["name"] = ch.Name
		n := 0
		for _, id := range s.userOrder {
			if !s.botUserLocked(id) && s.memberLocked(ch, id) {
				n++
			}
		}
		o["num_members"] = n
	}
	return o
}

// conversationsInfo answers conversations.info (channels:read, groups:read
// or im:read by the channel's type): the channel, whether it is shared with
// another organisation (is_ext_shared) included, or channel_not_found for an
// unknown one and a private one the bot is not in.
func (s *Server) conversationsInfo(r *apiRequest) apiResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, res, ok := s.readableChannelLocked(r)
	if !ok {
		return res
	}
	return apiResult{fields: map[string]any{"channel": s.channelObjectLocked(ch)}}
}

// usersConversations answers users.conversations: the channels of the
// person user (default the bot) of the types asked (default
// public_channel), each type needing its read scope; private channels only
// where the bot is a member too, as Slack restricts them to those the caller
// shares. Paged by limit (default 100, at most 1000) and cursor.
func (s *Server) usersConversations(r *apiRequest) apiResult {
	p := r.params
	types := strings.Split(p["types"], ",")
	if p["types"] == "" {
		types = []string{"public_channel"}
	}
	scopes := map[string]string{"public_channel": "channels:read", "private_channel": "groups:read", "im": "im:read", "mpim": "mpim:read"}
	for _, t := range types {
		scope, ok := scopes[strings.TrimSpace(t)]
		if !ok {
			return fail("invalid_types")
		}
		if res, ok := s.needScope(scope); !ok {
			return res
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	user := p["user"]
	if user == "" {
		user = r.ws.BotUserID
	} else if !s.userVisibleLocked(r.ws, user) {
		return fail("user_not_found")
	}
	wants := func(ch *channelState) bool {
		switch {
		case ch.IMUser != "":
			return slices.Contains(types, "im")
		case ch.Private:
			return slices.Contains(types, "private_channel") && ch.BotMember
		}
		return slices.Contains(types, "public_channel")
	}
	var picked []*channelState
	for _, id := range s.channelOrder {
		ch := s.channels[id]
		if !wants(ch) || s.channelWorkspaceLocked(ch) != r.ws {
			continue
		}
		if in := (user == r.ws.BotUserID && (ch.BotMember || ch.IMUser != "")) || s.memberLocked(ch, user); in {
			picked = append(picked, ch)
		}
	}
	limit := 100
	if v, err := strconv.Atoi(p["limit"]); err == nil && v > 0 {
		limit = min(v, 1000)
	}
	offset := 0
	if c := p["cursor"]; c != "" {
		n, ok := decodeCursor(c)
		if !ok || n > len(picked) {
			return fail("invalid_cursor")
		}
		offset = n
	}
	end := min(offset+limit, len(picked))
	out := make([]map[string]any, 0, end-offset)
	for _, ch := range picked[offset:end] {
		out = append(out, s.channelObjectLocked(ch))
	}
	next := ""
	if end < len(picked) {
		next = encodeCursor(end)
	}
	return apiResult{fields: map[string]any{"channels": out, "response_metadata": map[string]any{"next_cursor": next}}}
}

// conversationsMembers answers conversations.members (channels:read,
// groups:read or im:read by the channel's type): the ids of the people in
// the channel, the bot's own when it is in it, a page at a time (limit,
// default 100, at most 1000; cursor). An unknown channel, and a private one
// the bot is not in, are channel_not_found; a public one the bot is not in
// is answered, as Slack does.
func (s *Server) conversationsMembers(r *apiRequest) apiResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, res, ok := s.readableChannelLocked(r)
	if !ok {
		return res
	}
	limit := 100
	if v := r.params["limit"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return fail("invalid_limit")
		}
		limit = n
	}
	var members []string
	for _, id := range s.userOrder {
		if s.botUserLocked(id) {
			if id == r.ws.BotUserID && (ch.BotMember || ch.IMUser != "") {
				members = append(members, id)
			}
			continue
		}
		if s.memberLocked(ch, id) {
			members = append(members, id)
		}
	}
	offset := 0
	if c := r.params["cursor"]; c != "" {
		n, ok := decodeCursor(c)
		if !ok || n > len(members) {
			return fail("invalid_cursor")
		}
		offset = n
	}
	end := min(offset+limit, len(members))
	next := ""
	if end < len(members) {
		next = encodeCursor(end)
	}
	return apiResult{fields: map[string]any{"members": slices.Clone(members[offset:end]), "response_metadata": map[string]any{"next_cursor": next}}}
}

// readableChannelLocked is the channel a conversations.* read names, or
// Slack's answer when the bot may not read it: channel_not_found (unknown,
// or private without the bot), or the missing read scope of its type.
func (s *Server) readableChannelLocked(r *apiRequest) (*channelState, apiResult, bool) {
	ch, code := s.visibleChannelLocked(r.ws, r.params["channel"])
	if code != "" {
		return nil, fail(code), false
	}
	if res, ok := s.needScope(readScope(ch)); !ok {
		return nil, res, false
	}
	return ch, apiResult{}, true
}
