// Package roles decides whether a Slack user is an editor or a viewer.
//
// Editors may start agent jobs and send follow-ups; viewers may only ask
// (/docs-visitors, list, the Home tab). Editors are named by Slack user ids
// (U…, W…) and user group ids (S…), in DOCSBOT_EDITORS for every project and
// in the projects file for one project (Editors, ParseEditors). When no list
// names anyone, everyone is an editor, as before roles existed.
//
// # Group membership
//
// A Checker reads the members of a user group through the small Members
// interface (usergroups.users.list; slack-go's GetUserGroupMembersContext,
// adapted with MembersFunc) and keeps each group's answer for a short time
// (DefaultTTL, one minute) in the memory of the replica. Callers asking for
// the same group at the same time share one request. The cache holds at most
// DefaultMaxGroups groups and forgets the least recently fetched first.
//
// A failure to ask stands for a few seconds (DefaultFailureTTL), so that a
// group Slack does not know, or a missing usergroups:read scope, does not
// cost a request per check. When Slack cannot be asked, an answer older than
// the TTL is still used for up to DefaultMaxStale (an hour): a person does
// not lose the editor role because Slack blinked. Without any answer the
// person is refused, and the refusal says that Slack could not be asked, not
// that they are a viewer (Verdict.Err holds the cause for the log).
//
// A refusal is meant to be shown privately (ephemeral or in the ack). It names
// who can help: the editors, as Slack mentions (<@U…>, <!subteam^S…>).
//
// # Guests and channels
//
// A Gate keeps guests and people of other organisations from changing docs
// (users.info, cached per person). Rooms say who reads a channel: shared
// with another organisation (conversations.info), or with a guest or a
// person of another organisation among its people (conversations.members,
// a page at a time, then each person through the Gate's cache, so a person
// in many channels is asked about once per DefaultPersonTTL); a channel of
// more than MaxRoomPeople people is not checked one by one and counts as
// one with guests. Each channel's answer is kept DefaultRoomTTL.
package roles
