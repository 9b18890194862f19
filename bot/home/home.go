package home

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/store"
)

// Name is the feature's name (app.Config.Features).
const Name = "home"

// Declaration is what the App Home serves and needs of Slack
// (declare.Declaration): app_home_opened and the Home tab; conversations.open
// finds a person's direct-message channel with docsbot when a job change
// republishes their Home, and for the New docs job button. Its buttons are
// the agent's. Register routes exactly these.
func Declaration() declare.Declaration {
	return declare.Declaration{
		Name:    Name,
		Events:  []declare.Event{{Name: string(slackevents.AppHomeOpened), Why: "the Home tab is published when opened"}},
		Scopes:  []declare.Scope{{Name: "im:write", Why: "the Home's New docs job button finding your DM with docsbot"}},
		HomeTab: "your jobs, a New docs job button, visitors, the docs health, and for editors how the answers came out",
	}
}

// Jobs is what the Home reads of the agent; *agent.Feature satisfies it.
type Jobs interface {
	// RecentJobs renders the person's n most recent jobs, one mrkdwn line
	// each, escaped.
	RecentJobs(ctx context.Context, team, user string, n int) ([]string, error)
	// OnJobChange registers a hook called with a job's record when it
	// changes.
	OnJobChange(fn func(ctx context.Context, j store.Job))
}

// Visitors is what the Home reads of the visitors feature;
// *visitors.Feature satisfies it.
type Visitors interface {
	// CachedProjectSummary renders the last days days' visitors of the
	// project keyed projectKey (bot.ProjectKey: "" for the implicit or only
	// project) from the cache alone, escaped; ok is false when none is
	// cached.
	CachedProjectSummary(ctx context.Context, projectKey string, days int) (text string, ok bool, err error)
}

// Health is what the Home shows of the docs health (*health.Feature).
type Health interface {
	// CachedHealth renders the last 30 days' summary of the project keyed
	// projectKey from the cache alone; ok is false when none is cached.
	// The readers' and the assistant's words are in it only with words.
	CachedHealth(ctx context.Context, projectKey string, words bool) (text string, ok bool, err error)
}

// Quality is what the Home shows editors of how the questions docsbot
// answered came out (*health.Feature).
type Quality interface {
	// QualityText renders the last days days' figures of the project
	// keyed projectKey in workspace team, a line each with their change on
	// the days before: counts only; ok is false when it had no questions
	// in either span.
	QualityText(ctx context.Context, team, projectKey string, days int) (text string, ok bool, err error)
}

// Fetches is what the features whose commands fill the caches the Home
// shows offer besides (*visitors.Feature, *health.Feature): a hook called
// after a person's command read what the Home shows, so that their Home,
// if they opened it, is published again with it. The Home uses it when
// the Visitors or the Health given to Register has it.
type Fetches interface {
	// OnFetched registers fn, called with the person's workspace and id
	// and the command's work key.
	OnFetched(fn func(ctx context.Context, team, user, work string))
}

// Seen is where the Home records who opened it, so that a job change
// republishes only the Home of someone who looks at it (views.publish is
// rate-limited); store.HomeSeen satisfies it.
type Seen interface {
	// NoteHomeOpened records that user of team opened the Home.
	NoteHomeOpened(ctx context.Context, team, user string) error
	// HomeOpened reports whether user of team opened the Home (lately).
	HomeOpened(ctx context.Context, team, user string) (bool, error)
}

// JobRecords is what the Home reads of the agent, besides Jobs, to show
// each job's project when the bot serves several (a projects file): the
// person's recent jobs' records, which hold the project (store.Job.Project,
// bot.ProjectKey), and each job's line as RecentJobs renders it. The Home
// uses it when the Jobs given to Register has it too; otherwise it lists
// the jobs without their projects.
type JobRecords interface {
	// RecentJobRecords returns the person's n most recent jobs, newest
	// first.
	RecentJobRecords(ctx context.Context, team, user string, n int) ([]store.Job, error)
	// JobLine renders one job as RecentJobs does: one mrkdwn line,
	// escaped.
	JobLine(ctx context.Context, j store.Job) string
}

