package docsapi

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"time"
)

// DefaultBaseURL is the production address of the service.
const DefaultBaseURL = "https://api.mintlify.com"

// MaxVisitorsLimit is the largest page size the visitors export accepts.
const MaxVisitorsLimit = 250

const (
	defaultAttemptTimeout = 30 * time.Second
	defaultMaxPages       = 10000
	modulePath            = "github.com/docsbot/docsbot"
)

// Client calls the service for one project. It is safe for concurrent use;
// its settings do not change after [NewClient] returns.
type Client struct {
	apiKey         *secret // a pointer, so that even a printed copy of the struct shows no key
	projectID      string
	baseURL        string // without a trailing slash
	rawBaseURL     string // as given to WithBaseURL, checked by NewClient
	rawDiscovery   string // as given to WithDiscoveryURL, checked by NewAssistant
	httpClient     *http.Client
	userAgent      string
	retry          RetryPolicy
	attemptTimeout time.Duration
	logger         *slog.Logger
	maxPages       int
}

// Option changes a setting of a [Client] built by [NewClient].
type Option func(*Client)

// WithBaseURL sets the service address, for example a local test server.
// A trailing slash is tolerated. NewClient rejects an address that is not an
// absolute http or https URL.
func WithBaseURL(u string) Option { return func(c *Client) { c.rawBaseURL = u } }

// WithHTTPClient sets the HTTP client used for every request. Its own Timeout,
// if any, applies on top of the per-attempt timeout. A nil client is ignored.
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) {
		if h != nil {
			c.httpClient = h
		}
	}
}

// WithRetryPolicy sets how failed attempts are retried; see [RetryPolicy].
func WithRetryPolicy(p RetryPolicy) Option { return func(c *Client) { c.retry = p } }

// WithAttemptTimeout sets the time limit of each attempt (connect, send and
// read the whole response), applied inside the caller's context. The default
// is 30s; zero leaves only the caller's context; a negative value is rejected.
func WithAttemptTimeout(d time.Duration) Option { return func(c *Client) { c.attemptTimeout = d } }

// WithLogger sets the logger that receives debug records of attempts and
// retries. Records never contain the API key or request bodies. A nil logger
// is ignored; by default nothing is logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *Client) {
		if l != nil {
			c.logger = l
		}
	}
}

// WithMaxPages caps the number of pages one visitors walk may fetch
// (default 10000); a walk that would need more stops with an error.
func WithMaxPages(n int) Option { return func(c *Client) { c.maxPages = n } }

// KeyPrefix begins every docs API key; a value holding it is a key.
const KeyPrefix = "mint_"

// NewClient returns a client for the project projectID, authenticated by
// apiKey. It fails with a [*ValidationError] when the key or the project id is
// empty, or when an option holds an invalid value.
func NewClient(apiKey, projectID string, opts ...Option) (*Client, error) {
	return newClient(apiKey, projectID, false, opts)
}

// newClient builds a client of the REST API, or with discovery set one of the
// discovery API, whose address is WithDiscoveryURL's and whose id is the docs
// domain. The same options serve both, so a program can pass one list to
// NewClient and NewAssistant.
func newClient(apiKey, id string, discovery bool, opts []Option) (*Client, error) {
	c := &Client{
		apiKey:         newSecret(strings.TrimSpace(apiKey)),
		projectID:      strings.TrimSpace(id),
		rawBaseURL:     DefaultBaseURL,
		rawDiscovery:   DefaultDiscoveryURL,
		userAgent:      defaultUserAgent(),
		retry:          DefaultRetryPolicy(),
		attemptTimeout: defaultAttemptTimeout,
		logger:         slog.New(slog.DiscardHandler),
		maxPages:       defaultMaxPages,
	}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if err := checkKey(c.apiKey.value()); err != nil {
		return nil, err
	}
	idField, rawBase, baseField := "project id", c.rawBaseURL, "base url"
	if discovery {
		idField, rawBase, baseField = "domain", c.rawDiscovery, "discovery url"
	}
	if err := checkPathID(idField, c.projectID); err != nil {
		return nil, err
	}
	base, err := parseBaseURL(baseField, rawBase)
	if err != nil {
		return nil, err
	}
	c.baseURL = base
	if err := c.retry.validate(); err != nil {
		return nil, err
	}
	if c.attemptTimeout < 0 {
		return nil, &ValidationError{Field: "attempt timeout", Problem: "must not be negative"}
	}
	if c.maxPages < 1 {
		return nil, &ValidationError{Field: "max pages", Problem: "must be at least 1"}
	}
	if c.httpClient == nil {
		c.httpClient = &http.Client{Transport: newTransport()}
	}
	return c, nil
}

// ProjectID returns the project the client works on.
func (c *Client) ProjectID() string { return c.projectID }

// String describes the client without its API key.
func (c *Client) String() string {
	if c == nil {
		return "docsapi.Client(nil)"
	}
	return fmt.Sprintf("docsapi.Client{project: %q, baseURL: %q}", c.projectID, c.baseURL)
}

// GoString is like String, so that %#v does not print the API key either.
func (c *Client) GoString() string { return c.String() }

// LogValue keeps the API key out of structured logs.
func (c *Client) LogValue() slog.Value {
	if c == nil {
		return slog.StringValue("<nil>")
	}
	return slog.GroupValue(slog.String("project", c.projectID), slog.String("baseURL", c.baseURL))
}

func newTransport() http.RoundTripper {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		return t.Clone()
	}
	return http.DefaultTransport
}

// checkKey rejects an empty key and one that could not travel in a header.
// The problem text never quotes the key.
func checkKey(k string) error {
	if k == "" {
		return &ValidationError{Field: "api key", Problem: "must not be empty"}
	}
	for i := 0; i < len(k); i++ {
		if k[i] <= ' ' || k[i] >= 0x7f {
			return &ValidationError{Field: "api key", Problem: "must contain only printable ASCII characters without spaces"}
		}
	}
	return nil
}

func parseBaseURL(field, raw string) (string, error) {
	bad := func(problem string) error { return &ValidationError{Field: field, Problem: problem} }
	s := strings.TrimRight(strings.TrimSpace(raw), "/")
	if s == "" {
		return "", bad("must not be empty")
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", bad("is not a valid URL")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", bad("must start with http:// or https://")
	case u.Host == "":
		return "", bad("must name a host")
	case u.User != nil:
		return "", bad("must not carry credentials")
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return "", bad("must not have a query or fragment")
	}
	return s, nil
}

// defaultUserAgent names the module version the binary was built from, or dev.
func defaultUserAgent() string {
	v := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path == modulePath {
			v = bi.Main.Version
		}
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				v = d.Version
			}
		}
	}
	if v == "" || v == "(devel)" {
		v = "dev"
	}
	return "docsbot/" + v
}

// secret holds the API key. Its printed forms never show the value.
type secret string

func newSecret(s string) *secret { return (*secret)(&s) }

func (s *secret) value() string {
	if s == nil {
		return ""
	}
	return string(*s)
}

const redacted = "[redacted]"

// String hides the value.
func (secret) String() string { return redacted }

// GoString hides the value.
func (secret) GoString() string { return redacted }

// LogValue hides the value.
func (secret) LogValue() slog.Value { return slog.StringValue(redacted) }
