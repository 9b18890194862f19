package bot

import (
	"context"
	"slices"

	"github.com/docsbot/docsbot/bot/roles"
)

// Who may set docsbot up from Slack (the Settings of its Home): a
// workspace's admins. Every settings action is checked here, on the
// server, whatever its payload says:
//
//	check                                   refuses
//	the allow-list (DOCSBOT_ALLOWED_USERS)  someone not on it
//	users.info (the gate's cache)           a guest, a person of another organisation; "not now" when Slack cannot say
//	the admin role                          anyone but the workspace's admins and owners (is_admin, is_owner),
//	                                        whoever installed docsbot there (install mode), and DOCSBOT_ADMINS
//	                                        (or, set in Slack for the workspace, its admins: setinslack.go)

// installers are the Workspaces that know who installed docsbot in a
// workspace (bot/install's directory).
type installers interface {
	InstalledBy(ctx context.Context, ws Workspace) string
}

// AdminRefusal returns "" when user may change docsbot's settings in the
// workspace ctx names, and otherwise what to tell them privately (the
// table above).
func (b *Bot) AdminRefusal(ctx context.Context, user string) string {
	if refusal := b.access.checkUser(user); refusal != "" {
		return refusal
	}
	p, err := b.gate.Person(ctx, user)
	if err != nil {
		b.log.Warn("cannot tell whether a person is an admin", "user", user, "err", err)
		return "docsbot could not check your account with Slack just now, so nothing was changed. Please try again in a minute."
	}
	if p.Guest || !b.selfOrg(ctx).Includes(p) {
		return "Guests and people of other organisations cannot change docsbot's settings in this workspace."
	}
	admins := b.admins(ctx) // setinslack.go: DOCSBOT_ADMINS, or those set in Slack
	if p.Admin || user == b.installer(ctx) || slices.Contains(admins.Users, user) {
		return ""
	}
	if len(admins.Groups) > 0 {
		v := b.roles.Check(ctx, user, roles.Editors{Groups: admins.Groups})
		if v.Editor {
			return ""
		}
		if v.Err != nil {
			b.log.Warn("cannot tell whether a person is in the admins' groups", "user", user, "err", v.Err)
			return "docsbot could not ask Slack who is in the admins' user groups just now, so nothing was changed. Please try again in a minute."
		}
	}
	return "Only admins can change docsbot's settings here: " + b.AdminsText(ctx) + ". Ask one of them."
}

// AdminsText names who may set docsbot up in the workspace ctx names (the
// table above), to start a sentence: "The workspace's admins and owners
// in Slack, <@U…> (who installed docsbot), and <!subteam^S…>".
func (b *Bot) AdminsText(ctx context.Context) string {
	return "The workspace's admins and owners in Slack" + b.adminsNamed(ctx)
}

// IsAdmin reports whether user may change docsbot's settings
// (AdminRefusal), for what to show them.
func (b *Bot) IsAdmin(ctx context.Context, user string) bool { return b.AdminRefusal(ctx, user) == "" }

// installer is who installed docsbot in the workspace ctx names, "" when
// it was not installed by link.
func (b *Bot) installer(ctx context.Context) string {
	if in, ok := b.clients.(installers); ok && b.cfg.InstallMode {
		return in.InstalledBy(ctx, WorkspaceOf(ctx))
	}
	return ""
}

// adminsNamed names the admins besides Slack's own: ", <@U…> (who
// installed docsbot)" and those of DOCSBOT_ADMINS.
func (b *Bot) adminsNamed(ctx context.Context) string {
	out := ""
	if u := b.installer(ctx); u != "" {
		out += ", <@" + u + "> (who installed docsbot)"
	}
	if m := b.admins(ctx).Mentions(); m != "" {
		out += ", and " + m
	}
	return out
}
