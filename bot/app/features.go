package app

import (
	"fmt"
	"slices"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/helpchannels"
	"github.com/docsbot/docsbot/bot/home"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi"
)

// feature is one feature a replica may have: what it declares to Slack and
// how New registers it.
type feature struct {
	declaration func() bot.Declaration
	register    func(r *replica) error
}

// features are every feature, in the order New registers them: the Home,
// last, reads what the agent, the visitors and the docs health registered.
// A new feature is one line here.
func features() []feature {
	return []feature{
		{agent.Declaration, (*replica).agent},
		{visitors.Declaration, (*replica).visitors},
		{ask.Declaration, (*replica).ask},
		{helpchannels.Declaration, (*replica).helpChannels},
		{deploy.Declaration, (*replica).deploy},
		{health.Declaration, (*replica).health},
		{home.Declaration, (*replica).home},
	}
}

// Declarations are what a replica of every feature declares to Slack: the
// core's, then each feature's (bot.Declaration). The Slack app manifests are
// made of them (Manifest), doctor checks the bot token's scopes against them
// and the sandbox offers their commands.
func Declarations() bot.Declarations {
	ds := bot.Declarations{bot.Core()}
	for _, f := range features() {
		ds = append(ds, f.declaration())
	}
	return ds
}

// selected are the features of names (bot.Declaration.Name; none: all), in
// the order they register, or an error naming one no feature has.
func selected(names []string) ([]feature, error) {
	all := features()
	if len(names) == 0 {
		return all, nil
	}
	var out []feature
	for _, f := range all {
		if slices.Contains(names, f.declaration().Name) {
			out = append(out, f)
		}
	}
	for _, name := range names {
		if !slices.ContainsFunc(out, func(f feature) bool { return f.declaration().Name == name }) {
			return nil, fmt.Errorf("app: no feature is named %q", name)
		}
	}
	return out, nil
}

// has reports whether fs holds the feature named name.
func has(fs []feature, name string) bool {
	return slices.ContainsFunc(fs, func(f feature) bool { return f.declaration().Name == name })
}

// The features' registrations: each takes from r the feature's settings,
// its docs APIs and the parts of the store it uses, and leaves in r what
// another feature reads of it.

func (r *replica) agent() error {
	st := r.store
	r.jobs = agent.Register(r.b, r.cfg.Agent, apis(r, func(c *docsapi.Client) agent.JobsAPI { return c }),
		agent.JobStore{Jobs: st.Jobs(), RetryOffers: st.RetryOffers(), PendingStarts: st.PendingStarts(), Limits: st.Limits()})
	return nil
}

func (r *replica) visitors() error {
	st := r.store
	r.visitorsFeature = visitors.Register(r.b, r.cfg.Visitors, apis(r, func(c *docsapi.Client) visitors.VisitorsAPI { return c }),
		visitors.VisitorsStore{Analytics: st.Analytics(), Budgets: st.Limits(), Digests: st.Digests()})
	return nil
}

func (r *replica) ask() error {
	docs, err := answerDocs(r.cfg.Bot.Projects, r.deps.APIOptions)
	if err != nil {
		return err
	}
	ask.Register(r.b, r.cfg.Ask, docs, ask.AskStore{Conversations: r.store.Conversations(), Limits: r.store.Limits()})
	return nil
}

func (r *replica) helpChannels() error {
	docs, err := answerDocs(r.cfg.Bot.Projects, r.deps.APIOptions)
	if err != nil {
		return err
	}
	sites := map[string]mrkdwn.Sites{}
	for key, d := range docs {
		sites[key] = mrkdwn.NewSites(d.Site, r.cfg.Ask.LinkDomains)
	}
	r.help = helpchannels.Register(r.b, r.cfg.Help, sites, helpchannels.HelpStore{Modes: r.store.HelpChannels(), Calls: r.store.HelpChannels(),
		Limits: r.store.Limits(), Conversations: r.store.Conversations()})
	return nil
}

func (r *replica) deploy() error {
	deploy.Register(r.b, r.cfg.Deploy, apis(r, func(c *docsapi.Client) deploy.DeployAPI { return c }),
		deploy.DeployStore{Deploys: r.store.Deploys(), Limits: r.store.Limits()})
	return nil
}

func (r *replica) health() error {
	st := r.store
	r.healthFeature = health.Register(r.b, r.cfg.Health, apis(r, func(c *docsapi.Client) health.HealthAPI { return c }),
		health.HealthStore{Reports: st.Analytics(), Budgets: st.Limits(), Digests: st.HealthDigests()})
	return nil
}

func (r *replica) home() error {
	cfg := r.cfg.Home
	if cfg.Seen == nil {
		cfg.Seen = r.store.HomeSeen()
	}
	if cfg.Help == nil && r.help != nil {
		cfg.Help = r.help
	}
	// A feature left out is a nil interface, not a typed nil pointer.
	var vis home.Visitors
	if r.visitorsFeature != nil {
		vis = r.visitorsFeature
	}
	var docsHealth home.Health
	if r.healthFeature != nil {
		docsHealth = r.healthFeature
	}
	home.Register(r.b, cfg, r.jobs, vis, docsHealth)
	return nil
}
