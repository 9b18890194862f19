package bot

import (
	"context"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/store"
)

// A workspace on every piece of work. Each delivery from Slack names the
// workspace it came from (team, and enterprise on Enterprise Grid); the
// dispatch puts it in the handler's context (WithWorkspace), the inbox
// records it with the work (store.Work.Workspace: AcceptEnvelope and
// QueueFromWork take it from the context when the work names none), and the
// inbox runner puts the work's workspace in its handler's context again. A
// Slack call made for a piece of work goes through one lookup from that
// workspace to its client, b.SlackIn(ctx).
//
// With one workspace (its tokens from the environment) every workspace,
// the zero one included (work recorded before work named it), is served by
// the bot's one client: nothing changes for the operator.

// Workspace is the Slack workspace a piece of work is for (store.Workspace).
type Workspace = store.Workspace

// workspaceKey is the context key of the workspace of a request or work.
type workspaceKey struct{}

// WithWorkspace returns ctx naming ws as the workspace of what it carries.
func WithWorkspace(ctx context.Context, ws Workspace) context.Context {
	return context.WithValue(ctx, workspaceKey{}, ws)
}

// WorkspaceOf is the workspace ctx names; zero when it names none.
func WorkspaceOf(ctx context.Context) Workspace {
	ws, _ := ctx.Value(workspaceKey{}).(Workspace)
	return ws
}

// Workspaces looks up the Slack client of a workspace and who the bot is
// there (install mode: each workspace's own token and bot user). nil
// (bot.Config) is the one workspace: the bot's own client and identity for
// every workspace.
type Workspaces interface {
	// Client is the client of ws's token; one that can make no call (no
	// token) when docsbot is not installed there or its token cannot be
	// had: never another workspace's.
	Client(ctx context.Context, ws Workspace) *slack.Client
	// Identity is who the bot is in ws; false when docsbot is not
	// installed there.
	Identity(ctx context.Context, ws Workspace) (Identity, bool)
	// Unserved is "" when ws can be served, and otherwise what a person
	// there is told in a slash command's answer (which needs no token):
	// install docsbot again, and how.
	Unserved(ctx context.Context, ws Workspace) string
}

// SlackIn is the Slack client of the workspace ctx names (WorkspaceOf), the
// one way docsbot reaches Slack's Web API. Its calls wait out Slack's 429s
// (SlackOptions); posts into a channel go through Post, edits through Edit.
func (b *Bot) SlackIn(ctx context.Context) *slack.Client {
	if b.clients == nil {
		return b.slack
	}
	return b.clients.Client(ctx, WorkspaceOf(ctx))
}

// Self is who the bot is in the workspace ctx names (WorkspaceOf): the
// bot's one identity, learnt from auth.test when Run started, or in install
// mode the workspace's installation's (zero where docsbot is not
// installed).
func (b *Bot) Self(ctx context.Context) Identity {
	if !b.cfg.InstallMode || b.clients == nil {
		return b.self
	}
	ws := WorkspaceOf(ctx)
	id, _ := b.clients.Identity(ctx, ws)
	return id
}

// workOf names in w the workspace ctx names, when w names none.
func workOf(ctx context.Context, w store.Work) store.Work {
	if w.Workspace.IsZero() {
		w.Workspace = WorkspaceOf(ctx)
	}
	return w
}

// commandWorkspace, eventWorkspace and interactionWorkspace are the
// workspace a delivery came from.
func commandWorkspace(c slack.SlashCommand) Workspace {
	return Workspace{Team: c.TeamID, Enterprise: c.EnterpriseID}
}

func eventWorkspace(ev slackevents.EventsAPIEvent) Workspace {
	return Workspace{Team: ev.TeamID, Enterprise: ev.EnterpriseID}
}

func interactionWorkspace(ic slack.InteractionCallback) Workspace {
	team := ic.Team.ID
	if team == "" {
		team = ic.View.TeamID
	}
	return Workspace{Team: team, Enterprise: ic.Enterprise.ID}
}
