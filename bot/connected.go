package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Docs projects connected from Slack. An admin of a workspace may connect
// the workspace's docs from docsbot's Home (bot/settings saves them in
// store.Connections); the core serves them beside the projects file's:
// ProjectsIn adds a workspace's connected projects to the file's, and
// Project finds one by its key, "NAME@TEAM" (ProjectKey), with clients
// built as the file's are (Config.ProjectClients).
//
// Each replica keeps a workspace's connected projects read for at most
// teamFresh, and forgets them at once when any replica says they changed
// (Connected.Changes), so that a change is in force on every replica
// within teamFresh even when a message is lost (teamcache.go). When Redis
// cannot be read, what was read last is used.

// connectedReadWait bounds a read of connected projects made without a
// caller's context (Bot.Project).
const connectedReadWait = 2 * time.Second

// ConnectedStore keeps the docs projects connected from Slack
// (store.Connections).
type ConnectedStore interface {
	List(ctx context.Context, team string) ([]store.Connection, map[string]error, error)
	Changes(ctx context.Context) <-chan string
}

// ProjectClients builds the docs API client and, when the project has one,
// the docs assistant of a project connected from Slack.
type ProjectClients func(p project.Project) (*docsapi.Client, *docsapi.Assistant, error)

// connectedRead is what a replica read of one workspace's connections.
type connectedRead struct {
	// projects are those connected now, for people to choose.
	projects []project.Project
	// served are those, and those disconnected that still have work, by
	// key.
	served map[string]Served
}

// connected is the replica's cache of the connected projects.
type connected struct {
	src   ConnectedStore
	build ProjectClients
	log   func(msg string, args ...any)
	cache *teamCache[connectedRead]
}

func newConnected(src ConnectedStore, build ProjectClients, log func(msg string, args ...any)) *connected {
	c := &connected{src: src, build: build, log: log}
	c.cache = newTeamCache(c.load)
	return c
}

// ConnectsInSlack reports whether docs projects may be connected from
// Slack here: docsbot keeps secrets (DOCSBOT_SECRETS_KEY).
func (b *Bot) ConnectsInSlack() bool { return b.connected != nil }

// connectedKey is the key of a project connected in team (ProjectKey).
func connectedKey(name, team string) string { return name + "@" + team }

// connectedProject is the project of connection c.
func connectedProject(c store.Connection) project.Project {
	return project.Project{
		Name: c.Name, ID: c.ProjectID, APIKey: project.NewSecret(c.APIKey),
		KeyFrom:        "the key connected from Slack",
		VisitorsBudget: connectedKey(c.Name, c.Team), Workspace: c.Team,
		Assistant: project.Assistant{Key: project.NewSecret(c.AssistantKey), KeyFrom: "the key connected from Slack",
			Domain: c.Domain, SiteURL: c.SiteURL},
	}
}

// in returns the projects connected in team: read at most teamFresh ago,
// else read now; on an error, what was read last (none if nothing was)
// with the error.
func (c *connected) in(ctx context.Context, team string) ([]project.Project, error) {
	read, err := c.read(ctx, team)
	return read.projects, err
}

func (c *connected) read(ctx context.Context, team string) (connectedRead, error) {
	return c.cache.get(ctx, team)
}

// load reads the projects connected in team and builds their clients.
func (c *connected) load(ctx context.Context, team string) (connectedRead, error) {
	list, bad, err := c.src.List(ctx, team)
	if err != nil {
		return connectedRead{}, fmt.Errorf("bot: the docs projects connected in %s: %w", team, err)
	}
	for name, err := range bad {
		c.log("a docs project connected from Slack cannot be opened (its secrets key is no longer in DOCSBOT_SECRETS_KEY?)", "team", team, "project", name, "err", err)
	}
	fresh := connectedRead{served: map[string]Served{}}
	for _, conn := range list {
		p := connectedProject(conn)
		api, assistant, err := c.build(p)
		if err != nil {
			c.log("a docs project connected from Slack has no client", "team", team, "project", conn.Name, "err", err)
			continue
		}
		key := connectedKey(conn.Name, team)
		if conn.Retired.IsZero() {
			fresh.projects = append(fresh.projects, p)
		}
		// A project disconnected still serves the work it has (store.RetiredKept).
		fresh.served[key] = Served{Project: p, Key: key, API: api, AssistantAPI: assistant}
	}
	return fresh, nil
}

// served is the project keyed key (NAME@TEAM) with its clients.
func (c *connected) served(ctx context.Context, key string) (Served, bool) {
	_, team, ok := strings.Cut(key, "@")
	if !ok {
		return Served{}, false
	}
	read, _ := c.read(ctx, team)
	s, ok := read.served[key]
	return s, ok
}

// listen forgets each workspace another replica says changed, until ctx
// ends.
func (c *connected) listen(ctx context.Context) { c.cache.listen(c.src.Changes(ctx)) }

// ConnectedChanged forgets what this replica read of team's connected
// projects, so that the next look reads them: the settings call it after
// a change, before every replica hears of it.
func (b *Bot) ConnectedChanged(team string) {
	if b.connected != nil {
		b.connected.cache.forget(team)
	}
}

// BuildProjectClients builds p's docs API client and assistant as a
// project connected from Slack is served (Config.ProjectClients), for
// checking a key before it is saved.
func (b *Bot) BuildProjectClients(p project.Project) (*docsapi.Client, *docsapi.Assistant, error) {
	if b.cfg.ProjectClients == nil {
		return nil, nil, fmt.Errorf("bot: docs projects cannot be connected from Slack here: %w", ErrNotConnectable)
	}
	return b.cfg.ProjectClients(p)
}

// ErrNotConnectable: docsbot keeps no secrets (DOCSBOT_SECRETS_KEY), so no
// docs project can be connected from Slack.
var ErrNotConnectable = errors.New("no secrets key")
