// Package unfurl unfurls links to the docs site: a link to a page of a
// project's site (DOCS_SITE_URL, each project's site_url) posted where the
// bot is shows, under the message, the page's title (the docs search's,
// title.go) and path, its views and the
// readers' 👍/👎 of the last 30 days, and Improve this page (the agent's
// job form for that page, jobdraft.ActionImprovePage; editors only, checked by
// the agent when pressed). A link to any other site is left alone.
//
// The figures are for members of the organisation (bot.Sight): a link in a
// conversation docsbot is not in (link_shared's is_bot_user_member false,
// or absent, as in the composer), in a channel shared with another
// organisation or with a guest in it, or posted by a guest or a person of
// another organisation, shows the page's path and why there are no
// figures, without Improve this page, and spends nothing.
//
// Lifecycle of a link_shared event:
//
//	link_shared -> links of a docs site? no: acked, nothing done
//	            -> yes: unfurl.links work (inbox, keyed by the event), acked
//	unfurl.links -> figures withheld (docsbot not in the conversation, the
//	                channel or the poster not for them)? the path and why
//	             -> else per project: the pages' figures from the analytics
//	                cache (store.Analytics report, kept cacheKeep), else, by
//	                the one replica whose mark (store.Limits.Once, cacheKeep)
//	                is first, one request set for every page of the project,
//	                drawn on the unfurls' own pool of the analytics budget
//	                (Config.AnalyticsPerHour, bot.AnalyticsLimits.Pool), given
//	                back unused; a refusal or a failure unfurls without
//	                figures, saying why -> chat.unfurl (by unfurl_id and
//	                source for a link in the composer, else by channel and
//	                ts); Slack replaces an unfurl, so a retry is harmless
package unfurl

import (
	"context"
	"iter"
	"time"

	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Name is the feature's name (app.Config.Features).
const Name = "unfurl"

// workLinks is the kind of inbox work of a link_shared event.
const workLinks = "unfurl.links"

// cacheKeep is how long a project's page figures are reused, by every
// replica, and how long one replica's request set stands for all: at most
// one request set per page (per project) in that time.
const cacheKeep = 10 * time.Minute

// days is the range of the figures: the last 30 days.
const days = 30

// Declaration is what the unfurls serve of Slack (declare.Declaration).
func Declaration() declare.Declaration {
	return declare.Declaration{
		Name: Name,
		Events: []declare.Event{{Name: string(slackevents.LinkShared), Why: "links to the docs site are unfurled",
			Scope: declare.Scope{Name: "links:read", Why: "links to the docs site posted in Slack"}}},
		Scopes:  []declare.Scope{{Name: "links:write", Why: "a docs page's views and 👍/👎 under a link to it (chat.unfurl)"}},
		Unfurls: "links to the docs site show the page's views and readers' votes",
	}
}

// UnfurlAPI is what the unfurls call of a project's docs API
// (*docsapi.Client).
type UnfurlAPI interface {
	ProjectID() string
	ViewPages(ctx context.Context, p docsapi.ViewsParams, maxPages int) iter.Seq2[*docsapi.ViewsPage, error]
	FeedbackByPage(ctx context.Context, p docsapi.FeedbackByPageParams) (*docsapi.FeedbackByPage, error)
}

// Analytics is the analytics cache (store.Analytics).
type Analytics interface {
	SaveReport(ctx context.Context, key string, data []byte, keep time.Duration) error
	LoadReport(ctx context.Context, key string) (*store.CachedReport, error)
}

// Limits are the analytics budget and the marks (store.Limits).
type Limits interface {
	Draw(ctx context.Context, d store.Draw, n int) (store.Grant, error)
	Refund(ctx context.Context, d store.Draw, tokens []string) error
	BlockBudget(ctx context.Context, b store.Budget, d time.Duration) error
	Once(ctx context.Context, name string, keep time.Duration) (bool, error)
	ForgetOnce(ctx context.Context, name string) error
}

// Deps are the parts of the store the unfurls use.
type Deps struct {
	Analytics // store.Analytics
	Limits    // store.Limits
}

// Config is the unfurls' settings.
type Config struct {
	// MaxPages bounds the pages of the views report one request set reads
	// (250 docs pages each); DefaultMaxPages when 0.
	MaxPages int
	// AnalyticsPerHour is the unfurls' own pool of each project's
	// analytics budget: the requests an hour all unfurls together may
	// spend, whoever posts the links (DOCSBOT_UNFURL_ANALYTICS_PER_HOUR);
	// DefaultAnalyticsPerHour when 0.
	AnalyticsPerHour int
	// Now is the clock (time.Now).
	Now func() time.Time
}

// DefaultMaxPages is Config.MaxPages' default: the 1,000 pages viewed most.
const DefaultMaxPages = 4

// DefaultAnalyticsPerHour is Config.AnalyticsPerHour's default: four
// request sets an hour (DefaultMaxPages+1 each).
const DefaultAnalyticsPerHour = 20

// unfurls is the feature's state.
type unfurls struct {
	core  *bot.Bot
	cfg   Config
	store Deps
}

// Feature is what other features may read of the unfurls: nothing yet.
type Feature struct{}

// Register adds the unfurls to b; each project's docs API is the core's
// (b.Project).
func Register(b *bot.Bot, cfg Config, st Deps) (*Feature, error) {
	if cfg.MaxPages <= 0 {
		cfg.MaxPages = DefaultMaxPages
	}
	if cfg.AnalyticsPerHour <= 0 {
		cfg.AnalyticsPerHour = DefaultAnalyticsPerHour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	u := &unfurls{core: b, cfg: cfg, store: st}
	routes := b.Router()
	routes.Declare(Declaration())
	routes.HandleEvent(slackevents.LinkShared, u.onLinkShared)
	routes.HandleWork(workLinks, bot.WorkHandler{Do: u.doLinks})
	return &Feature{}, nil
}
