// Package health is /docs-health: what tells a docs team what to fix, from
// the docs site's analytics: the searches that found nothing, the pages
// readers voted down with their comments, the questions the assistant could
// not answer, and the pages most viewed; each problem one click from an
// agent job (jobdraft.ActionFixDocs, handled by the agent).
//
// A view is one piece of inbox work: it draws on the organisation's one
// analytics budget (bot.Analytics, as /docs-visitors does) for the requests
// it may make, within the person's share (bot.Sight.Spender: a guest's or
// another organisation's person's is DOCSBOT_ANALYTICS_PER_GUEST), gives
// back what it did not use, and caches what it read per project, view and
// range for every replica (store.Analytics' reports).
//
// Visitors' words stay with the organisation (bot.Sight). The comments,
// code-sample reports, search terms, visitors' questions, their categories
// and the assistant's replies are words; numbers, page paths, dates and
// ranges are not. A guest or a person of another organisation (or one
// Slack cannot say) gets the same view with counts and paths only, a line
// saying why, and no Fix with agent buttons (a button's value carries the
// evidence). A view asked in a channel shared with another organisation, or
// with a guest or a person of another organisation in it, is never posted
// there: a member gets it in their direct message with
// docsbot, a real message where Fix with agent works and starts its job in
// that DM's thread, with a private note in the channel saying so (told
// privately in the channel, without buttons, when the DM cannot be
// posted); a guest or another organisation's person gets it privately in
// the channel (response_url), since they have no buttons to use and
// docsbot may not be able to write to them directly. The Home shows the
// words only to members (Feature.CachedHealth), and so does the pane
// (Feature.HealthFor: the week's summary read on the person's share of the
// budget when it is not cached; Feature.HealthAtHand says whether it can
// be, so that the pane offers it only then).
//
// `/docs-health quality [7d|30d] [csv]` says how the questions docsbot
// answered came out (quality.go): bot/outcome's report, read from the
// store (store.Outcomes), never from the analytics, so it spends no budget;
// its questions are words (a guest gets their counts).
//
// `/docs-health digest weekly|off|status` subscribes a channel to the
// weekly summary (digest.go); only a member of the organisation may
// subscribe one, and a digest posted in a channel shared with another
// organisation or with guests in it (decided at each posting) carries
// counts and paths only,
// without buttons. The core's digest loop (bot.Digests.Register) claims
// each owed posting in the store on every replica, the feature fetches it
// as scheduled work (the digests' reserve of the budget) and the core
// posts it once (bot.Digests.Post); a week whose analytics cannot be read
// (or paid for) within its posting window is skipped and the subscriber
// told (bot.Digests.HandBack).
package health

import (
	"context"
	"iter"
	"log/slog"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/digest"
	"github.com/docsbot/docsbot/bot/digests"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Command is the slash command of the docs health.
const Command = "/docs-health"

// Name is the feature's name (app.Config.Features).
const Name = "health"

// Declaration is what /docs-health serves and needs of Slack
// (declare.Declaration): the command; a member who asks in a channel shared
// with another organisation is answered in a direct message
// (conversations.open). Its rows' Fix with agent is the agent's button.
// Register routes exactly these.
func Declaration() declare.Declaration {
	return declare.Declaration{
		Name: Name,
		Commands: []declare.Command{{Name: Command,
			Description: "What to fix in the docs, from searches, feedback and unanswered questions",
			UsageHint:   "[7d|30d|last-month|YYYY-MM-DD..YYYY-MM-DD] [searches | feedback | questions | views] [project=NAME] | quality [7d|30d] [csv] | digest weekly|off|status | help",
			Examples:    []string{Command, Command + " feedback", Command + " questions 7d", Command + " quality 30d", Command + " digest weekly"}}},
		Scopes: []declare.Scope{{Name: "im:write", Why: "/docs-health asked in a channel shared with another organisation"}},
	}
}

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

// Analytics caches views for every replica (store.Analytics).
type Analytics interface {
	SaveReport(ctx context.Context, key string, data []byte, keep time.Duration) error
	LoadReport(ctx context.Context, key string) (*store.CachedReport, error)
}

// Limits draws on the analytics budget (store.Limits).
type Limits interface {
	Draw(ctx context.Context, d store.Draw, n int) (store.Grant, error)
	Room(ctx context.Context, d store.Draw) (store.Grant, error)
	Refund(ctx context.Context, d store.Draw, tokens []string) error
}

// Digests is the weekly health digest: channels' subscriptions and each
// posting once across replicas (store.HealthDigests).
type Digests interface {
	digests.Runs
	SubscribeDigest(ctx context.Context, d store.DigestSub) error
	DigestSub(ctx context.Context, team, channel, project string) (*store.DigestSub, error)
	DigestSubs(ctx context.Context) ([]store.DigestSub, error)
	UnsubscribeDigest(ctx context.Context, team, channel, project string) (bool, error)
}

// HelpChannels counts the threads of the help channels whose expert call
// was resolved (store.HelpChannels, written by the help channels when a
// thread is marked resolved).
type HelpChannels interface {
	ResolvedCalls(ctx context.Context, project string, from, to time.Time) (int64, error)
}

// Outcomes reads the questions' outcomes by day (store.Outcomes), for the
// quality report (bot/outcome).
type Outcomes = outcome.DayReader

// Deps is what the docs health uses: one part of the store each
// (store/doc.go, "Parts"), embedded and named as the store names it; every
// part is required.
type Deps struct {
	Analytics    // store.Analytics
	Limits       // store.Limits
	Digests      // store.HealthDigests
	HelpChannels // store.HelpChannels
	Outcomes     // store.Outcomes
}

// Config holds the docs health's settings; zero values take the defaults.
type Config struct {
	CacheTTL time.Duration
	MaxPages int
	Now      func() time.Time
	// Digest is when digests are due (DOCSBOT_DIGEST_TIME, shared with the
	// visitors digest) where a workspace set no digest time in Slack
	// (bot/digests); DigestTick how often each replica looks for one owed
	// (a minute when zero).
	Digest     digest.Schedule
	DigestTick time.Duration
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
	if c.Digest.Location == nil {
		c.Digest, _ = digest.Parse(digest.DefaultTime)
	}
	if c.DigestTick <= 0 {
		c.DigestTick = time.Minute
	}
	return c
}

// health is the feature.
type health struct {
	core  *bot.Bot
	cfg   Config
	store Deps
	log   *slog.Logger
	// shown are the hooks called after a person's summary was shown
	// (Feature.OnFetched).
	shown []func(ctx context.Context, team, user, work string)
}

// Register adds /docs-health to b, reading each project's analytics through
// its docs API (b.Project), and returns what the App Home reads of it.
func Register(b *bot.Bot, cfg Config, st Deps) (*Feature, error) {
	routes := b.Router()
	h := &health{core: b, cfg: cfg.withDefaults(), store: st, log: b.Logger().With("feature", "health")}
	routes.Declare(Declaration())
	routes.HandleCommand(Command, h.onCommand)
	routes.HandleWork(workHealth, bot.WorkHandler{Do: h.doView, GiveUp: h.giveUp})
	digests.New(b).Register(h.digestFeed())
	return &Feature{h: h}, nil
}
