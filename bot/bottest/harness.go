// Package bottest is the end-to-end test kit of the bot: a Harness is a
// fake Slack (slacktest), the docs API test server (docsapitest) and a key
// prefix of its own in a real redis-server, and starts real bots (the core
// with every feature registered, built by bot/app as `docsbot serve`
// builds them) that talk to them over real sockets. A world may serve
// several docs projects, each on a docs API test server of its own
// (Harness.AddProject), as `docsbot serve` does with a projects file.
package bottest

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/home"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/bot/visitors"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// Harness is one end-to-end world: a fake Slack, the API test server and a
// key prefix of its own in a Redis. Bots started on it are real bot.Bot
// values talking over real sockets.
type Harness struct {
	T     *testing.T
	Slack *slacktest.Server
	API   *docsapitest.Server
	// Prefix is the world's key prefix in Redis.
	Prefix string
	// Logs holds what every bot started on the harness logged.
	Logs *docsapitest.LogBuffer
	// RedisURL is the Redis the bots use; a test may point it at its own.
	RedisURL string

	mu       sync.Mutex
	bots     []*Running
	projects []Project
}

// General is the channel every world has, with the bot a member.
const General = "C0GENERAL"

// New builds a world on the redis-server at redisURL (a test package starts
// one in TestMain with redistest.Start), with options of the API test server.
func New(t *testing.T, redisURL string, apiOpts ...docsapitest.Option) *Harness {
	t.Helper()
	return NewWith(t, redisURL, nil, apiOpts...)
}

// NewWith is New with options of the fake Slack added.
func NewWith(t *testing.T, redisURL string, slackOpts []slacktest.Option, apiOpts ...docsapitest.Option) *Harness {
	t.Helper()
	sl := slacktest.NewServer(append([]slacktest.Option{slacktest.WithPingInterval(500 * time.Millisecond), slacktest.WithRedelivery(time.Second)}, slackOpts...)...)
	t.Cleanup(sl.Close)
	api := docsapitest.NewServer(apiOpts...)
	t.Cleanup(api.Close)
	return &Harness{T: t, Slack: sl, API: api, Prefix: redistest.Prefix(t), Logs: &docsapitest.LogBuffer{}, RedisURL: redisURL}
}

// Main runs a test package's tests against a redis-server of their own,
// whose URL it stores in *redisURL, then stops it and exits. Call it from
// TestMain.
func Main(m *testing.M, redisURL *string) {
	srv, err := redistest.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*redisURL = srv.URL
	code := m.Run()
	_ = srv.Close()
	os.Exit(code)
}

// Config is the settings of a bot started on a harness: the core's and the
// features' in one, zero values taking the defaults (polls are fast).
type Config struct {
	// The core's (bot.Config).
	AllowedUsers, AllowedChannels []string
	Metrics                       *bot.Metrics
	// Editors are DOCSBOT_EDITORS' user and user group ids; none makes
	// everyone an editor.
	Editors []string
	// Answers turns on the answers from the docs: the harness's docs API
	// server's fake assistant answers for the implicit project (bot/ask).
	Answers bool
	// AskPerUser is how many questions a person may ask an hour
	// (ask.Config.PerUser); 0 takes the default.
	AskPerUser int
	// AskBudget is how many questions the world may ask an hour, every
	// replica together (ask.Config.Budget); 0 takes the default.
	AskBudget int
	// LinkDomains are the hosts besides the docs site that answers may
	// link to (ask.Config.LinkDomains).
	LinkDomains []string
	// AskStreamTime is how long an answer's stream is read at most
	// (ask.Config.StreamTime); 0 takes the default.
	AskStreamTime time.Duration
	// RequestsChannel is where "Ask the docs team" posts
	// (ask.Config.RequestsChannel).
	RequestsChannel string
	// AskInterval is the answers' least time between two Slack calls of one
	// answer (ask.Config.Interval); 0 takes the default.
	AskInterval time.Duration
	// DeployPerUser is how many deployments and previews a person may start
	// an hour (deploy.Config.PerUser); 0 takes the default.
	DeployPerUser int
	// AllowGuests and AllowExternal let guests and people of other
	// organisations start, steer and retry jobs (DOCSBOT_ALLOW_GUESTS,
	// DOCSBOT_ALLOW_EXTERNAL).
	AllowGuests, AllowExternal bool
	// AuditText keeps instructions' text in the audit trail
	// (DOCSBOT_AUDIT_TEXT); the trail is always kept, as `docsbot serve`
	// keeps it.
	AuditText bool
	// The agent's (agent.Config); 20ms and 80ms when zero.
	PollInterval, PollMaxInterval time.Duration
	// FinalEditBudget is the agent's (agent.Config): how long the edit
	// showing how a run ended keeps trying while Slack fails it; the
	// agent's default (10s) when zero.
	FinalEditBudget time.Duration
	// The visitors summary's (visitors.Config).
	VisitorsCacheTTL time.Duration
	// Analytics are the limits of the analytics requests (bot.Config);
	// the zero value is the defaults: 100 an hour, 20 a person (5 a guest
	// or a person of another organisation), 10 kept for the digests.
	Analytics bot.AnalyticsLimits
	// Now is the clock of the visitors summary and of the agent's live
	// status (elapsed time, refreshes); time.Now when nil.
	Now func() time.Time
	// Digest is when digests are due (the default schedule when zero);
	// DigestTick how often each replica looks (a minute when zero).
	Digest     digest.Schedule
	DigestTick time.Duration
	// SigningSecret, when set, starts the bot in HTTP mode: it serves
	// Slack's signed requests (bot.SlackHandler) on a server of its own,
	// at Running.URL, instead of opening a Socket Mode connection. The
	// fake Slack must deliver there (slacktest.WithHTTPDelivery).
	SigningSecret string
	// Register, when set, registers a test's own entry points on the bot
	// beside the features' before it runs.
	Register func(b *bot.Bot)
	// Features are the features the bot has (app.Features; zero: all, as
	// `docsbot serve` runs them).
	Features []string
	// Projects, when set, are the docs projects served (a projects file a
	// test loaded), instead of those added with AddProject; a bot of a
	// world with neither serves the implicit project on H.API.
	Projects *project.Set
	// Serve, when set, names the projects added with AddProject that the
	// bot serves, as if the others were removed from its projects file;
	// all of them when empty.
	Serve []string
	// PendingTTL is the agent's (agent.Config): how long a start waits for
	// its project to be chosen; the agent's default when zero.
	PendingTTL time.Duration
	// HomeSeen is where the App Home records who opened it
	// (home.Config.Seen); the bot's store when nil.
	HomeSeen home.Seen
	// StoreOptions are added to the options of the bot's store (for
	// example store.WithReplicaAcks).
	StoreOptions []store.Option
	// ShutdownGrace and LandingWindow are the core's (bot.Config); 5s
	// (inside Running.Stop's 10s) and 500ms when zero.
	ShutdownGrace, LandingWindow time.Duration
}

