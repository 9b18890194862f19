package slacktest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Server is a fake Slack: the Web API under APIURL and Socket Mode connections
// opened through apps.connections.open. Create it with NewServer and stop it with Close.
// Its state is in parts: the workspaces (AddWorkspace), what people and
// the bot see in them (channels, messages, views, files), the installs (the
// tokens they issued, OAuth codes, people signed in), the delivery (how Slack
// reaches the app: sockets, envelopes, acks, HTTP delivery) and the faults
// (what tests make it get wrong, and its limits).
type Server struct {
	// APIURL is the Web API base, "http://127.0.0.1:PORT/api/" with its trailing
	// slash, ready for slack.OptionAPIURL.
	APIURL string

	cfg    config
	base   string // "http://host:port", no trailing slash
	verify string // verification token sent in payloads (not a credential)
	ln     net.Listener
	srv    *http.Server
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// faults locks on its own; everything below mu is under mu.
	faults *faults

	mu     sync.Mutex
	closed bool
	workspaceSet
	workspaceState
	deliveryState
	installState
	// calls records every Web API call answered; subs are the Changes
	// subscriptions.
	calls   []Call
	subs    map[int]chan struct{}
	nextSub int
}

// NewServer starts a fake Slack listening on 127.0.0.1 (or WithAddr). It panics
// if it cannot listen, like httptest.NewServer. The workspace starts with the
// channel C0GENERAL "general" (bot is a member) and the users U0ALICE "alice"
// and U0BOB "bob".
func NewServer(opts ...Option) *Server {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		panic(fmt.Sprintf("slacktest: listen on %s: %v", cfg.addr, err))
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		cfg:    cfg,
		base:   "http://" + net.JoinHostPort(host, port),
		verify: randomString(24),
		ln:     ln,
		ctx:    ctx,
		cancel: cancel,
		faults: newFaults(),
		subs:   map[int]chan struct{}{},
		workspaceState: workspaceState{
			channels: map[string]*channelState{}, users: map[string]string{}, standing: map[string]Standing{},
			responses: map[string]*responseURL{}, triggers: map[string]*trigger{},
			views: map[string]*view{}, homeViews: map[string]string{}, statuses: map[string]string{},
			uploads: map[string]*upload{}, shared: map[string]*sharedFile{}, groups: map[string][]string{}, groupHandles: map[string]string{},
			prompts: map[string]SuggestedPrompts{}, titles: map[string]string{},
			assistantThreads: map[string]*assistantThread{}, sessions: map[string]*agentSession{},
			appContexts: map[string]map[string]any{}, shares: map[string]*linkShare{},
		},
		deliveryState: deliveryState{
			tickets: map[string]struct{}{}, envs: map[string]*envelope{}, byEvent: map[string]*envelope{},
		},
		installState: newInstallState(cfg.teamID),
	}
	s.primary = &Workspace{Team: cfg.teamID, Name: cfg.teamDomain, Domain: cfg.teamDomain, BotUserID: cfg.botUserID, BotID: cfg.botID}
	s.workspaces = map[string]*Workspace{cfg.teamID: s.primary}
	s.workspaceOrder = []string{cfg.teamID}
	s.tokens[cfg.botToken] = &issuedToken{grant: grant{team: cfg.teamID}}
	s.APIURL = s.base + "/api/"
	s.AddChannel(Channel{ID: "C0GENERAL", Name: "general", BotMember: true})
	s.AddUser(cfg.botUserID, cfg.botName)
	s.AddUser("U0ALICE", "alice")
	s.AddUser("U0BOB", "bob")

	mux := http.NewServeMux()
	mux.HandleFunc("/api/", s.serveAPI)
	mux.HandleFunc("/link/", s.serveLink)
	mux.HandleFunc("/response/", s.serveResponseURL)
	mux.HandleFunc("/upload/", s.serveUpload)
	mux.HandleFunc("GET /files-pri/", s.serveSharedFile)
	mux.HandleFunc("GET /files-signin", s.serveFilesSignIn)
	mux.HandleFunc("GET /oauth/v2/authorize", s.serveAuthorize)
	mux.HandleFunc("GET /signin", s.serveSignIn)
	s.srv = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	s.wg.Go(func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			cfg.logger.Error("slacktest: serve", "err", err)
		}
	})
	return s
}

// URL is the server's base address, "http://host:port", for a sandbox to serve
// its own pages next to the fake Slack.
func (s *Server) URL() string { return s.base }

// BotToken is the bot token (xoxb-) the Web API accepts: the made-up value of
// WithBotToken or the default, for the bot under test to be configured with.
func (s *Server) BotToken() string { return s.cfg.botToken }

// AppToken is the app-level token (xapp-) apps.connections.open accepts: the
// made-up value of WithAppToken or the default.
func (s *Server) AppToken() string { return s.cfg.appToken }

// BotUserID is the bot's user id (WithBot; default "U0BOT"): the author of
// the bot's posts.
func (s *Server) BotUserID() string { return s.cfg.botUserID }

// Close stops the server: it closes the listener and every Socket Mode
// connection and waits for the server's goroutines. Calling it again does nothing.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	conns := s.conns
	s.conns = nil
	for _, e := range s.envs {
		e.stopTimer()
	}
	s.mu.Unlock()

	s.cancel()
	_ = s.srv.Close()
	for _, c := range conns {
		c.close()
	}
	s.wg.Wait()
	s.changed()
}

// AddChannel adds a channel, or replaces the settings of the channel with the same
// ID (its history is kept), for example to make the bot join or leave it.
func (s *Server) AddChannel(c Channel) {
	s.mu.Lock()
	if ch, ok := s.channels[c.ID]; ok {
		ch.Channel = c
	} else {
		s.channels[c.ID] = &channelState{Channel: c, byTS: map[string]*msg{}}
		s.channelOrder = append(s.channelOrder, c.ID)
	}
	s.mu.Unlock()
	s.changed()
}

// AddUser adds a person to the workspace, or renames an existing one.
func (s *Server) AddUser(id, name string) {
	s.mu.Lock()
	if _, ok := s.users[id]; !ok {
		s.userOrder = append(s.userOrder, id)
	}
	s.users[id] = name
	s.mu.Unlock()
	s.changed()
}

// Channels lists the workspace's channels in the order they were added,
// direct messages (OpenDM) included.
func (s *Server) Channels() []Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Channel, 0, len(s.channelOrder))
	for _, id := range s.channelOrder {
		out = append(out, s.channels[id].Channel)
	}
	return out
}

// Users lists the workspace's people, the bot included, in the order they were added.
func (s *Server) Users() []User {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]User, 0, len(s.userOrder))
	for _, id := range s.userOrder {
		out = append(out, User{ID: id, Name: s.users[id], Bot: s.botUserLocked(id)})
	}
	return out
}
