package bot

import (
	"context"
	"strings"

	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
)

// Projects returns the docs projects this bot serves: Config.Projects, or,
// when none were given, an implicit set of one project (project.Single) that
// keeps today's behaviour. It is never nil.
func (b *Bot) Projects() *project.Set { return b.projects }

// ResolveProject decides which project a command is for (project.Resolver:
// project=NAME in the text, the channel's default, the person's last choice,
// else Resolution.Ask). The person's last choice is read from the bot's
// store. Errors are *project.UnknownError, *project.TokenError or the
// store's, wrapped.
func (b *Bot) ResolveProject(ctx context.Context, req project.Request) (project.Resolution, error) {
	return project.NewResolver(b.projects, b.store.LastChoices).Resolve(ctx, req)
}

// RememberProject keeps name as the project user of team chose last (when
// they chose by project=NAME or by a button), so that their next command
// without one goes there. It does nothing for an implicit set.
func (b *Bot) RememberProject(ctx context.Context, team, user, name string) error {
	return project.NewResolver(b.projects, b.store.LastChoices).Remember(ctx, team, user, name)
}

// ProjectKey is the name a feature records and keys state by for p: "" for
// the implicit project, so that an installation without a projects file
// keeps the keys and records it had; otherwise p.Name.
func ProjectKey(p project.Project) string {
	if p.Implicit {
		return ""
	}
	return p.Name
}

// ProjectByKey returns the project a record names (ProjectKey's inverse):
// the implicit project, or the only project, for ""; false when the name is
// no longer in the projects file.
func (b *Bot) ProjectByKey(key string) (project.Project, bool) {
	if key == "" {
		if b.projects.Implicit() || b.projects.Len() == 1 {
			return b.projects.All()[0], true
		}
		return project.Project{}, false
	}
	return b.projects.Get(key)
}

// LegacyProject is the project that owns what was recorded before docsbot
// served projects (project key ""), where it was created: the implicit
// project or, with a projects file, the project whose id is
// Config.LegacyProjectID (the one project docsbot served then), else the
// file's first. The agent follows the jobs recorded without a project in
// its docs API.
func (b *Bot) LegacyProject() project.Project {
	all := b.projects.All()
	for _, p := range all {
		if b.cfg.LegacyProjectID != "" && p.ID == b.cfg.LegacyProjectID {
			return p
		}
	}
	return all[0]
}

// editorLists returns the editor lists that decide whether someone may
// change things in the project named name: DOCSBOT_EDITORS and the
// project's editors. With name "" the person only needs to be an editor of
// some project (the ack of a command whose project is not decided yet): ok
// is false when some project has no editors at all, which makes everyone an
// editor there. A name docsbot no longer serves (not in the projects file)
// has no editors: known is false, and the caller refuses.
func (b *Bot) editorLists(name string) (lists []roles.Editors, everyone, known bool) {
	lists = []roles.Editors{b.cfg.Editors}
	if name != "" {
		p, ok := b.projects.Get(name)
		if !ok {
			return nil, false, false
		}
		return append(lists, p.Editors), false, true
	}
	if b.cfg.Editors.Empty() {
		for _, p := range b.projects.All() {
			if p.Editors.Empty() {
				return nil, true, true
			}
		}
	}
	for _, p := range b.projects.All() {
		lists = append(lists, p.Editors)
	}
	return lists, false, true
}

// projectGoneRefusal refuses a change in a project docsbot no longer serves.
func projectGoneRefusal(name string) string {
	return "docsbot no longer serves the docs project `" + mrkdwn.Escape(name) + "`, so nothing can be started or changed in it from Slack."
}

// OpenToEveryone names the projects of cfg in which everyone in the
// workspace may start jobs (and so open pull requests): nobody is named an
// editor, neither in DOCSBOT_EDITORS nor in the project (project.ImplicitName
// for the one served without a projects file). serve and doctor warn of them.
func OpenToEveryone(cfg Config) []string {
	if !cfg.Editors.Empty() {
		return nil
	}
	set := cfg.Projects
	if set == nil {
		set = project.Single("", "", "")
	}
	var open []string
	for _, p := range set.All() {
		if p.Editors.Empty() {
			open = append(open, p.Name)
		}
	}
	return open
}

// OpenWarning is what serve and doctor say of the projects open to
// everyone (OpenToEveryone), "" when there are none.
func OpenWarning(open []string) string {
	switch {
	case len(open) == 0:
		return ""
	case len(open) == 1 && open[0] == project.ImplicitName:
		return "nobody is named an editor, so everyone in the workspace can start docs agent jobs (and open pull requests); name them with DOCSBOT_EDITORS"
	}
	return "nobody is named an editor of the docs project(s) " + strings.Join(open, ", ") +
		", so everyone in the workspace can start docs agent jobs there (and open pull requests); name them with DOCSBOT_EDITORS or the project's editors in the projects file"
}

// OfProject is " of project *api*" after a noun, or "" for an unnamed
// project (name "").
func OfProject(name string) string {
	if name == "" {
		return ""
	}
	return " of project *" + mrkdwn.Escape(name) + "*"
}

// OfProjectPlain is OfProject without formatting, for notification text
// and file titles.
func OfProjectPlain(name string) string {
	if name == "" {
		return ""
	}
	return " of project " + mrkdwn.Escape(name)
}

// ProjectArg is what a command needs to name the project: " project=api",
// or "" for an unnamed project.
func ProjectArg(name string) string {
	if name == "" {
		return ""
	}
	return " project=" + mrkdwn.Escape(name)
}
