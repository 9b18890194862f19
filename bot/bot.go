// Package bot is the core of docsbot's Slack side: the transports (a
// Socket Mode connection, or in HTTP mode the signed requests Slack posts
// to SlackHandler) and the router that features register on, the durable inbox
// (AcceptEnvelope, QueueFromWork, WorkHandler, Later, leases), the outbox that paces posts and
// coalesces edits, the decorations (reactions, a thread's working status)
// made in the background in order per message, the Slack helpers every feature shares (escaping,
// private answers, Describe), metrics and the allow-lists.
//
// The features live in packages of their own (bot/agent, bot/visitors),
// declare what they serve of Slack (Declaration: commands, events, buttons,
// forms, scopes) and register its handlers and their kinds of work on a Bot
// before Run. The core reaches Redis only through WorkStore: the store's inbox and
// choices (store.Inbox, store.Choices).
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
)

// ErrBotToken and ErrAppToken mark the errors Run returns when Slack refuses
// the bot token (auth.test) or the app-level token (Socket Mode).
var (
	ErrBotToken = errors.New("slack refused the bot token")
	ErrAppToken = errors.New("slack refused the app-level token")
)

// Config holds the core's settings. Zero values take the documented
// defaults. The features have settings of their own (agent.Config,
// visitors.Config).
type Config struct {
	// AllowedUsers and AllowedChannels restrict who may use the bot and where.
	// Empty means everyone and everywhere.
	AllowedUsers, AllowedChannels []string
	// Editors may start jobs and send follow-ups (DOCSBOT_EDITORS); when it
	// names nobody, everyone may.
	Editors roles.Editors
	// AllowGuests lets single- and multi-channel guests start, steer and
	// retry jobs (DOCSBOT_ALLOW_GUESTS); AllowExternal lets people of other
	// organisations in Slack Connect channels do so (DOCSBOT_ALLOW_EXTERNAL).
	// Both are off by default (Editors.Refusal, bot/roles.Gate).
	AllowGuests, AllowExternal bool
	// Audit receives the audit trail (job starts, follow-ups, results,
	// refusals); nil keeps none. A log that can Trim (*store.AuditLog) is
	// trimmed to its retention by every replica, hourly.
	Audit AuditLog
	// ShutdownGrace is how long Run lets work in flight (a job being started
	// and linked, a result being posted) finish after ctx ends, before
	// cancelling it (default 20s).
	ShutdownGrace time.Duration
	// LandingWindow is how long a request to Slack or the docs API that a
	// shutdown cancelled may still take effect there (default 15s): the
	// claims of work and polls cut short are handed back due after it, so
	// that the next attempt sees what the request did (store/doc.go,
	// "Handing back"). docsbot assumes that both finish a request they
	// received within that time whether or not the caller still waits.
	LandingWindow time.Duration
	// Metrics receives counters and timings; nil records nothing.
	Metrics *Metrics
	// Workspaces looks up each workspace's Slack client (SlackIn); nil
	// serves every workspace with the bot's one client (its token from the
	// environment).
	Workspaces Workspaces
	// InstallMode serves the workspaces that installed docsbot by link
	// (bot/install), each with its own token and bot user from Workspaces:
	// the bot has no token of its own, so Run asks Slack nothing at start,
	// and Self is the workspace's. HTTP mode only.
	InstallMode bool
	// Logger receives structured logs (default slog.Default()).
	Logger *slog.Logger
	// Mode is how Slack reaches the bot: ModeSocket (the default) or
	// ModeHTTP, where the bot answers the signed requests Slack posts to
	// SlackHandler instead of opening a Socket Mode connection.
	Mode Mode
	// SigningSecret is the Slack app's signing secret, which every request
	// in HTTP mode must be signed with.
	SigningSecret string
	// SlackHost, when set, is the host (host:port) of a Slack other than
	// slack.com that the bot talks to (SLACK_API_URL: a test's or the
	// sandbox's fake Slack): response URLs on it are posted to besides
	// Slack's own (responseurl.go).
	SlackHost string
	// Projects are the docs projects the bot serves (DOCSBOT_PROJECTS_FILE);
	// nil serves one implicit project, as before projects existed.
	Projects *project.Set
	// Clients are the docs API clients of Projects (Bot.Project); bot/app
	// builds them.
	Clients Clients
	// Admins may set docsbot up from Slack besides each workspace's own
	// admins and owners and whoever installed docsbot (DOCSBOT_ADMINS:
	// user and user group ids; admins.go).
	Admins roles.Editors
	// Connected keeps the docs projects workspaces connect from Slack
	// (connected.go); nil when docsbot keeps no secrets (no
	// DOCSBOT_SECRETS_KEY): then only Projects are served.
	Connected ConnectedStore
	// ProjectClients builds the clients of a project connected from Slack;
	// bot/app sets it with Connected.
	ProjectClients ProjectClients
	// WorkspaceSettings keeps the settings each workspace's admins set in
	// Slack, which win over the environment there (setinslack.go); nil:
	// the environment's alone.
	WorkspaceSettings WorkspaceSettingsStore
	// Analytics are the limits of the docs API's analytics requests that
	// every feature spending them keeps (Bot.Analytics); the zero value is
	// the defaults.
	Analytics AnalyticsLimits
	// Files bound what is read of the files people attach (ReadFiles); the
	// zero value is the defaults.
	Files FileLimits
}

