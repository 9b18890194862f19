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
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slacktest"
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
func Main(m *testing.M, redisURL *string, opts ...MainOption) {
	var o mainOptions
	for _, opt := range opts {
		opt(&o)
	}
	if o.parallel > 0 {
		redistest.Parallel(o.parallel)
	}
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

// Config is the settings of a bot started on a harness: the replica's own
// (app.Config, as `docsbot serve` fills it from its settings; zero values
// take the defaults, and polls and shutdowns are fast), and what only a
// test world needs besides.
type Config struct {
	app.Config
	// Answers turns on the answers from the docs: the harness's docs API
	// server's fake assistant answers for the implicit project (bot/ask);
	// with projects added, each project's server answers for it.
	Answers bool
	// Editors are DOCSBOT_EDITORS' user and user group ids, as the setting
	// takes them (parsed into Bot.Editors); none (and no Bot.Editors) makes
	// everyone an editor.
	Editors []string
	// AuditText keeps instructions' text in the audit trail
	// (DOCSBOT_AUDIT_TEXT); the trail is kept in the world's store, as
	// `docsbot serve` keeps it.
	AuditText bool
	// Now is the world's clock, set once: app.Config.Now (the clock of
	// every feature that tells time) where that is nil; time.Now when nil.
	Now func() time.Time
	// Serve, when set, names the projects added with AddProject that the
	// bot serves, as if the others were removed from its projects file;
	// all of them when empty. Bot.Projects, when set, is a projects file a
	// test loaded, served instead; a bot of a world with neither serves the
	// implicit project on H.API.
	Serve []string
	// StoreOptions are added to the options of the bot's store (for
	// example store.WithReplicaAcks).
	StoreOptions []store.Option
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
// and waits until its socket is connected (in HTTP mode, Bot.Mode
// bot.ModeHTTP with Bot.SigningSecret: until it serves Slack's requests at
// Running.URL; the fake Slack must deliver there,
// slacktest.WithHTTPDelivery).
func (h *Harness) StartBot(cfg Config) *Running {
	h.T.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, err := store.Open(ctx, h.RedisURL, append([]store.Option{store.WithPrefix(h.Prefix)}, cfg.StoreOptions...)...)
	if err != nil {
		h.T.Fatalf("open store: %v", err)
	}
	slackOpts := append([]slack.Option{slack.OptionAPIURL(h.Slack.APIURL)}, bot.SlackOptions(cfg.Bot.Metrics)...)
	sc := slack.New("xoxb-test-bot-token", append([]slack.Option{slack.OptionAppLevelToken("xapp-test-app-token")}, slackOpts...)...)
	// Count connections ever opened: a bot stopped just before may still be
	// counted among the open ones for a moment.
	before := h.Slack.Connects()
	b, err := app.New(h.appConfig(cfg, st), app.Deps{Slack: sc, Store: st, SlackOptions: slackOpts, APIOptions: []docsapi.Option{docsapi.WithRetryPolicy(testRetries)}})
	if err != nil {
		h.T.Fatalf("building the bot: %v", err)
	}
	r := &Running{Bot: b, Store: st, done: make(chan error, 1)}
	var srv *httptest.Server
	if cfg.Bot.Mode == bot.ModeHTTP {
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

// appConfig is cfg's replica settings in a world: its projects, fast polls
// and shutdowns, the world's clock, the editors, the audit trail in st.
func (h *Harness) appConfig(cfg Config, st *store.Store) app.Config {
	h.T.Helper()
	c := cfg.Config
	set, err := h.projectSet(c.Bot.Projects, cfg.Serve)
	if err != nil {
		h.T.Fatalf("projects: %v", err)
	}
	if cfg.Answers && set.Implicit() {
		set = set.WithAssistant(project.ImplicitName, project.Assistant{Key: project.NewSecret(h.API.AssistantKey), Domain: h.API.Domain,
			DiscoveryURL: h.API.DiscoveryURL, SiteURL: SiteURL})
	}
	if cfg.Answers && !set.Implicit() {
		h.mu.Lock()
		for _, p := range h.projects {
			set = set.WithAssistant(p.Name, project.Assistant{Key: project.NewSecret(p.API.AssistantKey), Domain: p.API.Domain,
				DiscoveryURL: p.API.DiscoveryURL, SiteURL: SiteURL})
		}
		h.mu.Unlock()
	}
	c.Bot.Projects = set
	if len(cfg.Editors) > 0 {
		if c.Bot.Editors, err = roles.ParseEditors(cfg.Editors); err != nil {
			h.T.Fatalf("editors: %v", err)
		}
	}
	c.Bot.Audit = st.AuditLog(store.AuditOptions{KeepText: cfg.AuditText})
	c.Bot.Logger = slog.New(slog.NewTextHandler(h.Logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c.Bot.SlackHost = bot.SlackHostOf(h.Slack.APIURL)
	c.Bot.ShutdownGrace = cmp.Or(c.Bot.ShutdownGrace, 5*time.Second)
	c.Bot.LandingWindow = cmp.Or(c.Bot.LandingWindow, 500*time.Millisecond)
	c.Agent.PollInterval = cmp.Or(c.Agent.PollInterval, 20*time.Millisecond)
	c.Agent.PollMaxInterval = cmp.Or(c.Agent.PollMaxInterval, 80*time.Millisecond)
	if c.Now == nil {
		c.Now = cfg.Now
	}
	if c.Bot.InstallMode && c.Install.APIURL == "" {
		c.Install.APIURL = h.Slack.APIURL
	}
	return c
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
