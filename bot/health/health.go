// Package health is /docs-health: what tells a docs team what to fix, from
// the docs site's analytics: the searches that found nothing, the pages
// readers voted down with their comments, the questions the assistant could
// not answer, and the pages most viewed; each problem one click from an
// agent job (bot.ActionFixDocs, handled by the agent).
//
// A view is one piece of inbox work: it draws on the organisation's one
// analytics budget (bot.Analytics, as /docs-visitors does) for the requests
// it may make, gives back what it did not use, and caches what it read per
// project, view and range for every replica (store.Analytics' reports).
package health

import (
	"context"
	"iter"
	"log/slog"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Command is the slash command of the docs health.
const Command = "/docs-health"

// workHealth is the kind of inbox work of a /docs-health view.
const workHealth = "health.view"

// Defaults of Config.
const (
	// DefaultCacheTTL is how long a view read from the API is reused.
	DefaultCacheTTL = 10 * time.Minute
	// DefaultMaxPages bounds the pages of one list a view reads.
	DefaultMaxPages = 3
)

// HealthAPI is what the docs health reads of a project's analytics
// (*docsapi.Client).
type HealthAPI interface {
	SearchPages(ctx context.Context, p docsapi.SearchesParams, maxPages int) iter.Seq2[*docsapi.SearchesPage, error]
	FeedbackByPage(ctx context.Context, p docsapi.FeedbackByPageParams) (*docsapi.FeedbackByPage, error)
	FeedbackPages(ctx context.Context, p docsapi.FeedbackParams, maxPages int) iter.Seq2[*docsapi.FeedbackPage, error]
	ConversationPages(ctx context.Context, p docsapi.ConversationsParams, maxPages int) iter.Seq2[*docsapi.ConversationsPage, error]
	ViewPages(ctx context.Context, p docsapi.ViewsParams, maxPages int) iter.Seq2[*docsapi.ViewsPage, error]
	// ProjectID keys the cache.
	ProjectID() string
}

// Reports caches views for every replica (store.Analytics).
type Reports interface {
	SaveReport(ctx context.Context, key string, data []byte, keep time.Duration) error
	LoadReport(ctx context.Context, key string) (*store.CachedReport, error)
}

// Budgets draws on the analytics budget (store.Limits).
type Budgets interface {
	Draw(ctx context.Context, d store.Draw, n int) (store.Grant, error)
	Refund(ctx context.Context, d store.Draw, tokens []string) error
}

// HealthStore is the parts of the store the docs health uses.
type HealthStore struct {
	Reports Reports
	Budgets Budgets
}

// Config holds the docs health's settings; zero values take the defaults.
type Config struct {
	CacheTTL time.Duration
	MaxPages int
	Now      func() time.Time
}

func (c Config) withDefaults() Config {
	if c.CacheTTL <= 0 {
		c.CacheTTL = DefaultCacheTTL
	}
	if c.MaxPages <= 0 {
		c.MaxPages = DefaultMaxPages
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// health is the feature.
type health struct {
	core  *bot.Bot
	cfg   Config
	apis  map[string]HealthAPI // by project name
	store HealthStore
	log   *slog.Logger
}

// Register adds /docs-health to b, reading each project's analytics through
// its API (apis, by project name), and returns what the App Home reads of it.
func Register(b *bot.Bot, cfg Config, apis map[string]HealthAPI, st HealthStore) *Feature {
	h := &health{core: b, cfg: cfg.withDefaults(), apis: apis, store: st, log: b.Logger().With("feature", "health")}
	b.HandleCommand(Command, h.onCommand)
	b.HandleWork(workHealth, bot.WorkHandler{Do: h.doView, GiveUp: h.giveUp})
	return &Feature{h: h}
}
