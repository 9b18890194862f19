package slacktest

import (
	"cmp"
	"slices"
)

// UserGroup is a user group of the workspace: its id ("S…"), its handle
// (what Slack shows for its mention, "@" + Handle) and its members.
type UserGroup struct {
	ID      string
	Handle  string
	Members []string
}

// AddUserGroup adds (or replaces) the user group id ("S…") with its members,
// for usergroups.users.list; its handle, if it has one, stays.
func (s *Server) AddUserGroup(id string, members ...string) {
	s.mu.Lock()
	s.groups[id] = slices.Clone(members)
	s.mu.Unlock()
	s.changed()
}

// SetUserGroupHandle gives the user group id its handle ("docs-team":
// where the group is mentioned, Slack shows @docs-team), as UserGroups
// lists it.
func (s *Server) SetUserGroupHandle(id, handle string) {
	s.mu.Lock()
	s.groupHandles[id] = handle
	s.mu.Unlock()
	s.changed()
}

// UserGroups lists the workspace's user groups, by id.
func (s *Server) UserGroups() []UserGroup {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]UserGroup, 0, len(s.groups))
	for id, members := range s.groups {
		out = append(out, UserGroup{ID: id, Handle: s.groupHandles[id], Members: slices.Clone(members)})
	}
	slices.SortFunc(out, func(a, b UserGroup) int { return cmp.Compare(a.ID, b.ID) })
	return out
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