// Running is a started bot and how to stop it.
type Running struct {
	Bot   *bot.Bot
	Store *store.Store
	// URL is where a bot in HTTP mode serves Slack's requests ("" over
	// Socket Mode).
	URL string
	// Stop stops the bot and waits for Run to return.
	Stop func()
	done chan error
}

// StartBot starts a replica, built like `docsbot serve` builds it (app.New),
// and waits until its socket is connected (in HTTP mode: until it serves).
func (h *Harness) StartBot(cfg Config) *Running {
	h.T.Helper()
	if cfg.PollInterval == 0 {
		cfg.PollInterval = 20 * time.Millisecond
	}
	if cfg.PollMaxInterval == 0 {
		cfg.PollMaxInterval = 80 * time.Millisecond
	}
	cfg.ShutdownGrace = cmp.Or(cfg.ShutdownGrace, 5*time.Second)
	cfg.LandingWindow = cmp.Or(cfg.LandingWindow, 500*time.Millisecond)
	logger := slog.New(slog.NewTextHandler(h.Logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	ctx, cancel := context.WithCancel(context.Background())
	st, err := store.Open(ctx, h.RedisURL, append([]store.Option{store.WithPrefix(h.Prefix)}, cfg.StoreOptions...)...)
	if err != nil {
		h.T.Fatalf("open store: %v", err)
	}
	set, err := h.projectSet(cfg.Projects, cfg.Serve)
	if err != nil {
		h.T.Fatalf("projects: %v", err)
	}
	if cfg.Answers && set.Implicit() {
		set = set.WithAssistant(project.ImplicitName, project.Assistant{Key: project.NewSecret(h.API.AssistantKey), Domain: h.API.Domain,
			DiscoveryURL: h.API.DiscoveryURL, SiteURL: SiteURL})
	}
	sc := slack.New("xoxb-test-bot-token", append([]slack.Option{slack.OptionAppLevelToken("xapp-test-app-token"), slack.OptionAPIURL(h.Slack.APIURL)},
		bot.SlackOptions(cfg.Metrics)...)...)
	// Count connections ever opened: a bot stopped just before may still be
	// counted among the open ones for a moment.
	before := h.Slack.Connects()
	editors, err := roles.ParseEditors(cfg.Editors)
	if err != nil {
		h.T.Fatalf("editors: %v", err)
	}
	bcfg := bot.Config{AllowedUsers: cfg.AllowedUsers, AllowedChannels: cfg.AllowedChannels, Editors: editors,
		AllowGuests: cfg.AllowGuests, AllowExternal: cfg.AllowExternal,
		Audit: st.AuditLog(store.AuditOptions{KeepText: cfg.AuditText}), Metrics: cfg.Metrics, Logger: logger, Projects: set,
		ShutdownGrace: cfg.ShutdownGrace, LandingWindow: cfg.LandingWindow, Analytics: cfg.Analytics}
	if cfg.SigningSecret != "" {
		bcfg.Mode, bcfg.SigningSecret = bot.ModeHTTP, cfg.SigningSecret
	}
	b, err := app.New(app.Config{
		Bot: bcfg,
		Agent: agent.Config{PollInterval: cfg.PollInterval, PollMaxInterval: cfg.PollMaxInterval, Now: cfg.Now,
			FinalEditBudget: cfg.FinalEditBudget, PendingTTL: cfg.PendingTTL},
		Visitors: visitors.Config{CacheTTL: cfg.VisitorsCacheTTL, Now: cfg.Now, Digest: cfg.Digest,
			DigestTick: cfg.DigestTick},
		Health: health.Config{Now: cfg.Now, Digest: cfg.Digest, DigestTick: cfg.DigestTick},
		Home:   home.Config{Seen: cfg.HomeSeen},
		Ask: ask.Config{Interval: cfg.AskInterval, RequestsChannel: cfg.RequestsChannel, PerUser: cfg.AskPerUser, Budget: cfg.AskBudget,
			LinkDomains: cfg.LinkDomains, StreamTime: cfg.AskStreamTime},
		Deploy:   deploy.Config{PerUser: cfg.DeployPerUser},
		Features: cfg.Features,
		Register: cfg.Register,
	}, app.Deps{Slack: sc, Store: st, APIOptions: []docsapi.Option{docsapi.WithRetryPolicy(testRetries)}})
	if err != nil {
		h.T.Fatalf("building the bot: %v", err)
	}
	r := &Running{Bot: b, Store: st, done: make(chan error, 1)}
	var srv *httptest.Server
	if cfg.SigningSecret != "" {
		srv = httptest.NewServer(b.SlackHandler())
		r.URL = srv.URL
	}
	go func() { r.done <- b.Run(ctx) }()
	var once sync.Once
	r.Stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-r.done:
				if err != nil {
					h.T.Errorf("bot.Run: %v", err)
				}
			case <-time.After(10 * time.Second):
				h.T.Errorf("bot did not stop within 10s")
			}
			if srv != nil {
				srv.Close()
			}
			_ = st.Close()
		})
	}
	h.T.Cleanup(r.Stop)
	h.Track(r)
	if srv != nil {
		h.WaitFor("the bot serving Slack's requests", b.Connected)
		return r
	}
	h.WaitFor("the bot's Slack connection", func() bool { return h.Slack.Connects() > before && b.Connected() })
	return r
}

