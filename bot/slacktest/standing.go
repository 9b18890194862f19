package slacktest

// Standing is what users.info says of a person who is not a plain member of
// the workspace.
type Standing struct {
	// Guest is "" for a member, "multi" for a multi-channel guest
	// (is_restricted) and "single" for a single-channel guest (is_restricted
	// and is_ultra_restricted).
	Guest string
	// Team is the person's own workspace when it is another organisation's
	// (Slack Connect): users.info's team_id, and user_team and source_team
	// on their messages and mentions. "" is the workspace's own.
	Team string
	// Admin is "" for a member, "admin" for a workspace admin (is_admin)
	// and "owner" for an owner (is_owner and is_admin).
	Admin string
}

// MakeAdmin makes the person id an admin of their workspace, or its owner
// (is_owner), as users.info then says.
func (s *Server) MakeAdmin(id string, owner bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.standing[id]
	st.Admin = "admin"
	if owner {
		st.Admin = "owner"
	}
	s.standing[id] = st
}

// AddGuest adds a guest to the workspace: single for a single-channel
// guest, else a multi-channel one.
func (s *Server) AddGuest(id, name string, single bool) {
	st := Standing{Guest: "multi"}
	if single {
		st.Guest = "single"
	}
	s.addWithStanding(id, name, st)
}

// AddExternalUser adds a person of another organisation, whose workspace is
// team, as Slack Connect shows them in a shared channel.
func (s *Server) AddExternalUser(id, name, team string) {
	s.addWithStanding(id, name, Standing{Team: team})
}

// addWithStanding adds a person and what users.info says of them.
func (s *Server) addWithStanding(id, name string, st Standing) {
	s.mu.Lock()
	s.standing[id] = st
	s.mu.Unlock()
	s.AddUser(id, name)
}

// teamOfLocked is the team of user id: their own organisation's, else the
// workspace's. s.mu is held.
func (s *Server) teamOfLocked(id string) string {
	if t := s.standing[id].Team; t != "" {
		return t
	}
	return s.cfg.teamID
}

// StandingOf is what the workspace knows of person id: the zero Standing
// for a member (or someone it does not know), a Guest, or the Team of
// another organisation. For tools that show the workspace (slackweb).
func (s *Server) StandingOf(id string) Standing {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.standing[id]
}

// Member reports whether user is in channel, as users.conversations and
// conversations.info count them (see Channel.Members); false for an
// unknown channel.
func (s *Server) Member(channel, user string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[channel]
	return ok && s.memberLocked(ch, user)
}
