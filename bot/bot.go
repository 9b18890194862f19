// Package bot is the Slack side of docsbot: it takes Socket Mode envelopes
// (slash commands and thread replies), drives agent jobs through the docs API,
// and runs the poller that reports each job's finish in its thread.
//
// The bot reaches the docs API and Redis only through the small interfaces
// JobsAPI and Store, which *docsapi.Client and *store.Store satisfy.
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
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// JobsAPI is what the bot needs from the docs API to run agent jobs.
type JobsAPI interface {
	CreateJob(ctx context.Context, prompt string) (*docsapi.Job, error)
	SendMessage(ctx context.Context, jobID, prompt string) (*docsapi.Job, error)
	GetJob(ctx context.Context, jobID string) (*docsapi.Job, error)
}

// API is the docs API as the bot uses it; *docsapi.Client satisfies it.
type API interface {
	JobsAPI
	VisitorsAPI
}

// Store is everything the bot keeps in Redis; *store.Store satisfies it.
type Store interface {
	JobStore
	VisitorsStore
	WorkStore
}

// JobStore is what agent jobs keep in Redis: thread links, job records, the
// poll schedule and dedupe markers.
type JobStore interface {
	LinkJob(ctx context.Context, j store.Job, firstPoll time.Duration) error
	JobByThread(ctx context.Context, t store.Thread) (*store.Job, error)
	FollowUp(ctx context.Context, id string, firstPoll time.Duration) (*store.Job, error)
	Claim(ctx context.Context, max int, lease time.Duration) ([]store.Claim, error)
	NextDue(ctx context.Context) (time.Duration, bool, error)
	Reschedule(ctx context.Context, c store.Claim, status string, in time.Duration) error
	Finish(ctx context.Context, c store.Claim, status, prLink string, lease time.Duration) (bool, error)
	MarkNotified(ctx context.Context, c store.Claim) error
	Untrack(ctx context.Context, c store.Claim, status string) error
	Release(ctx context.Context, claims []store.Claim) error
	Tracked(ctx context.Context) (int64, error)
	OfferRetry(ctx context.Context, t store.Thread, payload []byte, ttl time.Duration) error
	TakeRetry(ctx context.Context, t store.Thread) ([]byte, error)
}

// ErrBotToken and ErrAppToken mark the errors Run returns when Slack refuses
// the bot token (auth.test) or the app-level token (Socket Mode).
var (
	ErrBotToken = errors.New("slack refused the bot token")
	ErrAppToken = errors.New("slack refused the app-level token")
)

// Config holds the bot's settings. Zero values take the documented defaults.
type Config struct {
	// PollInterval is the delay before a job's first poll (default 10s).
	PollInterval time.Duration
	// PollMaxInterval caps the poll backoff (default 1m).
	PollMaxInterval time.Duration
	// AllowedUsers and AllowedChannels restrict who may use the bot and where.
	// Empty means everyone and everywhere.
	AllowedUsers, AllowedChannels []string
	// PollWorkers is how many jobs one replica polls at once (default 32).
	PollWorkers int
	// VisitorsCacheTTL is how long a /docs-visitors result is reused, by every
	// replica, before the API is asked again (default 10m).
	VisitorsCacheTTL time.Duration
	// VisitorsBudget is the number of analytics requests all replicas together
	// may send per hour (default 100, the service's limit per organization).
	VisitorsBudget int
	// Now is the clock for date ranges (default time.Now). Dates are UTC.
	Now func() time.Time
	// ShutdownGrace is how long Run lets work in flight (a job being started
	// and linked) finish after ctx ends, before cancelling it (default 20s).
	ShutdownGrace time.Duration
	// Metrics receives counters and timings; nil records nothing.
	Metrics *Metrics
	// Logger receives structured logs (default slog.Default()).
	Logger *slog.Logger
}

// The defaults of Config's settings that operators set; cmd/docsbot's
// settings table shows them.
const (
	DefaultPollInterval     = 10 * time.Second
	DefaultPollMaxInterval  = time.Minute
	DefaultVisitorsCacheTTL = 10 * time.Minute
	// DefaultVisitorsBudget is the docs API's analytics limit per
	// organization and hour.
	DefaultVisitorsBudget = 100
)

