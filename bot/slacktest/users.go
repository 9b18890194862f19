package slacktest

import "strings"

// usersInfo answers users.info (scope users:read): the person's id, team,
// name, real and display name, whether it is a bot, a guest
// (is_restricted, is_ultra_restricted) or an admin or owner (is_admin,
// is_owner), or user_not_found.
func (s *Server) usersInfo(r *apiRequest) apiResult {
	if res, ok := s.needScope("users:read"); !ok {
		return res
	}
	id := r.params["user"]
	s.mu.Lock()
	defer s.mu.Unlock()
	name := s.users[id]
	if !s.userVisibleLocked(r.ws, id) {
		return fail("user_not_found")
	}
	handle := strings.ToLower(strings.ReplaceAll(name, " ", "."))
	st := s.standing[id]
	return apiResult{fields: map[string]any{"user": map[string]any{
		"id":                  id,
		"team_id":             s.teamOfLocked(id),
		"name":                handle,
		"real_name":           name,
		"is_bot":              s.botUserLocked(id),
		"is_restricted":       st.Guest != "",
		"is_ultra_restricted": st.Guest == "single",
		"is_admin":            st.Admin != "",
		"is_owner":            st.Admin == "owner",
		"deleted":             false,
		"profile": map[string]any{
			"real_name":    name,
			"display_name": name,
		},
	}}}
}

// chatGetPermalink answers chat.getPermalink (no scope needed): the
// message's link, with thread_ts and cid for a reply in a thread, or
// channel_not_found / message_not_found.
func (s *Server) chatGetPermalink(r *apiRequest) apiResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, code := s.visibleChannelLocked(r.ws, r.params["channel"])
	if code != "" {
		return fail(code)
	}
	m, ok := ch.byTS[r.params["message_ts"]]
	if !ok {
		return fail("message_not_found")
	}
	link := "https://" + r.ws.Domain + ".slack.com/archives/" + ch.ID + "/p" + strings.ReplaceAll(m.ts, ".", "")
	if m.parent != nil {
		link += "?thread_ts=" + m.parent.ts + "&cid=" + ch.ID
	}
	return apiResult{fields: map[string]any{"channel": ch.ID, "permalink": link}}
}
