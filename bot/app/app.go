package app

import (
	"errors"
	"fmt"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/helpchannels"
	"github.com/docsbot/docsbot/bot/home"
	"github.com/docsbot/docsbot/bot/install"
	"github.com/docsbot/docsbot/bot/pane"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/settings"
	"github.com/docsbot/docsbot/bot/unfurl"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Config is the settings of a replica: the core's and each feature's,
// zero values taking their defaults, and which features it has. `docsbot
// serve` fills it from the settings table (cmd/internal/config), the test
// harness (bot/bottest) and the sandbox build it themselves.
type Config struct {
	// Bot is the core's. Bot.Projects are the docs projects served (the
	// implicit one, project.Single, without a projects file); they must be
	// set: each gets its docs API client.
	Bot      bot.Config
	Agent    agent.Config
	Visitors visitors.Config
	// Home is the App Home's; Home.Seen, when nil, is the store's
	// (store.HomeSeen).
	Home home.Config
	// Ask is the answers from the docs'; they answer from the projects
	// whose Assistant is set.
	Ask ask.Config
	// Deploy is the deployments'.
	Deploy deploy.Config
	// Health is the docs health's.
	Health health.Config
	// Unfurl is the docs links' unfurls'.
	Unfurl unfurl.Config
	// Help is the help channels'.
	Help helpchannels.Config
	// Pane is the pane's (Slack's side pane of the app).
	Pane pane.Config
	// Settings are the Home's Settings' (bot/settings), and Connect how
	// the projects connected there are reached.
	Settings settings.Config
	Connect  Connect
	// Install is install mode's, used when Bot.InstallMode is set: the
	// workspaces that installed docsbot by link, each served with its own
	// token (bot/install).
	Install install.Config
	// Now is the one clock of the features that tell time (the agent's,
	// the visitors', the answers' help channels', the deployments', the
	// docs health's, the pane's, the unfurls'): New hands it to
	// each as its Config.Now where that is nil (features.go, replica.clock);
	// time.Now when nil. A test sets it once (bottest.Config.Now) and moves
	// time for every feature at once.
	Now func() time.Time
	// Features name the features registered (declare.Declaration.Name, such as
	// agent.Name); none: every one, as `docsbot serve` runs them. A harness
	// that tests one feature alone names it.
	Features []string
	// Register, when set, registers a caller's own entry points on the bot
	// after the features' (a test's).
	Register func(b *bot.Bot)
}

// Deps are what a replica runs on.
type Deps struct {
	// Slack is the bot's Web API client: the bot token and, in Socket
	// Mode, the app-level token (bot.New).
	Slack *slack.Client
	// Store keeps every replica's shared state in Redis: New gives the core
	// and each feature the parts of it they use (store/doc.go, "Parts").
	Store *store.Store
	// APIOptions are added to the settings of each project's docs API
	// client (an HTTP client, a logger, a retry policy).
	APIOptions []docsapi.Option
	// SlackOptions make each workspace's client in install mode (the API
	// URL, retries), as Slack was made with.
	SlackOptions []slack.Option
}

// replica is a bot being built: what the features' registrations
// (features.go) take, and what they leave for the ones after them.
type replica struct {
	b     *bot.Bot
	cfg   Config
	deps  Deps
	store *store.Store
	// What the Home reads of the other features; nil when left out.
	jobs            *agent.Feature
	visitorsFeature *visitors.Feature
	healthFeature   *health.Feature
	// deploying says the deployments feature is there (the pane's Deploy
	// status prompt reads its records).
	deploying       bool
	help            *helpchannels.Feature
	settingsFeature *settings.Feature
}

// New builds a replica, ready to Run: the core with the features of cfg
// registered, and each project of cfg.Bot.Projects (the implicit one too)
// with a docs API client of its own, given to every feature under the
// project's name. What the features declare is what they route
// (bot.Router.CheckRoutes), or New fails. A client that cannot be built is a
// *project.ClientError, wrapped.
func New(cfg Config, d Deps) (*bot.Bot, error) {
	fs, err := selected(cfg.Features)
	switch {
	case err != nil:
		return nil, err
	case cfg.Bot.Projects == nil:
		return nil, errors.New("app: no docs projects (Config.Bot.Projects)")
	case has(fs, home.Name) && !has(fs, agent.Name):
		return nil, errors.New("app: the App Home needs the agent feature")
	}
	clients, err := project.Clients(cfg.Bot.Projects, d.APIOptions...)
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	assistants, err := project.Assistants(cfg.Bot.Projects, d.APIOptions...)
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	cfg.Bot.Clients = bot.Clients{API: clients, Assistants: assistants}
	if err := connectInSlack(&cfg, d); err != nil {
		return nil, err
	}
	st := d.Store
	cfg.Bot.WorkspaceSettings = st.WorkspaceSettings() // the settings set in Slack (bot/setinslack.go)
	var dir *install.Directory
	if cfg.Bot.InstallMode {
		if dir, err = directory(cfg, d); err != nil {
			return nil, err
		}
		cfg.Bot.Workspaces = dir
		cfg.Ask.PerWorkspace = true // each workspace its own DOCSBOT_ASK_BUDGET
	}
	r := &replica{cfg: cfg, deps: d, store: st,
		b: bot.New(cfg.Bot, d.Slack, bot.WorkStore{Inbox: st.Inbox(), LastChoices: st.Choices()})}
	for _, f := range fs {
		if err := f.register(r); err != nil {
			return nil, err
		}
	}
	if dir != nil {
		if err := r.install(dir); err != nil {
			return nil, err
		}
	}
	if err := r.b.Router().CheckRoutes(); err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	if cfg.Register != nil {
		cfg.Register(r.b)
	}
	return r.b, nil
}
