// Package settings lets a workspace's admins set docsbot up from Slack:
// the Settings section of docsbot's Home, shown to admins alone
// (bot.AdminRefusal), where the workspace connects its docs projects.
//
// Connecting docs. *Connect docs* opens a modal asking for the project's
// API key and id and, optional, its assistant key, docs domain and docs
// site. Its submission is answered in the ack (view_submission,
// response_action errors on the input at fault) after, in this order:
//
//	step                        refuses                                       with
//	the admin check             anyone but the workspace's admins             the first input: the refusal
//	the values' shapes          a key of the wrong kind, an id or domain      that input
//	                            that cannot be one, a site that is no https URL
//	the name                    a project of that name already served here    the domain or project id input
//	the analytics budget        the person's share or the budget spent        the API key input: when to try again
//	one call to the docs API    401: the key; 404: the project id;            that input
//	(GET …/visitors limit=1)    anything else: try again
//
// Only then is the project saved (store.Connections: its keys sealed, a
// hint of each in the clear), audited (settings.change, never a key's
// text), in force on this replica at once and on every other within 5
// seconds (bot/connected.go), confirmed to the admin in their DM with
// docsbot, and the admin's Home published again.
//
// Disconnecting. Each project connected from Slack has *Disconnect* (with
// Slack's confirm dialog), a press done from the inbox (presses.go); the
// admin check again; the project takes no new work at once, the work it
// has (a running job) is still followed (store.RetiredKept); audited and
// confirmed the same way. A change's telling (its audit records, the
// confirmation, a digest's channel told it is subscribed, the Home) is
// done once even when the replica that saved it dies after its ack
// (told.go).
//
// The other settings (table.go has them, with the variable each goes
// over) are set in three modals, each answered in its ack the same way:
//
//	modal               inputs                                          refuses (response_action errors)
//	Channels            Channel, Answers, Docs project, docsbot here    no channel; nothing chosen to change; a project
//	                                                                    not served here; a mode set for a channel this
//	                                                                    workspace's docsbot cannot see (conversations.info)
//	People              Editors, Experts, Admins: users, and user       a group that is no S… id
//	                    groups by their ids
//	Digests and limits  Digest time (day, time, zone), the channels     a zone that is no IANA name; a channel added to
//	                    of the visitors and the health digests,         a digest that docsbot cannot see or is not in,
//	                    Requests channel, the questions' shares         or that has no docs project of its own; a share
//	                                                                    that is no whole number above 0, or above the
//	                                                                    environment's (its ceiling, named)
//
// each after the admin check (the first input, whatever the payload's
// metadata says). A change is saved at once (store.WorkspaceSettings; a
// channel's answer mode where `/docs-ask here` keeps it,
// store.HelpChannels), in force on this replica at once and on every other
// within 5 seconds (bot/setinslack.go), audited with the old value and
// the new (settings.change), confirmed in the admin's DM and shown on
// their Home, where each setting says where its value comes from and a
// value set in Slack can be cleared (Clear, with Slack's confirm dialog),
// which brings the environment's back. The digest time is such a
// setting: set, the digest loops schedule that workspace's digests by it
// (bot/digests), exactly once across replicas as before. A digest's
// channels are no setting of their own: they are the digest's
// subscriptions, made and removed as `/docs-visitors digest` and
// `/docs-health digest` in each channel make them (the same records, the
// same audit records), then confirmed with the others, a channel
// subscribed told in it (digests.go).
package settings

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/store"
)

// Name is the feature's name (app.Config.Features).
const Name = "settings"

// The Settings' buttons and modals.
const (
	ActionConnect    = "docs_settings_connect"    // Connect docs: opens the modal
	ActionDisconnect = "docs_settings_disconnect" // Disconnect: its value is the project's name
	ActionChannels   = "docs_settings_channels"   // Channels: opens the modal
	ActionPeople     = "docs_settings_people"     // People: opens the modal
	ActionLimits     = "docs_settings_limits"     // Digests and limits: opens the modal
	ActionClear      = "docs_settings_clear:"     // Clear: followed by the setting's key, which is its value too
	ViewConnect      = "docs_settings_connect"    // the Connect docs modal
	ViewChannels     = "docs_settings_channels"   // the Channels modal
	ViewPeople       = "docs_settings_people"     // the People modal
	ViewLimits       = "docs_settings_limits"     // the Digests and limits modal
)

// Declaration is what the settings serve and need of Slack
// (declare.Declaration): their buttons on the Home, the modal, and
// users.info (is_admin, is_owner) through the core's gate.
func Declaration() declare.Declaration {
	return declare.Declaration{
		Name:         Name,
		Actions:      []string{ActionConnect, ActionDisconnect, ActionChannels, ActionPeople, ActionLimits},
		ActionGroups: []string{ActionClear},
		Views:        []string{ViewConnect, ViewChannels, ViewPeople, ViewLimits},
		Scopes:       []declare.Scope{{Name: "users:read", Why: "who may set docsbot up: the workspace's admins and owners"}, {Name: "im:write", Why: "confirming a change of settings to the admin who made it"}},
	}
}

