package bot

import (
	"context"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/roles"
)

// ackRoleBound bounds the role check of an entry point answered in the ack
// (a slash command, a shortcut, a modal's submission): Slack gives the ack
// 3 seconds and a modal's trigger lives as long, so a user group lookup that
// is not cached waits at most this long. When the role is not decided in
// that time the work is accepted anyway and its work handler decides
// (Editors.Refusal), by then usually from the cache the lookup filled.
const ackRoleBound = 800 * time.Millisecond

// newRoles builds the role checker over the bot's Slack client
// (usergroups.users.list).
func newRoles(b *Bot) *roles.Checker {
	return roles.NewChecker(roles.MembersFunc(func(ctx context.Context, group string) ([]string, error) {
		return b.SlackIn(ctx).GetUserGroupMembersContext(ctx, group)
	}))
}

// newGate builds the gate over the bot's Slack client (users.info).
func newGate(b *Bot) *roles.Gate {
	return roles.NewGate(roles.ProfilesFunc(func(ctx context.Context, user string) (roles.Person, error) {
		u, err := b.SlackIn(ctx).GetUserInfoContext(ctx, user)
		if err != nil {
			return roles.Person{}, err
		}
		return roles.PersonOf(u), nil
	}), roles.WithGuests(b.cfg.AllowGuests), roles.WithExternal(b.cfg.AllowExternal))
}

// UserName is how the person user is shown (users.info: the display name,
// else the real name, else the handle), from the cache the access checks
// use; the id itself when Slack does not say.
func (b *Bot) UserName(ctx context.Context, user string) string {
	p, err := b.gate.Person(ctx, user)
	if err != nil || p.Name == "" {
		return user
	}
	return p.Name
}

// Editors decides who may change docs (Bot.Editors): DOCSBOT_EDITORS and
// each project's, with the gate of guests and other organisations. Its
// refusals name what was refused (agent jobs unless For says otherwise)
// and what the person may use instead.
type Editors struct {
	b     *Bot
	words roles.Words
}

// Editors is who may start agent jobs, per project.
func (b *Bot) Editors() Editors { return Editors{b, b.refusalWords(roles.ActJobs)} }

// For is e refusing act instead (roles.ActFollowUps, roles.ActDeploys).
func (e Editors) For(act string) Editors {
	return Editors{e.b, e.b.refusalWords(act)}
}

// refusalWords words a refusal of act, naming the commands served here
// that a person refused it may use.
func (b *Bot) refusalWords(act string) roles.Words {
	var still []string
	if _, ok := b.routes.commands["/docs-ask"]; ok {
		still = append(still, "ask the docs with `/docs-ask`")
	}
	var reads []string
	for _, c := range []string{"/docs-health", "/docs-visitors"} {
		if _, ok := b.routes.commands[c]; ok {
			reads = append(reads, "`"+c+"`")
		}
	}
	if len(reads) > 0 {
		still = append(still, "see how readers use the docs with "+strings.Join(reads, " and "))
	}
	return roles.Words{Act: act, Still: strings.Join(still, ", and ")}
}

// Refusal returns "" when user may start jobs, send follow-ups and
// retry in channel for the project named proj, and otherwise what to tell
// them privately, by the first of these that refuses (docs/roles.md):
//
//	allow-lists (DOCSBOT_ALLOWED_USERS, _CHANNELS)   not on them
//	the channel turned off in Slack (setinslack.go)  in it
//	the project                                      no longer served
//	the gate (users.info)                             a guest, another organisation, or "not now"
//	the editor role (DOCSBOT_EDITORS, the project's) not named (it names the editors); the editors
//	                                                 set in Slack for the workspace instead, when set
//
// proj "" asks whether the person is an editor of some project, for a check made before the project is known
// (ProjectKey's "" is the implicit project, which has no editors of its own,
// so the answer is the same). A proj docsbot no longer serves (not in the
// projects file) is refused, saying so. It may ask Slack who is in the editors' user
// groups; call it from work handlers, and RefusalInAck from handlers
// that answer in the ack.
func (e Editors) Refusal(ctx context.Context, user, channel, proj string) string {
	refusal, _ := e.b.editorRefusal(ctx, e.words, user, channel, proj)
	return refusal
}

// Check is Refusal, and whether the refusal is "not now": Slack
// could not say who the person is or who is in the editors' groups, so the
// same request may pass later (a refusal to repeat each time, where a
// definite one may be told once).
func (e Editors) Check(ctx context.Context, user, channel, proj string) (refusal string, notNow bool) {
	return e.b.editorRefusal(ctx, e.words, user, channel, proj)
}

// RefusalInAck is Refusal for a handler answering in the ack: it
// waits for Slack at most ackRoleBound, and returns "" when the role could
// not be decided by then, for the work handler to decide.
func (e Editors) RefusalInAck(ctx context.Context, user, channel, proj string) string {
	ctx, cancel := context.WithTimeout(ctx, ackRoleBound)
	defer cancel()
	refusal, undecided := e.b.editorRefusal(ctx, e.words, user, channel, proj)
	if undecided {
		return ""
	}
	return refusal
}

// editorRefusal is Editors.Refusal, and whether the role was left undecided
// (Slack not asked in time or failing, with no earlier answer).
func (b *Bot) editorRefusal(ctx context.Context, words roles.Words, user, channel, proj string) (string, bool) {
	if refusal := b.access.check(user, channel); refusal != "" {
		return refusal, false
	}
	if b.channelOff(ctx, channel) {
		return channelOffText, false
	}
	lists, everyone, known := b.editorLists(proj)
	if !known {
		return projectGoneRefusal(proj), false
	}
	switch e, ok, err := b.editorsSetInSlack(ctx); { // setinslack.go: over the environment's and the projects'
	case ok:
		lists, everyone = []roles.Editors{e}, false
	case err != nil:
		b.log.Warn("cannot tell whether the workspace set its editors in Slack", "user", user, "err", err)
		return settingsNotNow, true
	}
	if a := b.gate.Check(ctx, b.selfOrg(ctx), user); a.Refusal != "" {
		if a.Err != nil {
			b.log.Warn("cannot tell whether a person is a guest or of another organisation", "user", user, "err", a.Err)
		}
		return a.Say(words), a.Err != nil
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
	return v.Say(words), v.Err != nil
}
