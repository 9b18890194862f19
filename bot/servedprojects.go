package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/docsapi"
)

// Projects are the docs projects a bot serves (project.Set: All, Get,
// Implicit, Names, ...) and the choice of one for a command (Resolve,
// Remember).
type Projects struct {
	*project.Set
	b *Bot
}

// Projects returns every docs project this bot serves: Config.Projects, or,
// when none were given, an implicit set of one project (project.Single).
// What a person may name or choose is ProjectsIn.
func (b *Bot) Projects() Projects { return Projects{Set: b.projects, b: b} }

// ProjectsIn returns the docs projects of the workspace ctx names
// (WorkspaceOf): in install mode those of the projects file that serve it
// (project.Set.ForWorkspace: the file's teams), otherwise every one. It is
// what a person there may choose, name and be shown; an empty set means
// the workspace's docs are not connected (project.NoProjectsError).
func (b *Bot) ProjectsIn(ctx context.Context) Projects {
	ps, err := b.projectsIn(ctx)
	if err != nil {
		b.log.Warn("the docs projects connected from Slack cannot be read now; serving those read last", "err", err)
	}
	return ps
}

// projectsIn is ProjectsIn, and the error of reading the projects
// connected from Slack (the set then has those read last, if any). The
// channels' default projects set in Slack go over the file's
// (setinslack.go).
func (b *Bot) projectsIn(ctx context.Context) (Projects, error) {
	set := b.projects
	ws := WorkspaceOf(ctx)
	if b.cfg.InstallMode {
		set = set.ForWorkspace(ws.Team, ws.Enterprise)
	}
	var err error
	if b.connected != nil {
		var conn []project.Project
		conn, err = b.connected.in(ctx, b.settingsTeam(ctx))
		if len(conn) > 0 {
			set = set.With(conn...)
		}
	}
	return Projects{Set: b.withChannelDefaults(ctx, set), b: b}, err
}

// settingsTeam is the workspace whose settings apply to the work ctx
// carries: the workspace it names, else (work recorded before work named
// its workspace) the bot's own.
func (b *Bot) settingsTeam(ctx context.Context) string {
	if ws := WorkspaceOf(ctx); ws.Team != "" {
		return ws.Team
	}
	return b.self.TeamID
}

// Resolution is which project a command is for (project.Resolution) and,
// when decided, that project with its clients (Served; its API nil when
// docsbot cannot reach the project).
type Resolution struct {
	project.Resolution
	Served Served
}

// Resolve decides which project a command is for (project.Resolver:
// project=NAME in the text, the channel's default, the person's last choice,
// else Resolution.Ask): the one choice flow of every feature. When it asks,
// a feature asks with a ProjectQuestion where it can show buttons, in words
// (project.Which) where it cannot. The person's last choice is read from the
// bot's store. Errors are *project.UnknownError, *project.TokenError or the
// store's, wrapped.
func (ps Projects) Resolve(ctx context.Context, req project.Request) (Resolution, error) {
	b := ps.b
	res, err := project.NewResolver(ps.Set, b.store.LastChoices).Resolve(ctx, req)
	out := Resolution{Resolution: res}
	if err == nil && !res.Ask {
		out.Served, _ = b.Project(ProjectKey(res.Project))
	}
	return out, err
}

// Choose decides in a command's work the project of req where the person
// is answered in words (a response_url, no buttons): the project reached
// (Resolve), or "" and what to tell them: which project (project.Which, noun
// being what they typed) when nothing decides or the store cannot say, a
// project docsbot does not reach.
func (ps Projects) Choose(ctx context.Context, req project.Request, noun string) (Served, string) {
	res, err := ps.Resolve(ctx, req)
	switch {
	case errors.As(err, new(*project.NoProjectsError)):
		return Served{}, project.NotConnected
	case err != nil || res.Ask:
		return Served{}, project.Which(ps, noun)
	case res.Served.API == nil:
		return Served{}, project.NotServed(ProjectKey(res.Project))
	}
	return res.Served, ""
}

// Remember keeps name as the project user of team chose last (when
// they chose by project=NAME or by a button), so that their next command
// without one goes there. It does nothing for an implicit set.
func (ps Projects) Remember(ctx context.Context, team, user, name string) error {
	return project.NewResolver(ps.Set, ps.b.store.LastChoices).Remember(ctx, team, user, name)
}

// ProjectKey is the name a feature records and keys state by for p: "" for
// the implicit project, so that an installation without a projects file
// keeps the keys and records it had; otherwise p.Name.
func ProjectKey(p project.Project) string {
	switch {
	case p.Implicit:
		return ""
	case p.Workspace != "":
		return connectedKey(p.Name, p.Workspace) // connected.go
	}
	return p.Name
}

// Served is a docs project the bot serves with its docs API clients: what
// a feature reaches a project by (Bot.Project), whatever it recorded.
type Served struct {
	project.Project
	// Key is what features record and key state by (ProjectKey).
	Key string
	// API is the project's docs API client, never nil.
	API *docsapi.Client
	// AssistantAPI is the project's docs assistant, nil when it has none
	// (Project.Assistant).
	AssistantAPI *docsapi.Assistant
}

// Clients are the docs API clients of the projects served, by project
// name (project.Clients, project.Assistants): bot/app builds them.
type Clients struct {
	API        map[string]*docsapi.Client
	Assistants map[string]*docsapi.Assistant
}

// Project is the project a record keyed key names (ProjectKey's inverse),
// with its clients: "" is the implicit project, served without a projects
// file, and nothing else; any other key is a project's name. It is false
// when docsbot does not serve it (a project removed from the projects
// file, or no docs API client built for it). It is the one way a feature
// reaches a project and its clients.
func (b *Bot) Project(key string) (Served, bool) {
	if strings.Contains(key, "@") {
		if b.connected == nil {
			return Served{}, false
		}
		// Bounded, as the callers have no context: the answer is usually
		// in this replica's memory (connected.go).
		ctx, cancel := context.WithTimeout(context.Background(), connectedReadWait)
		defer cancel()
		return b.connected.served(ctx, key)
	}
	var p project.Project
	switch {
	case key == "" && b.projects.Implicit():
		p = b.projects.All()[0]
	case key == "":
		return Served{}, false
	default:
		var ok bool
		if p, ok = b.projects.Get(key); !ok {
			return Served{}, false
		}
	}
	api := b.cfg.Clients.API[p.Name]
	return Served{Project: p, Key: key, API: api, AssistantAPI: b.cfg.Clients.Assistants[p.Name]}, api != nil
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
	if strings.Contains(name, "@") { // connected from Slack: DOCSBOT_EDITORS alone
		if _, ok := b.Project(name); !ok {
			return nil, false, false
		}
		return lists, b.cfg.Editors.Empty(), true
	}
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