// HelpChannels is what the Home shows editors of the help channels
// (*helpchannels.Feature).
type HelpChannels interface {
	// HelpLines are the channels whose answer mode is not the default, a
	// mrkdwn line each, saying when one had as many unasked answers as an
	// hour allows.
	HelpLines(ctx context.Context) ([]string, error)
}

// Settings is the Settings section of the Home, shown to those who may set
// docsbot up (*settings.Feature).
type Settings interface {
	// Blocks are user's Settings section in team (ctx names it): none for
	// someone who may not set docsbot up, except who can while no docs
	// are connected.
	Blocks(ctx context.Context, team, user string) []slack.Block
}

// Config holds the Home's settings.
type Config struct {
	// Seen records who opened the Home; a job change then republishes
	// only their Homes. nil republishes the requester's Home on every job
	// change.
	Seen Seen
	// Help, when set, lists the help channels' modes on editors' Homes.
	Help HelpChannels
}

// The Home's layout.
const (
	// jobsShown is how many of the person's jobs the Home lists.
	jobsShown = 10
	// visitorDays is the span of the visitors summary.
	visitorDays = 7
	// qualityDays is the span of the answers' figures editors see.
	qualityDays = 7
)

// workPublish is the kind of inbox work that publishes a person's Home.
const workPublish = "home.publish"

// publishRequest is what a publish carries through the inbox.
type publishRequest struct {
	Team string `json:"team"`
	User string `json:"user"`
	// Channel is the person's direct messages with docsbot; "" when the
	// request did not come with it (a job change).
	Channel string `json:"channel,omitempty"`
	// Opened is set when the person opened the Home (app_home_opened).
	Opened bool `json:"opened,omitempty"`
}

// home is the feature registered on a bot.
type home struct {
	core     *bot.Bot
	cfg      Config
	seen     Seen
	jobs     Jobs
	visitors Visitors
	health   Health
	quality  Quality
	settings Settings
	log      *slog.Logger
	pub      publisher
}

// Register adds the App Home to b: app_home_opened, the publish work and
// the refresh on job changes. visitors may be nil (no summary is shown).
// Call it before b.Run.
func Register(b *bot.Bot, cfg Config, d Deps) (*Feature, error) {
	routes := b.Router()
	if d.Jobs == nil {
		return nil, errors.New("home: the App Home needs the agent's jobs")
	}
	h := &home{core: b, cfg: cfg, seen: cfg.Seen, jobs: d.Jobs, visitors: d.Visitors, health: d.Health, quality: d.Quality, log: b.Logger()}
	if d.Settings != nil {
		h.settings = d.Settings
	}
	routes.Declare(Declaration())
	routes.HandleEvent(slackevents.AppHomeOpened, h.onOpened)
	routes.HandleWork(workPublish, bot.WorkHandler{Do: h.doPublish, GiveUp: h.giveUp})
	d.Jobs.OnJobChange(h.jobChanged)
	for _, f := range []any{d.Visitors, d.Health, d.Settings} {
		if f, ok := f.(Fetches); ok {
			f.OnFetched(h.fetched)
		}
	}
	return &Feature{}, nil
}

// Deps is what the App Home reads of the other features: a feature left
// out is nil; the agent's is required. Its part of the store is
// Config.Seen, which bot/app fills.
type Deps struct {
	Jobs     Jobs
	Visitors Visitors
	Health   Health
	Quality  Quality
	Settings Settings
}

// Feature is what other features may read of the App Home: nothing yet.
type Feature struct{}