func (c Config) withDefaults() Config {
	if c.PollInterval <= 0 {
		c.PollInterval = DefaultPollInterval
	}
	if c.PollMaxInterval <= 0 {
		c.PollMaxInterval = DefaultPollMaxInterval
	}
	if c.PollMaxInterval < c.PollInterval {
		c.PollMaxInterval = c.PollInterval
	}
	if c.PollWorkers <= 0 {
		c.PollWorkers = 32
	}
	if c.VisitorsCacheTTL <= 0 {
		c.VisitorsCacheTTL = DefaultVisitorsCacheTTL
	}
	if c.VisitorsBudget <= 0 {
		c.VisitorsBudget = DefaultVisitorsBudget
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.ShutdownGrace <= 0 {
		c.ShutdownGrace = 20 * time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Bot is one docsbot replica: a Socket Mode connection plus a poller. Any
// number of replicas may run against the same Redis.
type Bot struct {
	cfg    Config
	log    *slog.Logger
	slack  *slack.Client
	socket *socketmode.Client
	api    API
	store  Store
	access access
	// http posts to slash commands' response_url.
	http *http.Client

	// self identifies the bot's own user, learnt from auth.test at start.
	self identity

	metrics *Metrics

	// wake nudges the poller when this replica schedules a job.
	wake chan struct{}
	// inboxWake nudges the inbox runner when this replica queues work.
	inboxWake chan struct{}
	// out paces posts per channel and coalesces status edits.
	out *outbox
	// routes holds the handlers of slash commands, events and interactions.
	routes routes
	// handlers does each kind of inbox work (HandleWork).
	handlers map[string]WorkHandler
	// work tracks handler goroutines so Run can wait for them on shutdown.
	work tasks
	// link tracks whether the Socket Mode connection is up.
	link linkState
}

type identity struct {
	userID, botID, teamID string
}

// New builds a bot. client must carry the bot token and the app-level token
// (slack.OptionAppLevelToken); its API URL may point at a fake Slack server.
func New(cfg Config, client *slack.Client, api API, st Store) *Bot {
	cfg = cfg.withDefaults()
	b := &Bot{
		cfg:    cfg,
		log:    cfg.Logger,
		slack:  client,
		socket: socketmode.New(client, socketmode.OptionLog(slogPrinter{cfg.Logger})),
		api:    api,
		store:  st,
		access: newAccess(cfg.AllowedUsers, cfg.AllowedChannels),
		http:   &http.Client{Timeout: 10 * time.Second},
		wake:   make(chan struct{}, 1),

		inboxWake: make(chan struct{}, 1),
		out:       newOutbox(),

		metrics: cfg.Metrics,
	}
	b.HandleCommand(CommandAgent, b.onAgentCommand)
	b.HandleCommand(CommandVisitors, b.onVisitorsCommand)
	b.HandleEvent(slackevents.Message, b.onMessage)
	b.HandleWork(workStart, WorkHandler{Do: b.doStart, GiveUp: b.giveUpStart})
	b.HandleWork(workReply, WorkHandler{Do: b.doReply, GiveUp: b.giveUpReply})
	b.HandleWork(workVisitors, WorkHandler{Do: b.doVisitors, GiveUp: b.giveUpVisitors})
	return b
}

// Connected reports whether the Slack Socket Mode connection is up: the
// replica can take commands.
func (b *Bot) Connected() bool { return b.link.up() }

// Run connects to Slack and serves until ctx is cancelled or Slack refuses the
// tokens. It returns nil after a clean shutdown.
func (b *Bot) Run(ctx context.Context) error {
	auth, err := b.slack.AuthTestContext(ctx)
	if err != nil {
		if permanentAuthError(err) {
			return fmt.Errorf("%w: %w", ErrBotToken, err)
		}
		return fmt.Errorf("slack auth.test: %w", err)
	}
	b.self = identity{userID: auth.UserID, botID: auth.BotID, teamID: auth.TeamID}
	b.log.Info("connected to Slack", "bot_user", auth.UserID, "team", auth.TeamID)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Work in flight outlives ctx by up to ShutdownGrace, so that a job being
	// started is still linked when the process is asked to stop.
	work, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()

	var poller sync.WaitGroup
	poller.Go(func() { b.runPoller(ctx) })
	poller.Go(func() { b.runInbox(ctx, work) })

	handler := socketmode.NewSocketmodeHandler(b.socket)
	b.register(work, handler)
	err = handler.RunEventLoopContext(ctx)
	cancel()
	b.link.stop()
	poller.Wait()
	if !b.work.closeAndWait(b.cfg.ShutdownGrace) {
		b.log.Warn("work still in flight after the shutdown grace; cancelling it", "grace", b.cfg.ShutdownGrace)
		stopWork()
		b.work.closeAndWait(0)
	}
	switch {
	case err == nil || errors.Is(err, context.Canceled):
		return nil
	case permanentAuthError(err):
		return fmt.Errorf("%w: %w", ErrAppToken, err)
	}
	return fmt.Errorf("slack socket mode: %w", err)
}

// slogPrinter adapts slog to the logger slack-go's socketmode client takes;
// its lines go out at debug level.
type slogPrinter struct{ log *slog.Logger }

func (p slogPrinter) Output(_ int, s string) error {
	p.log.Debug("socketmode: " + s)
	return nil
}
