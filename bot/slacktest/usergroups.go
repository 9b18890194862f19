package slacktest

import "slices"

// AddUserGroup adds (or replaces) the user group id ("S…") with its members,
// for usergroups.users.list.
func (s *Server) AddUserGroup(id string, members ...string) {
	s.mu.Lock()
	s.groups[id] = slices.Clone(members)
	s.mu.Unlock()
	s.changed()
}

// usergroupsUsersList answers the members of a user group.
func (s *Server) usergroupsUsersList(r *apiRequest) apiResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	members, ok := s.groups[r.params["usergroup"]]
	if !ok {
		return fail("no_such_subteam")
	}
	return apiResult{fields: map[string]any{"users": append([]string{}, members...)}}
}
