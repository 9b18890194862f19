package app

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/home"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Config is the settings of a replica: the core's and each feature's,
// zero values taking their defaults, and which features it has.
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
	// Features are the features registered (zero: All).
	Features Features
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
}

// New builds a replica, ready to Run: the core with the features of cfg
// registered, and each project of cfg.Bot.Projects (the implicit one too)
// with a docs API client of its own, given to every feature under the
// project's name. A client that cannot be built is a *project.ClientError,
// wrapped.
func New(cfg Config, d Deps) (*bot.Bot, error) {
	set := cfg.Bot.Projects
	switch {
	case set == nil:
		return nil, errors.New("app: no docs projects (Config.Bot.Projects)")
	case cfg.Features.has(Home) && !cfg.Features.has(Agent):
		return nil, errors.New("app: the App Home needs the agent feature")
	}
	clients, err := project.Clients(set, d.APIOptions...)
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	st := d.Store
	b := bot.New(cfg.Bot, d.Slack, bot.WorkStore{Inbox: st.Inbox(), LastChoices: st.Choices()})
	var jobs *agent.Feature
	var vis home.Visitors
	if cfg.Features.has(Agent) {
		jobs = agent.Register(b, cfg.Agent, project.Views(clients, func(c *docsapi.Client) agent.JobsAPI { return c }),
			agent.JobStore{Jobs: st.Jobs(), RetryOffers: st.RetryOffers(), PendingStarts: st.PendingStarts(), Limits: st.Limits()})
	}
	if cfg.Features.has(Visitors) {
		vis = visitors.Register(b, cfg.Visitors, project.Views(clients, func(c *docsapi.Client) visitors.VisitorsAPI { return c }),
			visitors.VisitorsStore{Analytics: st.Analytics(), Budgets: st.Limits(), Digests: st.Digests()})
	}
	if cfg.Features.has(Ask) {
		docs, err := answerDocs(set, d.APIOptions)
		if err != nil {
			return nil, err
		}
		ask.Register(b, cfg.Ask, docs, ask.AskStore{Conversations: st.Conversations(), Limits: st.Limits()})
	}
	if cfg.Features.has(Deploy) {
		deploy.Register(b, cfg.Deploy, project.Views(clients, func(c *docsapi.Client) deploy.DeployAPI { return c }),
			deploy.DeployStore{Deploys: st.Deploys(), Limits: st.Limits()})
	}
	var docsHealth home.Health
	if cfg.Features.has(Health) {
		docsHealth = health.Register(b, cfg.Health, project.Views(clients, func(c *docsapi.Client) health.HealthAPI { return c }),
			health.HealthStore{Reports: st.Analytics(), Budgets: st.Limits(), Digests: st.HealthDigests()})
	}
	if cfg.Features.has(Home) {
		if cfg.Home.Seen == nil {
			cfg.Home.Seen = st.HomeSeen()
		}
		home.Register(b, cfg.Home, jobs, vis, docsHealth)
	}
	if cfg.Register != nil {
		cfg.Register(b)
	}
	return b, nil
}

// answerDocs is what answers from each project that has a docs assistant,
// by project key.
func answerDocs(set *project.Set, opts []docsapi.Option) (map[string]ask.Docs, error) {
	assistants, err := project.Assistants(set, opts...)
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	docs := map[string]ask.Docs{}
	for _, p := range set.All() {
		a, ok := assistants[p.Name]
		if !ok {
			continue
		}
		d := ask.Docs{Assistant: a}
		if p.Assistant.SiteURL != "" {
			site, err := url.Parse(p.Assistant.SiteURL)
			if err != nil {
				return nil, fmt.Errorf("app: project %s: the docs site's URL: %w", p.Name, err)
			}
			d.Site = site
		}
		docs[bot.ProjectKey(p)] = d
	}
	return docs, nil
}
