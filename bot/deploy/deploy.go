package deploy

import (
	"context"
	"log/slog"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Command is the slash command of deployments and previews.
const Command = "/docs-deploy"

// Name is the feature's name (app.Config.Features).
const Name = "deploy"

// Declaration is what /docs-deploy serves of Slack (declare.Declaration): the
// command and the buttons of its question. Register routes exactly these.
func Declaration() declare.Declaration {
	return declare.Declaration{
		Name: Name,
		Commands: []declare.Command{{Name: Command,
			Description: "Deploy the docs, or preview a branch, and follow it live",
			UsageHint:   "[preview <branch> | status | help] [project=NAME]",
			Examples:    []string{Command, Command + " preview docs/new-quickstart", Command + " status"}}},
		Actions: []string{ActionConfirm, ActionCancel},
	}
}

// The kinds of inbox work.
const (
	workStart  = "deploy.start"  // call the API to deploy or build a preview (marks before and after)
	workFollow = "deploy.follow" // read the status once, show it, come back later until it ends
)

// The buttons of the question a bare /docs-deploy asks (confirm.go).
const (
	ActionConfirm = "docs_deploy_confirm" // Deploy: its value is the JSON of a confirmation
	ActionCancel  = "docs_deploy_cancel"
)

// DefaultPerUser is how many deployments and previews one person may start
// in an hour (DOCSBOT_DEPLOY_PER_USER).
const DefaultPerUser = 10

// The docs API's limits, shared by the whole organisation (docs-api-beyond-seed.md, section 4).
var (
	deployLimit  = limit{n: 10, window: 10 * time.Second} // deployments and automation triggers
	previewLimit = limit{n: 5, window: time.Minute}
)

// limit is a number of calls in a sliding window.
type limit struct {
	n      int
	window time.Duration
}

// DeployAPI is what the deployments use of a project's docs API
// (*docsapi.Client).
type DeployAPI interface {
	Deploy(ctx context.Context) (*docsapi.Deployment, error)
	DeployStatus(ctx context.Context, statusID string) (*docsapi.DeployStatus, error)
	Preview(ctx context.Context, branch string) (*docsapi.Deployment, error)
}

// Deploys keeps the deployments started (store.Deploys).
type Deploys interface {
	SaveDeploy(ctx context.Context, team string, r store.DeployRecord) error
	AddDeploy(ctx context.Context, team string, r store.DeployRecord) error
	UpdateDeploy(ctx context.Context, team string, r store.DeployRecord) error
	Deploy(ctx context.Context, team, id string) (store.DeployRecord, error)
	RecentDeploys(ctx context.Context, team string, n int) ([]store.DeployRecord, error)
}

// Limits holds the organisation's budgets and each person's share across
// replicas (store.Limits).
type Limits interface {
	TakeBudget(ctx context.Context, b store.Budget, n int) (store.Grant, error)
	ReturnBudget(ctx context.Context, b store.Budget, tokens []string) error
}

// Deps is what the deployments use: one part of the store each
// (store/doc.go, "Parts"), embedded and named as the store names it; every
// part is required.
type Deps struct {
	Deploys // store.Deploys
	Limits  // store.Limits
}

// Config holds the deployments' settings; zero values take the defaults.
type Config struct {
	// FollowFor is how long a deployment is followed before docsbot stops
	// showing its status (default an hour).
	FollowFor time.Duration
	// PerUser is how many deployments and previews one person may start in
	// an hour, across replicas (DefaultPerUser when 0 or less).
	PerUser int
	// Now is the clock (time.Now).
	Now func() time.Time
}

func (c Config) withDefaults() Config {
	if c.FollowFor <= 0 {
		c.FollowFor = time.Hour
	}
	if c.PerUser <= 0 {
		c.PerUser = DefaultPerUser
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// deploys is the feature.
type deploys struct {
	core  *bot.Bot
	cfg   Config
	store Deps
	log   *slog.Logger
}

// Register adds /docs-deploy to b: deployments and previews of each
// project's docs, by its docs API (b.Project), followed until they
// end in one live message.
func Register(b *bot.Bot, cfg Config, st Deps) (*Feature, error) {
	routes := b.Router()
	d := &deploys{core: b, cfg: cfg.withDefaults(), store: st, log: b.Logger().With("feature", "deploy")}
	routes.Declare(Declaration())
	routes.HandleCommand(Command, d.onCommand)
	routes.HandleBlockAction(ActionConfirm, d.onConfirm)
	routes.HandleBlockAction(ActionCancel, d.onCancel)
	routes.HandleWork(workStart, bot.WorkHandler{Do: d.doStart, GiveUp: d.giveUp})
	routes.HandleWork(workFollow, bot.WorkHandler{Do: d.doFollow})
	return &Feature{}, nil
}

// Feature is what other features may read of the deployments: nothing yet.
type Feature struct{}
