package agent

import (
	"context"
	"log/slog"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/jobdraft"
	"github.com/docsbot/docsbot/bot/outcome"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Command is the slash command that starts a job.
const Command = "/docs-agent"

// Name is the feature's name (app.Config.Features).
const Name = "agent"

// Declaration is what the agent serves and needs of Slack (declare.Declaration):
// /docs-agent, thread replies, DMs and mentions, the message shortcut, the
// job and follow-up forms and their buttons. Register routes exactly these.
func Declaration() declare.Declaration {
	return declare.Declaration{
		Name: Name,
		Commands: []declare.Command{{Name: Command,
			Description: "Start the docs agent on an instruction; reply in its thread to follow up",
			UsageHint:   "[<instruction> | list | status <job id> | help]",
			Examples:    []string{Command + " Add a quickstart for the Python SDK", Command, Command + " list"}}},
		Shortcuts: []declare.Shortcut{{CallbackID: ShortcutSendToAgent, Name: "Send to docs agent",
			Description: "Start the docs agent on this message, in its thread"}},
		Events: []declare.Event{
			{Name: "message.channels", Scope: declare.Scope{Name: "channels:history", Why: "thread replies in public channels, and reading a job's thread"}},
			{Name: "message.groups", Scope: declare.Scope{Name: "groups:history", Why: "the same in private channels"}},
			{Name: "message.im", Scope: declare.Scope{Name: "im:history", Why: "direct messages with the bot: they start jobs, replies follow up"}},
			{Name: "app_mention", Scope: declare.Scope{Name: "app_mentions:read", Why: "@docsbot in channels and threads"}},
		},
		Actions: []string{jobdraft.ActionImprovePage, jobdraft.ActionNewJob, jobdraft.ActionJobFromAnswer, jobdraft.ActionJobFromMessage, jobdraft.ActionFixDocs,
			ActionFollowUp, ActionFeedback, ActionSwitchProject},
		ActionGroups: []string{ActionChooseProject, jobdraft.ActionImprovePageRows},
		Views:        []string{ViewJob, ViewFollowUp},
		Scopes: []declare.Scope{
			{Name: "reactions:write", Why: ":eyes: on a follow-up the agent received; ⏳ then ✅/❌/🗄 on the message that asked for a job"},
			{Name: "users:read", Why: "authors' names in a thread passed on as context"},
		},
		MessagesTab: "DMs with docsbot start jobs",
	}
}

// JobsAPI is what agent jobs need of the docs API; *docsapi.Client
// satisfies it.
type JobsAPI interface {
	CreateJob(ctx context.Context, prompt string) (*docsapi.Job, error)
	SendMessage(ctx context.Context, jobID, prompt string) (*docsapi.Job, error)
	GetJob(ctx context.Context, jobID string) (*docsapi.Job, error)
}

// Deps is what agent jobs use: one part of the store each (store/doc.go,
// "Parts"), embedded and named as the store names it; every part is
// required. Its methods are those of its parts.
type Deps struct {
	Jobs          // store.Jobs
	RetryOffers   // store.RetryOffers
	PendingStarts // store.PendingStarts
	Limits        // store.Limits
	// Outcomes records a job started in an answered question's thread as
	// its handoff (store.Outcomes; bot/outcome).
	Outcomes // store.Outcomes
}

// Outcomes records how each question came out (store.Outcomes).
type Outcomes = outcome.Updater

// Jobs is the jobs' records, thread links, poll schedule and lists;
// store.Jobs satisfies it.
type Jobs interface {
	LinkJob(ctx context.Context, j store.Job, firstPoll time.Duration) error
	JobByThread(ctx context.Context, t store.Thread) (*store.Job, error)
	FollowUp(ctx context.Context, j store.Job, key string, firstPoll time.Duration) (*store.Job, error)
	Claim(ctx context.Context, max int, lease time.Duration) ([]store.Claim, error)
	ClaimWait(ctx context.Context) (time.Duration, bool, error)
	Changed() <-chan struct{}
	Reschedule(ctx context.Context, c store.Claim, status string, in time.Duration) error
	Finish(ctx context.Context, c store.Claim, status, prLink string, lease time.Duration) (bool, error)
	MarkNotified(ctx context.Context, c store.Claim) error
	Untrack(ctx context.Context, c store.Claim, status string) error
	Release(ctx context.Context, claims []store.Claim, after time.Duration) error
	Tracked(ctx context.Context) (int64, error)
	// The one start of a job in a thread (startclaim.go).
	ClaimStart(ctx context.Context, t store.Thread, owner string, ttl time.Duration) error
	ReleaseStart(ctx context.Context, t store.Thread, owner string) error
	StartHeld(ctx context.Context, t store.Thread) (bool, error)
	// The lists of /docs-agent list and status (list.go).
	Job(ctx context.Context, id string) (*store.Job, error)
	RecentJobs(ctx context.Context, team, user string, n int) ([]store.Job, error)
	RunningJobs(ctx context.Context, team, channel string, n int) ([]store.Job, error)
}

// RetryOffers is the starts offered to be tried again (followup.go);
// store.RetryOffers satisfies it.
type RetryOffers interface {
	OfferRetry(ctx context.Context, t store.Thread, payload []byte, ttl time.Duration) error
	TakeRetry(ctx context.Context, t store.Thread) ([]byte, error)
	RetryOffered(ctx context.Context, t store.Thread) (bool, error)
}

// PendingStarts is the starts waiting for the person to choose a project
// (choose.go); store.PendingStarts satisfies it.
type PendingStarts interface {
	SavePending(ctx context.Context, id string, payload []byte, ttl time.Duration) error
	Pending(ctx context.Context, id string) ([]byte, error)
	DropPending(ctx context.Context, id string) error
}

// Limits is what the feedback buttons and the live status take once, or
// within a budget, across replicas (feedback.go, progress.go); store.Limits
// satisfies it.
type Limits interface {
	Once(ctx context.Context, name string, keep time.Duration) (bool, error)
	TakeBudget(ctx context.Context, b store.Budget, n int) (store.Grant, error)
}

// Config holds the agent's settings. Zero values take the documented
// defaults.
type Config struct {
	// PollInterval is the delay before a job's first poll (default
	// DefaultPollInterval).
	PollInterval time.Duration
	// PollMaxInterval caps the poll backoff (default DefaultPollMaxInterval).
	PollMaxInterval time.Duration
	// PollWorkers is how many jobs one replica polls at once (default 32).
	PollWorkers int
	// Now is the clock of the live status (elapsed time, when an edit or a
	// thread status is due); default time.Now. Tests move it by hand.
	Now func() time.Time
	// PendingTTL is how long a start waits for the person to choose its
	// project before it is forgotten (default DefaultPendingTTL).
	PendingTTL time.Duration
	// FinalEditBudget bounds the edit that shows how a run ended on its
	// root message (or that the job is no longer followed), retries and
	// waits for Slack's rate limit included (default 10s). It must stay
	// well inside the budget of reporting a finish (30s), so that recording
	// the finish still has time after it. Tests shorten it so that an edit
	// Slack keeps failing gives up quickly.
	FinalEditBudget time.Duration
}

// The defaults of Config's settings that operators set; cmd/docsbot's
// settings table shows them.
const (
	DefaultPollInterval    = 10 * time.Second
	DefaultPollMaxInterval = time.Minute
	// DefaultPendingTTL is how long a start waits for its project by default.
	DefaultPendingTTL = 24 * time.Hour
)

// defaultFinalEditBudget is Config.FinalEditBudget's default. It is not an
// operator's setting.
const defaultFinalEditBudget = 10 * time.Second

func (c Config) withDefaults() Config {
	if c.PollInterval <= 0 {
		c.PollInterval = DefaultPollInterval
	}
	if c.PollMaxInterval <= 0 {
		c.PollMaxInterval = DefaultPollMaxInterval
	}
	if c.PollMaxInterval < c.PollInterval {
		c.PollMaxInterval = c.PollInterval
	}
	if c.PollWorkers <= 0 {
		c.PollWorkers = 32
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.PendingTTL <= 0 {
		c.PendingTTL = DefaultPendingTTL
	}
	if c.FinalEditBudget <= 0 {
		c.FinalEditBudget = defaultFinalEditBudget
	}
	return c
}

// agent is the feature registered on a bot: its handlers and its poller.
type agent struct {
	core    *bot.Bot
	cfg     Config
	store   Deps
	log     *slog.Logger
	metrics *metrics
	// wake nudges the poller when this replica schedules a job.
	wake chan struct{}
	// prog remembers the live status refreshes of the jobs polled here.
	prog progress
	// changed are the hooks called when a job changes (Feature.OnJobChange).
	changed []func(ctx context.Context, j store.Job)
}

// Register adds agent jobs to b: the /docs-agent command, thread replies
// (message events), the start and reply work, and the poller that reports
// each job's finish. A job goes to its project's docs API (b.Project).
// Call it before b.Run. The Feature it returns is what other
// features (the App Home) may use of the agent.
func Register(b *bot.Bot, cfg Config, st Deps) (*Feature, error) {
	routes := b.Router()
	a := &agent{
		core:    b,
		cfg:     cfg.withDefaults(),
		store:   st,
		log:     b.Logger(),
		metrics: newMetrics(b.Metrics()),
		wake:    make(chan struct{}, 1),
	}
	routes.Declare(Declaration())
	routes.HandleCommand(Command, a.onCommand)
	a.ownPosts(routes)
	routes.HandleShortcut(ShortcutSendToAgent, a.onSendToAgent)
	routes.HandleBlockAction(jobdraft.ActionImprovePage, a.onImprovePage)
	routes.HandleBlockActions(jobdraft.ActionImprovePageRows, a.onImprovePage)
	routes.HandleBlockAction(jobdraft.ActionNewJob, a.onNewJob)
	routes.HandleBlockAction(jobdraft.ActionJobFromAnswer, a.onJobFromAnswer)
	routes.HandleBlockAction(jobdraft.ActionJobFromMessage, a.onJobFromMessage)
	routes.HandleBlockAction(jobdraft.ActionFixDocs, a.onFixDocs)
	routes.HandleViewSubmission(ViewJob, a.onJobSubmitted)
	routes.HandleWork(workStart, bot.WorkHandler{Do: a.doStart, GiveUp: a.giveUpStart})
	routes.HandleWork(workFollowUp, bot.WorkHandler{Do: a.doModalFollowUp, GiveUp: a.giveUpReply})
	routes.HandleWork(workList, bot.WorkHandler{Do: a.doList, GiveUp: a.giveUpList})
	routes.HandleBlockAction(ActionFollowUp, a.onFollowUpButton)
	routes.HandleViewSubmission(ViewFollowUp, a.onFollowUpSubmit)
	routes.HandleBlockAction(ActionFeedback, a.onFeedback)
	routes.HandleWork(workFeedback, bot.WorkHandler{Do: a.doFeedback})
	routes.HandleBlockActions(ActionChooseProject, a.onChooseProject)
	routes.HandleWork(workChoose, bot.WorkHandler{Do: a.doChoose, GiveUp: a.giveUpChoose})
	routes.HandleBlockAction(ActionSwitchProject, a.onSwitchProject)
	b.Background(a.runPoller)
	return &Feature{a: a}, nil
}

// answersOn reports whether questions are answered from the docs: the help
// then points to them.
func (a *agent) answersOn() bool { return a.core.Router().Handles(bot.WorkAsk) }