func (c Config) withDefaults() Config {
	if c.ShutdownGrace <= 0 {
		c.ShutdownGrace = 20 * time.Second
	}
	if c.LandingWindow <= 0 {
		c.LandingWindow = 15 * time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Mode == "" {
		c.Mode = ModeSocket
	}
	c.Analytics = c.Analytics.withDefaults()
	c.Files = c.Files.withDefaults()
	return c
}

// Bot is one docsbot replica: a Socket Mode connection (or, in HTTP mode,
// the handler of Slack's requests), the inbox runner and what the features
// registered. Any number of replicas may run against the
// same Redis.
type Bot struct {
	cfg   Config
	log   *slog.Logger
	slack *slack.Client
	// clients is Config.Workspaces (SlackIn).
	clients Workspaces
	store   WorkStore
	access  access
	// roles decides who is an editor (Config.Editors); gate keeps guests
	// and other organisations from changing docs (Config.AllowGuests,
	// AllowExternal).
	roles *roles.Checker
	gate  *roles.Gate
	// rooms keeps what Slack says of channels (Sight).
	rooms *roles.Rooms
	// channelsHere is what Slack said of which workspace a setting's
	// channels belong to (ChannelsHere).
	channelsHere perChannel[bool]
	// postedLately and slowLately are the channels docsbot posted in
	// lately, and those where a post was slow (FreeToPost).
	postedLately, slowLately perChannel[struct{}]
	// projects are Config.Projects, or the implicit one.
	projects *project.Set
	// connected are the projects connected from Slack (Config.Connected);
	// nil without.
	connected *connected
	// setInSlack are the settings workspaces set in Slack
	// (Config.WorkspaceSettings); nil without.
	setInSlack *teamCache[SetInSlack]
	// http posts to slash commands' response_url.
	http *http.Client

	// self identifies the bot's own user, learnt from auth.test at start.
	self Identity

	metrics *Metrics

	// inboxWake nudges the inbox runner when this replica queues work.
	inboxWake chan struct{}
	// stopping is closed once the inbox stops claiming (handover.go).
	stopping chan struct{}
	stopOnce sync.Once
	// out paces posts per channel and coalesces status edits.
	out *outbox
	// decor orders the reactions and thread statuses asked for per message
	// (React, SetThreadStatus); threadStatus is off once Slack refused it.
	decor        sequencer
	threadStatus threadStatusOff
	// rich remembers the rich blocks Slack refused (richblocks.go).
	rich richOff
	// paneSession is off once Slack refused agents.sessions.setStatus (the
	// pane's session).
	paneSession threadStatusOff
	// routes holds the handlers of slash commands, events and interactions.
	routes routes
	// declared are the features' declarations (Declare).
	declared declare.Declarations
	// handlers does each kind of inbox work (HandleWork).
	handlers map[string]WorkHandler
	// posts are the owners of people's posts (posts.go).
	posts posts
	// background is what features run alongside the bot (Background).
	background []func(ctx context.Context)
	// work tracks handler goroutines so Run can wait for them on shutdown.
	work tasks
	// link tracks whether the Socket Mode connection is up; lastAck is
	// when an ack was last queued on it (drainSocket).
	link    linkState
	lastAck instant
	// serving is where HTTP mode's requests are handled while Run runs.
	serving serving
}

// Identity is who the bot is in Slack, learnt from auth.test when Run starts:
// its user and bot ids, and the workspace (and Enterprise Grid
// organisation, "" outside one) that installed it.
type Identity struct {
	UserID, BotID, TeamID, EnterpriseID string
}

// New builds a bot without features; bot/app builds one with every
// feature registered, which is how a bot is wired outside the core's own
// tests. client must carry the bot token and, in
// Socket Mode, the app-level token (slack.OptionAppLevelToken); its API URL
// may point at a fake Slack server.
func New(cfg Config, client *slack.Client, st WorkStore) *Bot {
	cfg = cfg.withDefaults()
	b := &Bot{
		cfg:     cfg,
		log:     cfg.Logger,
		slack:   client,
		clients: cfg.Workspaces,
		store:   st,
		access:  newAccess(cfg.AllowedUsers, cfg.AllowedChannels),
		http:    &http.Client{Timeout: 10 * time.Second},

		inboxWake: make(chan struct{}, 1),
		stopping:  make(chan struct{}),
		out:       newOutbox(),

		metrics: cfg.Metrics,
	}
	b.roles = newRoles(b)
	b.gate = newGate(b)
	b.rooms = newRooms(b)
	b.projects = cfg.Projects
	if b.projects == nil {
		b.projects = project.Single("", "", "")
	}
	if cfg.Connected != nil && cfg.ProjectClients != nil {
		b.connected = newConnected(cfg.Connected, cfg.ProjectClients, b.log.Warn)
		b.Background(b.connected.listen)
	}
	if b.setInSlack = newSetInSlack(cfg.WorkspaceSettings); b.setInSlack != nil {
		b.Background(func(ctx context.Context) { b.setInSlack.listen(cfg.WorkspaceSettings.Changes(ctx)) })
	}
	if t, ok := cfg.Audit.(auditTrimmer); ok {
		b.Background(func(ctx context.Context) { b.trimAudit(ctx, t) })
	}
	return b
}

// Connected reports whether the replica can take Slack's deliveries: its
// Socket Mode connection is up or, in HTTP mode, Run serves SlackHandler.
func (b *Bot) Connected() bool {
	if b.cfg.Mode == ModeHTTP {
		return b.serving.up()
	}
	return b.link.up()
}

// Run connects to Slack and serves until ctx is cancelled or Slack refuses the
// tokens. It returns nil after a clean shutdown. In HTTP mode it opens no
// connection: SlackHandler, served by the caller, hands requests to the
// handlers while Run runs.
func (b *Bot) Run(ctx context.Context) error {
	switch {
	case b.cfg.Mode != ModeSocket && b.cfg.Mode != ModeHTTP:
		return fmt.Errorf("bot: unknown mode %q (socket or http)", b.cfg.Mode)
	case b.cfg.Mode == ModeHTTP && b.cfg.SigningSecret == "":
		return errors.New("bot: HTTP mode needs the Slack app's signing secret")
	case b.cfg.InstallMode && (b.cfg.Mode != ModeHTTP || b.clients == nil):
		return errors.New("bot: install mode needs HTTP mode and the installations (Workspaces)")
	}
	if !b.cfg.InstallMode {
		auth, err := b.slack.AuthTestContext(ctx)
		if err != nil {
			if permanentAuthError(err) {
				return fmt.Errorf("%w: %w", ErrBotToken, err)
			}
			return fmt.Errorf("slack auth.test: %w", err)
		}
		b.self = Identity{UserID: auth.UserID, BotID: auth.BotID, TeamID: auth.TeamID, EnterpriseID: auth.EnterpriseID}
		b.log.Info("connected to Slack", "bot_user", auth.UserID, "team", auth.TeamID)
	}
	var err error

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Work in flight outlives ctx by up to ShutdownGrace, so that a job being
	// started is still linked when the process is asked to stop.
	work, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()

	var loops sync.WaitGroup
	for _, fn := range b.background {
		loops.Go(func() { fn(ctx) })
	}
	loops.Go(func() { b.runInbox(ctx, work) })

	if b.cfg.Mode == ModeHTTP {
		b.serving.start(work)
		<-ctx.Done()
		b.serving.stop()
		err = nil
	} else {
		// The socket outlives ctx until the envelopes it brought are
		// acknowledged (drainSocket): one recorded but not acknowledged
		// would show the person a timeout for work that runs.
		sock, closeSock := context.WithCancel(context.WithoutCancel(ctx))
		defer closeSock()
		sc := newSocketConn(b.slack, b.log)
		sc.hooks = b.socketHooks(work, sc)
		go b.drainSocket(ctx, sock, closeSock, sc)
		err = sc.run(sock)
		cancel()
		b.link.stop()
	}
	stopped := time.Now()
	loops.Wait()
	// The handlers of envelopes share the grace the claim loops had.
	if !b.work.closeAndWait(max(b.cfg.ShutdownGrace-time.Since(stopped), 0)) {
		b.log.Warn("work still in flight after the shutdown grace; cancelling it", "grace", b.cfg.ShutdownGrace)
		stopWork()
		b.work.closeAndWait(0)
	}
	switch {
	case err == nil || errors.Is(err, context.Canceled):
		return nil
	case refusedToken(err):
		return fmt.Errorf("%w: %w", ErrAppToken, err)
	}
	return fmt.Errorf("slack socket mode: %w", err)
}

// Background registers fn to run alongside the bot (the agent's poller):
// Run starts it and ends its context when asked to stop, then waits for it
// to return. Register before Run.
func (b *Bot) Background(fn func(ctx context.Context)) {
	b.background = append(b.background, fn)
}

// Every is fn run at once and then every d, never two at a time (a run
// longer than d delays the next), until ctx ends: what a loop registers
// with Background (the digest loop, Digests.Register).
func Every(d time.Duration, fn func(ctx context.Context)) func(ctx context.Context) {
	return func(ctx context.Context) {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			fn(ctx)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}
}

// Shutdown is how work that outlives the bot's context is to end: the grace
// it has, and the landing window after which what it leaves cut short comes
// due (Config.ShutdownGrace, Config.LandingWindow; a claim.Runner's Grace and
// Landing).
func (b *Bot) Shutdown() (grace, landing time.Duration) {
	return b.cfg.ShutdownGrace, b.cfg.LandingWindow
}

// Logger is the bot's logger.
func (b *Bot) Logger() *slog.Logger { return b.log }

// Metrics is where features count what they do; it may be nil (its methods
// then record nothing).
func (b *Bot) Metrics() *Metrics { return b.metrics }

// Refusal returns "" when the user may use the bot in the channel, and
// otherwise the refusal to show them (the allow-lists of Config). channel
// "" asks whether they may use it somewhere (the users' allow-list alone:
// the Home).
func (b *Bot) Refusal(user, channel string) string {
	if channel == "" {
		return b.access.checkUser(user)
	}
	return b.access.check(user, channel)
}
