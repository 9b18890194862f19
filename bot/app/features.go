package app

import (
	"fmt"
	"slices"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/helpchannels"
	"github.com/docsbot/docsbot/bot/home"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/bot/pane"
	"github.com/docsbot/docsbot/bot/settings"
	"github.com/docsbot/docsbot/bot/unfurl"
	"github.com/docsbot/docsbot/bot/visitors"
)

// feature is one feature a replica may have: what it declares to Slack and
// how New registers it.
type feature struct {
	declaration func() declare.Declaration
	register    func(r *replica) error
}

// features are every feature, in the order New registers them: the answers
// read the help channels' modes, the pane what the docs health and
// the deployments registered,
// the Home, last, what the agent, the visitors and the docs health did.
// A new feature is one line here.
func features() []feature {
	return []feature{
		{agent.Declaration, (*replica).agent},
		{visitors.Declaration, (*replica).visitors},
		{helpchannels.Declaration, (*replica).helpChannels},
		{ask.Declaration, (*replica).ask},
		{deploy.Declaration, (*replica).deploy},
		{health.Declaration, (*replica).health},
		{pane.Declaration, (*replica).pane},
		{unfurl.Declaration, (*replica).unfurl},
		{settings.Declaration, (*replica).settings},
		{home.Declaration, (*replica).home},
	}
}

// Declarations are what a replica of every feature declares to Slack: the
// core's, then each feature's (declare.Declaration). The Slack app manifests are
// made of them (Manifest), doctor checks the bot token's scopes against them
// and the sandbox offers their commands.
func Declarations() declare.Declarations {
	ds := declare.Declarations{bot.Core()}
	for _, f := range features() {
		ds = append(ds, f.declaration())
	}
	return ds
}

// selected are the features of names (declare.Declaration.Name; none: all), in
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

// The features' registrations: each takes from r the feature's settings
// (with the replica's clock), its docs APIs and the parts of the store it
// uses, and leaves in r what another feature reads of it.

// clock is a feature's clock: its own (own, its Config.Now) when set, else
// the replica's one clock (Config.Now); nil, the feature's default
// (time.Now), when neither is.
func (r *replica) clock(own func() time.Time) func() time.Time {
	if own != nil {
		return own
	}
	return r.cfg.Now
}

func (r *replica) agent() (err error) {
	st := r.store
	cfg := r.cfg.Agent
	cfg.Now = r.clock(cfg.Now)
	r.jobs, err = agent.Register(r.b, cfg, agent.Deps{Jobs: st.Jobs(), RetryOffers: st.RetryOffers(), PendingStarts: st.PendingStarts(), Limits: st.Limits(),
		Outcomes: r.outcomes()})
	return err
}

// outcomes is the questions' outcomes the features record in: the store's,
// each write that changes one counted in the core's metrics
// (outcome.Metered).
func (r *replica) outcomes() outcome.Updater {
	return outcome.Metered(r.store.Outcomes(), r.b.Metrics())
}

func (r *replica) visitors() (err error) {
	st := r.store
	cfg := r.cfg.Visitors
	cfg.Now = r.clock(cfg.Now)
	r.visitorsFeature, err = visitors.Register(r.b, cfg, visitors.Deps{Analytics: st.Analytics(), Limits: st.Limits(), Digests: st.Digests()})
	return err
}

func (r *replica) ask() error {
	d := ask.Deps{Conversations: r.store.Conversations(), Limits: r.store.Limits(), Outcomes: r.outcomes()}
	if r.help != nil { // a feature left out is a nil interface, not a typed nil pointer
		d.Help = r.help
	}
	cfg := r.cfg.Ask
	cfg.Now = r.clock(cfg.Now)
	_, err := ask.Register(r.b, cfg, d)
	return err
}

func (r *replica) helpChannels() (err error) {
	cfg := r.cfg.Help
	if cfg.LinkDomains == nil {
		cfg.LinkDomains = r.cfg.Ask.LinkDomains
	}
	if cfg.Questions == (bot.QuestionLimits{}) {
		cfg.Questions = r.cfg.Ask.Questions() // the answers' limits: the help channels take a person's share first
	}
	cfg.Now = r.clock(cfg.Now)
	st := r.store
	r.help, err = helpchannels.Register(r.b, cfg, helpchannels.Deps{Modes: st.HelpChannels(), Calls: st.HelpChannels(),
		Limits: st.Limits(), Conversations: st.Conversations(), Outcomes: r.outcomes()})
	return err
}

func (r *replica) deploy() error {
	cfg := r.cfg.Deploy
	cfg.Now = r.clock(cfg.Now)
	_, err := deploy.Register(r.b, cfg, deploy.Deps{Deploys: r.store.Deploys(), Limits: r.store.Limits()})
	r.deploying = err == nil
	return err
}

func (r *replica) health() (err error) {
	st := r.store
	cfg := r.cfg.Health
	cfg.Now = r.clock(cfg.Now)
	r.healthFeature, err = health.Register(r.b, cfg, health.Deps{Analytics: st.Analytics(), Limits: st.Limits(), Digests: st.HealthDigests(),
		HelpChannels: st.HelpChannels(), Outcomes: st.Outcomes()})
	return err
}

func (r *replica) pane() error {
	// A feature left out is a nil interface, not a typed nil pointer.
	st := r.store
	d := pane.Deps{Limits: st.Limits(), Jobs: st.Jobs(), PaneContexts: st.PaneContexts()}
	if r.healthFeature != nil {
		d.Health = r.healthFeature
	}
	if r.deploying {
		d.Deploys = st.Deploys()
	}
	cfg := r.cfg.Pane
	cfg.Now = r.clock(cfg.Now)
	_, err := pane.Register(r.b, cfg, d)
	return err
}

func (r *replica) unfurl() error {
	cfg := r.cfg.Unfurl
	cfg.Now = r.clock(cfg.Now)
	_, err := unfurl.Register(r.b, cfg, unfurl.Deps{Analytics: r.store.Analytics(), Limits: r.store.Limits()})
	return err
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
	d := home.Deps{Jobs: r.jobs}
	if r.visitorsFeature != nil {
		d.Visitors = r.visitorsFeature
	}
	if r.healthFeature != nil {
		d.Health, d.Quality = r.healthFeature, r.healthFeature
	}
	if r.settingsFeature != nil {
		d.Settings = r.settingsFeature
	}
	_, err := home.Register(r.b, cfg, d)
	return err
}