// Track adds a replica started outside StartBot (a test's own wiring) to
// the harness's, so that Settle and StopAll stop it with the others. r.Stop
// must stop the replica and wait for its Run to return, and may be called
// more than once.
func (h *Harness) Track(r *Running) {
	h.mu.Lock()
	h.bots = append(h.bots, r)
	h.mu.Unlock()
}

// Settle waits until the inbox is empty (every command and reply taken and
// done) and the shared schedule too (every job's result posted or the job
// dropped), then stops every replica. Once Run has
// returned nothing more can be posted or asked of the API, so counts taken
// afterwards are final: they replace "wait a while and count".
func (h *Harness) Settle() {
	h.T.Helper()
	st := h.OpenStore()
	h.WaitFor("an empty inbox and poll schedule", func() bool {
		q, err := st.Inbox().Queued(context.Background())
		if err != nil || q != 0 {
			return false
		}
		n, err := st.Jobs().Tracked(context.Background())
		return err == nil && n == 0
	})
	h.StopAll()
}

// StopAll stops every replica started on the harness.
func (h *Harness) StopAll() {
	h.mu.Lock()
	bots := slices.Clone(h.bots)
	h.mu.Unlock()
	for _, r := range bots {
		r.Stop()
	}
}

// OpenStore opens the world's store, closed when the test ends.
func (h *Harness) OpenStore() *store.Store {
	h.T.Helper()
	st, err := store.Open(context.Background(), h.RedisURL, store.WithPrefix(h.Prefix))
	if err != nil {
		h.T.Fatalf("open store: %v", err)
	}
	h.T.Cleanup(func() { _ = st.Close() })
	return st
}

// ReplyWithRedisDown posts a person's reply in a thread while srv, the
// world's Redis (RedisURL), is down; waits until the person is told
// something containing note, privately in that thread; then starts srv
// again and stops every replica, so that counts taken afterwards are final.
func (h *Harness) ReplyWithRedisDown(srv *redistest.Server, user, channel, threadTS, text, note string) {
	h.T.Helper()
	if err := srv.Kill(); err != nil {
		h.T.Fatal(err)
	}
	h.PostNoAck(user, channel, threadTS, text)
	h.WaitFor("a private note "+strconv.Quote(note), func() bool {
		for _, m := range h.Slack.Ephemerals(user) {
			if m.ThreadTS == threadTS && strings.Contains(m.Text, note) {
				return true
			}
		}
		return false
	})
	if err := srv.Start(); err != nil {
		h.T.Fatal(err)
	}
	h.StopAll()
}

// SiteURL is the public docs site of the harness's answers: sources link
// there (Config.Answers).
const SiteURL = "https://docs.example.com/"
