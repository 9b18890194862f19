package docsapitest

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Server is a running fake Documentation Service API. Create it with
// [NewServer] or [Start] and stop it with [Server.Close]. All methods are safe
// for concurrent use.
type Server struct {
	// URL is the base URL, such as "http://127.0.0.1:41234", with no trailing slash.
	URL string
	// Key is the API key the server accepts as "Authorization: Bearer <Key>".
	Key string
	// ProjectID is the only project the server knows.
	ProjectID string
	// DiscoveryURL is the discovery API's base URL, URL followed by the
	// discovery prefix, such as "http://127.0.0.1:41234/discovery".
	DiscoveryURL string
	// AssistantKey is the key the discovery endpoints accept.
	AssistantKey string
	// Domain is the docs site the discovery endpoints answer for.
	Domain string

	cfg       config
	srv       *http.Server
	done      chan struct{}
	closeOnce sync.Once
	inflight  sync.WaitGroup

	mu        sync.Mutex
	closed    bool
	lifecycle func(prompt string) Lifecycle
	limits    Limits
	windows   map[Endpoint][]time.Time
	jobs      map[string]*job
	order     []*job
	prSeq     int
	faults    []*faultState
	requests  []*Request
	counts    map[Endpoint]int
	threads   map[string]*assistantThread
	threadSeq int
	questions int

	deployLifecycle func(DeployRequest) DeployLifecycle
	noPreviews      bool
	failNext        int
	deploySeq       int
	deployments     map[string]*deployment
	deployOrder     []*deployment
}

// NewServer starts a server on 127.0.0.1 with a free port (or the address of
// [WithAddr]). It panics if it cannot listen, like httptest.NewServer; use
// [Start] to get an error instead.
func NewServer(opts ...Option) *Server {
	s, err := Start(opts...)
	if err != nil {
		panic(err)
	}
	return s
}

// Start is [NewServer] returning an error when the address cannot be used.
func Start(opts ...Option) (*Server, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.dataset == nil {
		cfg.dataset = NewDataset(240, 1)
	}
	cfg.dataset.setClock(cfg.now)
	if cfg.analytics == nil {
		cfg.analytics = DefaultAnalytics().clone()
	}
	cfg.siteURL = "https://" + cfg.domain + ".mintlify.app"

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return nil, fmt.Errorf("docsapitest: listen on %q: %w", cfg.addr, err)
	}
	s := &Server{
		URL:          baseURL(ln.Addr()),
		Key:          cfg.key,
		ProjectID:    cfg.projectID,
		AssistantKey: cfg.assistantKey,
		Domain:       cfg.domain,
		cfg:          cfg,
		done:         make(chan struct{}),
		lifecycle:    cfg.lifecycle,
		limits:       cfg.limits,
		windows:      make(map[Endpoint][]time.Time),
		jobs:         make(map[string]*job),
		counts:       make(map[Endpoint]int),
		threads:      make(map[string]*assistantThread),

		deployLifecycle: cfg.deployLifecycle,
		noPreviews:      cfg.noPreviews,
		deployments:     make(map[string]*deployment),
	}
	s.DiscoveryURL = s.URL + cfg.discoveryPrefix
	s.srv = &http.Server{
		Handler:           http.HandlerFunc(s.serveHTTP),
		ReadHeaderTimeout: 30 * time.Second,
	}
	if cfg.logger != nil {
		s.srv.ErrorLog = slog.NewLogLogger(cfg.logger.Handler(), slog.LevelWarn)
	}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && cfg.logger != nil {
			cfg.logger.Error("docsapitest: serve", "err", err)
		}
	}()
	return s, nil
}

// baseURL turns a listen address into a URL a client on this machine can use:
// an unspecified host (0.0.0.0 or ::) becomes 127.0.0.1.
func baseURL(a net.Addr) string {
	host, port := "127.0.0.1", "0"
	if ta, ok := a.(*net.TCPAddr); ok {
		port = strconv.Itoa(ta.Port)
		if ta.IP != nil && !ta.IP.IsUnspecified() {
			host = ta.IP.String()
		}
	}
	return "http://" + net.JoinHostPort(host, port)
}

// Close stops the server: it closes the listener and every connection, ends
// any fault delay early, and waits for running handlers. It is safe to call
// more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.done)
		_ = s.srv.Close()
		s.inflight.Wait()
	})
}

// enter registers a running handler; it reports false once Close has begun.
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.inflight.Add(1)
	return true
}

// Dataset returns the visitor data the server serves, for comparing answers
// with [Dataset.Totals] and [Dataset.Pages].
func (s *Server) Dataset() *Dataset { return s.cfg.dataset }

// now reads the server clock.
func (s *Server) now() time.Time { return s.cfg.now() }
