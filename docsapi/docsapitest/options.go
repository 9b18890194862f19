package docsapitest

import (
	"log/slog"
	"strings"
	"time"
)

// Defaults used by [NewServer] when no option overrides them.
const (
	DefaultKey        = "mint_test_key_0000000000000000"
	DefaultProjectID  = "proj_test"
	DefaultRepository = "https://github.com/acme/docs"
	defaultAddr       = "127.0.0.1:0"
	// DefaultAssistantKey is the assistant (discovery) key the server accepts.
	DefaultAssistantKey = "mint_dsc_test_key_000000000000"
	// DefaultDomain is the docs site the discovery endpoints answer for.
	DefaultDomain = "acme"
	// DefaultDiscoveryPrefix is the path the discovery API is served under,
	// as in https://api.mintlify.com/discovery.
	DefaultDiscoveryPrefix = "/discovery"
)

// Option configures a [Server] at creation.
type Option func(*config)

type config struct {
	key         string
	projectID   string
	addr        string
	now         func() time.Time
	lifecycle   func(prompt string) Lifecycle
	dataset     *Dataset
	analytics   *Analytics
	limits      Limits
	repository  string
	floatCounts bool
	logger      *slog.Logger
	maxRequests int

	assistantKey    string
	domain          string
	discoveryPrefix string
	docs            []DocPage
	deltaDelay      time.Duration
	sourceURLs      bool
	siteURL         string

	deployLifecycle func(DeployRequest) DeployLifecycle
	noPreviews      bool
}

func defaultConfig() config {
	return config{
		key:        DefaultKey,
		projectID:  DefaultProjectID,
		addr:       defaultAddr,
		now:        time.Now,
		lifecycle:  DefaultLifecycle,
		limits:     DefaultLimits(),
		repository: DefaultRepository,

		assistantKey:    DefaultAssistantKey,
		domain:          DefaultDomain,
		discoveryPrefix: DefaultDiscoveryPrefix,
		docs:            DefaultDocs(),

		deployLifecycle: DefaultDeployLifecycle,
	}
}

// WithKey sets the API key the server accepts (default [DefaultKey]).
func WithKey(k string) Option { return func(c *config) { c.key = k } }

// WithProjectID sets the only project the server knows (default [DefaultProjectID]).
func WithProjectID(p string) Option { return func(c *config) { c.projectID = p } }

// WithAddr sets the listen address, e.g. "127.0.0.1:7070" (default "127.0.0.1:0").
func WithAddr(addr string) Option { return func(c *config) { c.addr = addr } }

// WithClock sets the server clock (default time.Now). It drives ActiveFor,
// the rate-limit windows, createdAt and archivedAt, Request.At and the
// dataset's "today". It must be safe for concurrent use.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.now = now
		}
	}
}

// WithLifecycle sets the function that decides the lifecycle of each created
// job and of each follow-up message (default [DefaultLifecycle]). It is called
// without the server lock held but must not block.
func WithLifecycle(f func(prompt string) Lifecycle) Option {
	return func(c *config) {
		if f != nil {
			c.lifecycle = f
		}
	}
}

// WithDataset sets the visitor data (default NewDataset(240, 1)). The server
// makes the dataset follow its clock, so give a Dataset to one server only.
func WithDataset(d *Dataset) Option { return func(c *config) { c.dataset = d } }

// WithLimits sets the hourly rate limits (default [DefaultLimits]).
func WithLimits(l Limits) Option { return func(c *config) { c.limits = l } }

// WithRepository sets source.repository of jobs and the base of pull request
// links (default [DefaultRepository]).
func WithRepository(url string) Option { return func(c *config) { c.repository = url } }

// WithFloatCounts makes the analytics endpoint write every count as a JSON
// number with a fraction, such as 12.0, to exercise tolerant decoding.
func WithFloatCounts(on bool) Option { return func(c *config) { c.floatCounts = on } }

// WithLogger logs one line per answered request (method, path, endpoint,
// status, duration) to l. The default is no logging. Keys are never logged.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithAssistantKey sets the key the discovery endpoints accept (default
// [DefaultAssistantKey]). The admin key ([WithKey]) is not accepted there,
// nor this one on the other endpoints.
func WithAssistantKey(k string) Option { return func(c *config) { c.assistantKey = k } }

// WithDomain sets the docs site the discovery endpoints answer for (default
// [DefaultDomain]); another domain in the path is answered 404.
func WithDomain(d string) Option { return func(c *config) { c.domain = d } }

// WithDiscoveryPrefix sets the path the discovery API is served under
// (default [DefaultDiscoveryPrefix]); "" serves it at the root.
func WithDiscoveryPrefix(p string) Option {
	return func(c *config) {
		c.discoveryPrefix = ""
		if t := strings.Trim(p, "/"); t != "" {
			c.discoveryPrefix = "/" + t
		}
	}
}

// WithDocs sets the docs pages the assistant, search and page endpoints
// answer from (default [DefaultDocs]). The server keeps a copy.
func WithDocs(pages []DocPage) Option {
	return func(c *config) { c.docs = append([]DocPage(nil), pages...) }
}

// WithDeltaDelay makes the assistant wait d before each text delta after the
// first, so that a sandbox shows an answer arriving. The default is none;
// tests pace a stream with [Fault].Pace instead.
func WithDeltaDelay(d time.Duration) Option { return func(c *config) { c.deltaDelay = d } }

// WithSourceURLs makes answers carry a source-url chunk per page found,
// with the page's address on the docs site, besides the search tool's
// results. By default they do not, as the real service is only known to
// send the search tool's results.
func WithSourceURLs(on bool) Option { return func(c *config) { c.sourceURLs = on } }

// WithMaxRequests keeps only the n most recent entries of [Server.Requests],
// for servers that run a long time. [Server.Count] stays exact. The default,
// 0, keeps every request.
func WithMaxRequests(n int) Option { return func(c *config) { c.maxRequests = n } }

// WithAnalytics sets the searches, feedback and assistant conversations the
// analytics endpoints serve (default [DefaultAnalytics]). The server keeps a
// copy.
func WithAnalytics(a *Analytics) Option {
	return func(c *config) {
		if a != nil {
			c.analytics = a.clone()
		}
	}
}