// Connections keep the docs projects connected from Slack
// (store.Connections).
type Connections interface {
	Save(ctx context.Context, c store.Connection) error
	List(ctx context.Context, team string) ([]store.Connection, map[string]error, error)
}

// Limits draw on the analytics budget (store.Limits): the check of a key
// is one analytics request.
type Limits interface {
	Draw(ctx context.Context, d store.Draw, n int) (store.Grant, error)
}

// WorkspaceSettings keep the settings a workspace set in Slack
// (store.WorkspaceSettings).
type WorkspaceSettings interface {
	Apply(ctx context.Context, team string, changes []store.WorkspaceSetting) (map[string]store.WorkspaceSetting, error)
	All(ctx context.Context, team string) (map[string]store.WorkspaceSetting, error)
}

// Modes keep the channels' answer modes where `/docs-ask here` keeps them
// (store.HelpChannels): the Channels modal sets them the same way.
type Modes interface {
	SetMode(ctx context.Context, m store.ChannelMode) error
	Mode(ctx context.Context, channel string) (store.ChannelMode, error)
	Modes(ctx context.Context) ([]store.ChannelMode, error)
}

// Deps are the parts of the store the settings use.
type Deps struct {
	Connections Connections
	Limits      Limits
	Settings    WorkspaceSettings
	Modes       Modes
	// Digests are the subscriptions of each digest whose channels are set
	// here, by Digest.Name (DigestVisitors: store.Digests, DigestHealth:
	// store.HealthDigests); a digest whose feature is off has none, and
	// the modal leaves its channels out.
	Digests map[string]Subscriptions
}

// Config holds the settings' settings.
type Config struct {
	// Now is the clock (time.Now).
	Now func() time.Time
	// CheckWait bounds the docs API call that checks a key, inside the 3
	// seconds Slack gives a modal's ack (default 2s).
	CheckWait time.Duration
	// Environment is the value where docsbot runs of each workspace-wide
	// setting of the table, by key, as the settings keep values (ids
	// separated by spaces, a channel id, a number): what applies where
	// nothing was set in Slack, shown on the Home, and a share's ceiling.
	// bot/app fills it.
	Environment map[string]string
}

func (c Config) withDefaults() Config {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.CheckWait <= 0 {
		c.CheckWait = 2 * time.Second
	}
	return c
}

// settings is the feature registered on a bot.
type settings struct {
	core  *bot.Bot
	cfg   Config
	store Deps
	log   *slog.Logger

	mu    sync.Mutex
	hooks []func(ctx context.Context, team, user, work string)
}

// Feature is what other features read of the settings: the Home's
// Settings section (Blocks) and its changes (OnFetched).
type Feature struct{ s *settings }

// Register adds the settings to b. Docs are connected from Slack only
// where docsbot keeps secrets (bot.Bot.ConnectsInSlack:
// DOCSBOT_SECRETS_KEY set); the other settings everywhere.
func Register(b *bot.Bot, cfg Config, d Deps) (*Feature, error) {
	routes := b.Router()
	routes.Declare(Declaration())
	s := &settings{core: b, cfg: cfg.withDefaults(), store: d, log: b.Logger().With("feature", Name)}
	routes.HandleBlockAction(ActionConnect, s.onConnect)
	routes.HandleViewSubmission(ViewConnect, s.onConnectSubmitted)
	// The buttons that open the other modals, for an admin (modal.go).
	for _, m := range []struct {
		action, title string
		build         func(ctx context.Context, team string) slack.ModalViewRequest
	}{{ActionChannels, modalChannels, s.channelsModal}, {ActionPeople, modalPeople, s.peopleModal}, {ActionLimits, modalLimits, s.limitsModal}} {
		routes.HandleBlockAction(m.action, func(ctx context.Context, r *bot.InteractionRequest) { s.open(ctx, r, m.title, m.build) })
	}
	routes.HandleViewSubmission(ViewChannels, s.onChannelsSubmitted)
	routes.HandleViewSubmission(ViewPeople, s.onPeopleSubmitted)
	routes.HandleViewSubmission(ViewLimits, s.onLimitsSubmitted)
	s.routePresses(routes)
	routes.HandleWork(workTold, bot.WorkHandler{Do: s.doTold})
	return &Feature{s: s}, nil
}

// OnFetched registers fn, called after an admin changed the settings of
// team, with a key of the change: the Home publishes that admin's Home
// again (home.Fetches).
func (f *Feature) OnFetched(fn func(ctx context.Context, team, user, work string)) {
	f.s.mu.Lock()
	f.s.hooks = append(f.s.hooks, fn)
	f.s.mu.Unlock()
}

// tellChanged calls the OnFetched hooks.
func (s *settings) tellChanged(ctx context.Context, team, user, key string) {
	s.mu.Lock()
	fns := append([]func(context.Context, string, string, string){}, s.hooks...)
	s.mu.Unlock()
	for _, fn := range fns {
		fn(ctx, team, user, key)
	}
}
