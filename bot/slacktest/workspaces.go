package slacktest

import (
	"fmt"
	"slices"
	"strings"
)

// Workspace is a Slack workspace (a company's) the fake serves. The primary
// one is the workspace of NewServer (WithTeam, WithBot), where the app is
// installed with BotToken; AddWorkspace adds others, where the app is not
// installed until an OAuth install (WithOAuth) issues a token there.
type Workspace struct {
	// Team is the workspace id, such as "T0ACME".
	Team string
	// Name is the workspace's name (default Team) and Domain its
	// subdomain (default Team in lower case): https://DOMAIN.slack.com/.
	Name   string
	Domain string
	// Enterprise and EnterpriseName are the Enterprise Grid organisation
	// the workspace belongs to, "" for none (see InstallOrgWide).
	Enterprise     string
	EnterpriseName string
	// BotUserID and BotID are the app's bot user and bot in this workspace
	// (default "U0BOT" and "B0BOT" followed by Team): the author of what the
	// app posts there with the workspace's token.
	BotUserID string
	BotID     string
}

// workspaceSet is every workspace the fake serves, the primary one first.
// It is held under Server.mu; a *Workspace in it never changes once added
// but by AddWorkspace of the same Team.
type workspaceSet struct {
	workspaces     map[string]*Workspace
	workspaceOrder []string
	// primary is the workspace of NewServer.
	primary *Workspace
}

// AddWorkspace adds w, another workspace (another company) where the app is
// not installed yet: no token works there until an install issues one. Its
// bot user (w.BotUserID) is a person of it. Adding a Team again replaces
// its names. It panics for an empty Team or the primary workspace's.
func (s *Server) AddWorkspace(w Workspace) {
	if w.Team == "" || w.Team == s.cfg.teamID {
		panic(fmt.Sprintf("slacktest: AddWorkspace: team %q is empty or the primary workspace's", w.Team))
	}
	w.Name = orDefault(w.Name, w.Team)
	w.Domain = orDefault(w.Domain, strings.ToLower(w.Team))
	w.BotUserID = orDefault(w.BotUserID, "U0BOT"+w.Team)
	w.BotID = orDefault(w.BotID, "B0BOT"+w.Team)
	s.mu.Lock()
	if old, ok := s.workspaces[w.Team]; ok {
		w.BotUserID, w.BotID = old.BotUserID, old.BotID
	} else {
		s.workspaceOrder = append(s.workspaceOrder, w.Team)
	}
	s.workspaces[w.Team] = &w
	s.mu.Unlock()
	s.addWithStanding(w.BotUserID, s.cfg.botName, Standing{Team: w.Team})
}

// Workspaces lists the workspaces the fake serves, the primary one first.
func (s *Server) Workspaces() []Workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Workspace, 0, len(s.workspaceOrder))
	for _, t := range s.workspaceOrder {
		out = append(out, *s.workspaces[t])
	}
	return out
}

// AddMember adds a person of workspace team, a member there (or renames
// them). To the primary workspace they are a person of another organisation,
// as AddExternalUser shows them. team "" is the primary workspace (AddUser).
// It panics for a team AddWorkspace did not add.
func (s *Server) AddMember(team, id, name string) {
	if team == "" || team == s.cfg.teamID {
		s.AddUser(id, name)
		return
	}
	s.mu.Lock()
	_, ok := s.workspaces[team]
	s.mu.Unlock()
	if !ok {
		panic(fmt.Sprintf("slacktest: AddMember: unknown workspace %q: AddWorkspace first", team))
	}
	s.addWithStanding(id, name, Standing{Team: team})
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// workspaceLocked is the workspace team ("" is the primary), nil for one the
// fake does not serve. s.mu is held.
func (s *Server) workspaceLocked(team string) *Workspace {
	if team == "" {
		return s.primary
	}
	return s.workspaces[team]
}

// channelWorkspaceLocked is the workspace of ch. s.mu is held.
func (s *Server) channelWorkspaceLocked(ch *channelState) *Workspace {
	if w := s.workspaceLocked(ch.Team); w != nil {
		return w
	}
	return s.primary
}

// channelTeamLocked is the team id of the channel id, the primary's for a
// channel the fake does not know. s.mu is held.
func (s *Server) channelTeamLocked(id string) string {
	if ch, ok := s.channels[id]; ok {
		return s.channelWorkspaceLocked(ch).Team
	}
	return s.primary.Team
}

// wireLocked is m as Slack shows it in its channel's workspace. s.mu is held.
func (s *Server) wireLocked(m *msg) map[string]any {
	return m.wire(s.channelTeamLocked(m.channel))
}

// userWorkspaceLocked is the workspace person id belongs to: the primary for
// its members and guests, the one of AddMember, nil for a person of an
// organisation the fake does not serve (AddExternalUser). s.mu is held.
func (s *Server) userWorkspaceLocked(id string) *Workspace {
	return s.workspaceLocked(s.standing[id].Team)
}

// homeWorkspaceLocked is the workspace a person acts from: their own, else
// (another organisation's person) the primary. s.mu is held.
func (s *Server) homeWorkspaceLocked(id string) *Workspace {
	if w := s.userWorkspaceLocked(id); w != nil {
		return w
	}
	return s.primary
}

// botUserLocked reports whether id is the app's bot user in some workspace.
// s.mu is held.
func (s *Server) botUserLocked(id string) bool {
	if id == s.primary.BotUserID {
		return true
	}
	for _, w := range s.workspaces {
		if w.BotUserID == id {
			return true
		}
	}
	return false
}

// userVisibleLocked reports whether the app in workspace w sees person id
// (users.info): a person of w; for the primary, people of organisations the
// fake does not serve too, as always; else a person sharing a channel of w.
// s.mu is held.
func (s *Server) userVisibleLocked(w *Workspace, id string) bool {
	if _, ok := s.users[id]; !ok {
		return false
	}
	uw := s.userWorkspaceLocked(id)
	if uw == w || (uw == nil && w == s.primary) {
		return true
	}
	return slices.ContainsFunc(s.channelOrder, func(cid string) bool {
		ch := s.channels[cid]
		return s.channelWorkspaceLocked(ch) == w && s.memberLocked(ch, id)
	})
}

// ownUserLocked reports whether the app in workspace w may show person id a
// view or a DM: a person of w, or, for the primary, of an organisation the
// fake does not serve. The app's bot users are nobody's. s.mu is held.
func (s *Server) ownUserLocked(w *Workspace, id string) bool {
	if _, ok := s.users[id]; !ok || s.botUserLocked(id) {
		return false
	}
	uw := s.userWorkspaceLocked(id)
	return uw == w || (uw == nil && w == s.primary)
}

// nullable is v, or nil (JSON null) when empty.
func nullable(v string) any {
	if v == "" {
		return nil
	}
	return v
}

// BotUserOf is the app's bot user in the workspace person acts from (their
// own, else the primary), for tools that show a person's workspace
// (slackweb).
func (s *Server) BotUserOf(person string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.homeWorkspaceLocked(person).BotUserID
}

// ChannelBotUser is the app's bot user in the workspace of channel (the
// primary's for a channel the fake does not know): whom "@app" there
// mentions.
func (s *Server) ChannelBotUser(channel string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch, ok := s.channels[channel]; ok {
		return s.channelWorkspaceLocked(ch).BotUserID
	}
	return s.primary.BotUserID
}
