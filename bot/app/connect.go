package app

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/settings"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Connect is how the docs projects a workspace connects from Slack are
// reached (bot/settings): the docs API and discovery API of the
// settings (DOCS_API_URL, DOCS_DISCOVERY_URL), "" for the clients'
// defaults.
type Connect struct {
	APIURL, DiscoveryURL string
}

// connectInSlack sets cfg's core up to serve the projects connected from
// Slack, when docsbot keeps secrets (Install.SecretsKeys:
// DOCSBOT_SECRETS_KEY, in either mode): their store, sealed with the keys,
// and their clients, built as the projects file's are.
func connectInSlack(cfg *Config, d Deps) error {
	if len(cfg.Install.SecretsKeys) == 0 {
		return nil
	}
	sealer, err := store.NewSealer(cfg.Install.SecretsKeys...)
	if err != nil {
		return fmt.Errorf("app: the secrets key: %w", err)
	}
	cfg.Bot.Connected = d.Store.Connections(sealer)
	conn := cfg.Connect
	cfg.Bot.ProjectClients = func(p project.Project) (*docsapi.Client, *docsapi.Assistant, error) {
		if p.APIURL == "" {
			p.APIURL = conn.APIURL
		}
		if p.Assistant.DiscoveryURL == "" {
			p.Assistant.DiscoveryURL = conn.DiscoveryURL
		}
		api, err := project.Client(p, d.APIOptions...)
		if err != nil {
			return nil, nil, err
		}
		assistant, err := project.AssistantOf(p, d.APIOptions...)
		if err != nil {
			return nil, nil, err
		}
		return api, assistant, nil
	}
	return nil
}

// settings registers the Settings of the Home (bot/settings).
func (r *replica) settings() error {
	cfg := r.cfg.Settings
	cfg.Now = r.clock(cfg.Now)
	var conns settings.Connections
	if r.b.ConnectsInSlack() {
		sealer, err := store.NewSealer(r.cfg.Install.SecretsKeys...)
		if err != nil {
			return fmt.Errorf("app: the secrets key: %w", err)
		}
		conns = r.store.Connections(sealer)
	}
	if cfg.Environment == nil {
		cfg.Environment = r.environment()
	}
	// The digests whose channels the settings set: those of the features on.
	digests := map[string]settings.Subscriptions{}
	if r.visitorsFeature != nil {
		digests[settings.DigestVisitors] = r.store.Digests()
	}
	if r.healthFeature != nil {
		digests[settings.DigestHealth] = r.store.HealthDigests()
	}
	f, err := settings.Register(r.b, cfg, settings.Deps{Connections: conns, Limits: r.store.Limits(),
		Settings: r.store.WorkspaceSettings(), Modes: r.store.HelpChannels(), Digests: digests})
	r.settingsFeature = f
	return err
}

// environment is the value where docsbot runs of each setting a workspace
// may set in Slack (settings.Config.Environment): what applies where
// nothing was set there, and each share's ceiling.
func (r *replica) environment() map[string]string {
	c := r.cfg
	people := func(e roles.Editors) string { return strings.Join(append(slices.Clone(e.Users), e.Groups...), " ") }
	return map[string]string{
		bot.SettingEditors:         people(c.Bot.Editors),
		bot.SettingExperts:         people(c.Help.Experts),
		bot.SettingAdmins:          people(c.Bot.Admins),
		bot.SettingRequestsChannel: c.Ask.RequestsChannel,
		bot.SettingAskPerUser:      strconv.Itoa(cmp.Or(c.Ask.PerUser, ask.DefaultPerUser)),
		bot.SettingAskBudget:       strconv.Itoa(cmp.Or(c.Ask.Budget, ask.DefaultBudget)),
		bot.SettingDigestTime:      digestTime(c.Visitors.Digest),
	}
}

// digestTime is the text of DOCSBOT_DIGEST_TIME's schedule; the zero
// value is the default, as the digests take it.
func digestTime(s digest.Schedule) string {
	if s.Location == nil {
		return digest.DefaultTime
	}
	return s.String()
}