// onOpened records a publish of the person's Home, keyed by the event, then
// acks. The Messages and About tabs are acked and ignored. If Redis cannot
// record it, the envelope is left unacked: Slack sends it again.
func (h *home) onOpened(ctx context.Context, r *bot.EventRequest) {
	ev, ok := r.Event.InnerEvent.Data.(*slackevents.AppHomeOpenedEvent)
	if !ok || ev.Tab != "home" || ev.User == "" {
		r.Ack(nil)
		return
	}
	key := "ev:" + r.DeliveryID
	if r.DeliveryID == "" {
		key = fmt.Sprintf("home:%s:%s:%s", r.Event.TeamID, ev.User, ev.EventTimeStamp)
	}
	payload, _ := json.Marshal(publishRequest{Team: r.Event.TeamID, User: ev.User, Channel: ev.Channel, Opened: true})
	if !h.core.AcceptEnvelope(ctx, store.Work{Key: key, Kind: workPublish, Payload: payload}, bot.RedeliveredEvent) {
		return
	}
	r.Ack(nil)
}

// jobChanged queues a publish of the Home of the job's requester, keyed by
// the job, its run and its status, so that the same change seen twice
// publishes once.
func (h *home) jobChanged(ctx context.Context, j store.Job) {
	if j.Requester == "" {
		return
	}
	h.republish(ctx, j.Thread.Team, j.Requester, fmt.Sprintf("home:job:%s:%d:%s", j.ID, j.Generation, j.Status), "job", j.ID)
}

// fetched queues a publish of the Home of the person whose command read
// what the Home shows (Fetches), keyed by the command's work.
func (h *home) fetched(ctx context.Context, team, user, work string) {
	h.republish(ctx, team, user, "home:fetched:"+work, "work", work)
}

// republish queues a publish of user's Home under key; args say why, for
// the log. A failure is logged: the next look at the Home shows it.
// Someone who never opened the Home (Config.Seen) gets no publish: their
// first look publishes it. When that cannot be read, it publishes anyway.
func (h *home) republish(ctx context.Context, team, user, key string, args ...any) {
	log := h.log.With(append([]any{"user", user}, args...)...)
	if h.seen != nil {
		opened, err := h.seen.HomeOpened(ctx, team, user)
		switch {
		case err != nil:
			log.Warn("reading whether the person opened the App Home failed; refreshing it anyway", "err", err)
		case !opened:
			log.Debug("the person never opened the App Home; not refreshing it")
			return
		}
	}
	payload, _ := json.Marshal(publishRequest{Team: team, User: user})
	if _, err := h.core.QueueFromWork(ctx, store.Work{Key: key, Kind: workPublish, Payload: payload}); err != nil {
		log.Warn("queueing a refresh of the App Home failed", "err", err)
	}
}

// doPublish publishes the person's Home from the inbox.
func (h *home) doPublish(ctx context.Context, w *bot.Work) error {
	var req publishRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding a Home publish: %w", err)
	}
	if req.Opened && h.seen != nil {
		// Before the view is built: a job change from now on sees the
		// record, and one before it is in the view.
		if err := h.seen.NoteHomeOpened(ctx, req.Team, req.User); err != nil {
			h.log.Warn("recording that the person opened the App Home failed; their job changes may not refresh it", "user", req.User, "err", err)
		}
	}
	err := h.pub.publish(ctx, req.Team+":"+req.User, func() error { return h.publishNow(ctx, req) })
	if err != nil && bot.TransientSlack(err) {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	return err
}

// publishNow builds the person's Home from what is stored now and publishes
// it.
func (h *home) publishNow(ctx context.Context, req publishRequest) error {
	log := h.log.With("user", req.User, "team", req.Team)
	if req.Channel == "" {
		ch, _, _, err := h.core.SlackIn(ctx).OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{req.User}, ReturnIM: true})
		if err != nil {
			log.Warn("finding the person's direct messages with docsbot failed; the Home's button waits for the next visit", "err", err)
		} else {
			req.Channel = ch.ID
		}
	}
	v := h.view(ctx, req, log)
	if _, err := h.core.SlackIn(ctx).PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: req.User, View: v}); err != nil {
		return fmt.Errorf("views.publish: %w", err)
	}
	log.Debug("App Home published")
	return nil
}

// giveUp logs a Home that could not be published for WorkMaxAge: nobody
// asked for it in words, and the next visit tries again.
func (h *home) giveUp(_ context.Context, w *bot.Work) {
	h.log.Warn("the App Home could not be published", "work", w.Key, "age", w.Age().Round(time.Second))
}
