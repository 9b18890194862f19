package bot

import (
	"context"
	"time"

	"github.com/docsbot/docsbot/bot/roles"
)

// ackRoleBound bounds the role check of an entry point answered in the ack
// (a slash command, a shortcut, a modal's submission): Slack gives the ack
// 3 seconds and a modal's trigger lives as long, so a user group lookup that
// is not cached waits at most this long. When the role is not decided in
// that time the work is accepted anyway and its work handler decides
// (EditorRefusal), by then usually from the cache the lookup filled.
const ackRoleBound = 800 * time.Millisecond

// newRoles builds the role checker over the bot's Slack client
// (usergroups.users.list).
func newRoles(b *Bot) *roles.Checker {
	return roles.NewChecker(roles.MembersFunc(func(ctx context.Context, group string) ([]string, error) {
		return b.slack.GetUserGroupMembersContext(ctx, group)
	}))
}

// EditorRefusal returns "" when user may start jobs and send follow-ups in
// channel for the project named proj (its editors and DOCSBOT_EDITORS), and
// otherwise what to tell them privately: the allow-lists' refusal, or the
// editor role's (it names the editors). proj "" asks whether the person is
// an editor of some project, for a check made before the project is known
// (ProjectKey's "" is the implicit project, which has no editors of its own,
// so the answer is the same). A proj docsbot no longer serves (not in the
// projects file) is refused, saying so. It may ask Slack who is in the editors' user
// groups; call it from work handlers, and EditorRefusalInAck from handlers
// that answer in the ack.
func (b *Bot) EditorRefusal(ctx context.Context, user, channel, proj string) string {
	refusal, _ := b.editorRefusal(ctx, user, channel, proj)
	return refusal
}

// EditorRefusalInAck is EditorRefusal for a handler answering in the ack: it
// waits for Slack at most ackRoleBound, and returns "" when the role could
// not be decided by then, for the work handler to decide.
func (b *Bot) EditorRefusalInAck(ctx context.Context, user, channel, proj string) string {
	ctx, cancel := context.WithTimeout(ctx, ackRoleBound)
	defer cancel()
	refusal, undecided := b.editorRefusal(ctx, user, channel, proj)
	if undecided {
		return ""
	}
	return refusal
}

// editorRefusal is EditorRefusal, and whether the role was left undecided
// (Slack not asked in time or failing, with no earlier answer).
func (b *Bot) editorRefusal(ctx context.Context, user, channel, proj string) (string, bool) {
	if refusal := b.access.check(user, channel); refusal != "" {
		return refusal, false
	}
	lists, everyone, known := b.editorLists(proj)
	if !known {
		return projectGoneRefusal(proj), false
	}
	if everyone {
		return "", false
	}
	v := b.roles.Check(ctx, user, lists...)
	if v.Editor {
		return "", false
	}
	if v.Err != nil {
		b.log.Warn("cannot tell whether a person is an editor", "user", user, "err", v.Err)
	}
	return v.Refusal, v.Err != nil
}
