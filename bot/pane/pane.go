// Package pane is docsbot in the pane: Slack's side pane of the app (its
// agent view, whose threads Slack's API calls assistant threads): the
// suggested prompts of a thread opened there, chosen for the person and
// the channel they look at, each one answered (a question from the docs,
// the week's docs health only when it can be had, read on the person's
// share of the analytics budget when it is not cached), the prompts it
// answers itself (the docs health of the week, the deployments), and the
// thread's title from its first post. The questions and jobs typed there take the paths of any
// direct message (the agent hears them, the answers answer them in the
// thread), so this package only offers, titles and answers its prompts, and
// names the project of the rest.
//
// Lifecycle of a pane thread:
//
//	assistant_thread_started, assistant_thread_context_changed, app_context_changed
//	    -> assistant.prompts work (inbox, keyed by the event): the channel
//	       looked at remembered (store.PaneContexts: the thread's, or the
//	       DM's for app_context_changed), then the prompts set for the
//	       person's DM (an agent app's prompts are the channel's)
//	a reply in the thread (the pane's row in the core's table of posts)
//	    -> assistant.title work once per thread (a mark kept 30 days), then:
//	    -> one of our prompts: assistant.prompt work, answered in the thread
//	       for the default project of the channel looked at
//	    -> anything else: the reply goes on as a question or a job, to the
//	       default project of the channel looked at unless it names one
//	       (project=NAME) (bot.Post.Project)
//	the pane's session of the work (Slack's agent session, bot.SetPaneSession:
//	set by the answers and the docs agent): processing while an answer
//	streams or a job runs, then active
//	agent_session_stopped (Stop) -> assistant.stopped work: an answer's
//	       stream Slack halted ends there, saying so (bot/ask); otherwise
//	       the thread's job is no longer followed (a mark on its record,
//	       store.Jobs.StopFollowing: no replica edits its live message
//	       again), and the thread says it cannot be cancelled, still runs,
//	       and that its result will still be posted there once
package pane

import (
	"context"
	"time"

	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/store"
)

// Name is the feature's name (app.Config.Features).
const Name = "pane"

// The kinds of inbox work of the pane: stored strings, kept as earlier
// versions wrote them.
const (
	workPrompts = "assistant.prompts"
	workPrompt  = "assistant.prompt"
	workTitle   = "assistant.title"
	workStopped = "assistant.stopped"
)

// titleKeep is how long a thread is remembered as titled, and the channel
// looked at beside it.
const titleKeep = 30 * 24 * time.Hour

// Declaration is what the pane serves of Slack (declare.Declaration).
func Declaration() declare.Declaration {
	return declare.Declaration{
		Name: Name,
		Events: []declare.Event{
			{Name: string(slackevents.AssistantThreadStarted), Why: "suggested prompts of a thread opened in the pane", Scope: declare.Scope{Name: "assistant:write"}},
			{Name: string(slackevents.AssistantThreadContextChanged), Why: "the prompts follow the channel the person looks at", Scope: declare.Scope{Name: "assistant:write"}},
			{Name: string(slackevents.AppContextChanged), Why: "the prompts follow what the person has open", Scope: declare.Scope{Name: "assistant:write"}},
			{Name: string(slackevents.AgentSessionStopped), Why: "Stop in the pane: an answer ends, a job is no longer followed", Scope: declare.Scope{Name: "assistant:write"}},
			{Name: "message.im", Scope: declare.Scope{Name: "im:history", Why: "prompts typed in the pane's threads"}},
		},
		Scopes:    []declare.Scope{{Name: "assistant:write", Why: "suggested prompts and titles of the pane's threads"}},
		AgentView: "Ask your docs, see what readers struggle with, follow deployments and start docs jobs, in this pane.",
	}
}

// Health is what the pane shows of the docs health (*health.Feature).
type Health interface {
	// HealthFor renders the summary of the last days days of the project
	// keyed projectKey for who: cached, else read from the analytics on
	// who's share of the analytics budget (bot.AnalyticsLimits.Draw); ok
	// is false when it cannot, and text then says why.
	HealthFor(ctx context.Context, projectKey string, days int, who bot.Spender, words bool) (text string, ok bool, err error)
	// HealthAtHand reports whether HealthFor would give it now, spending
	// nothing.
	HealthAtHand(ctx context.Context, projectKey string, days int, who bot.Spender) (bool, error)
}

// Deploys are the deployments started from Slack (store.Deploys).
type Deploys interface {
	RecentDeploys(ctx context.Context, team string, n int) ([]store.DeployRecord, error)
}

// Limits remembers what is done once (store.Limits).
type Limits interface {
	Once(ctx context.Context, name string, keep time.Duration) (bool, error)
}

// Jobs is how Stop in the pane stops following the thread's docs job
// (store.Jobs): a mark on the job that the agent's poller reads.
type Jobs interface {
	StopFollowing(ctx context.Context, t store.Thread) (*store.Job, error)
}

// PaneContexts remembers the channel each person looks at beside the pane
// (store.PaneContexts): per thread, else per direct message.
type PaneContexts interface {
	SetPaneContext(ctx context.Context, team, dm, thread, channel string, keep time.Duration) error
	PaneContext(ctx context.Context, team, dm, thread string) (string, error)
}

// Deps is what the pane uses: one part of the store each (store/doc.go,
// "Parts"), embedded and named as the store names it, and what it shows of
// the docs health. Health and Deploys may be nil (the feature left out):
// their prompts are then not offered, and say so when typed; Limits, Jobs
// and PaneContexts are required.
type Deps struct {
	Health       Health // *health.Feature
	Deploys             // store.Deploys
	Limits              // store.Limits
	Jobs                // store.Jobs
	PaneContexts        // store.PaneContexts
}

// Config holds the pane's settings; zero values take the defaults.
type Config struct {
	// Now is the clock (time.Now).
	Now func() time.Time
}

func (c Config) withDefaults() Config {
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Feature is what other features may read of the pane: nothing yet.
type Feature struct{}

// pane is the feature's state: nothing but what it was given.
type pane struct {
	core     *bot.Bot
	health   Health
	deploys  Deploys
	marks    Limits
	follows  Jobs
	contexts PaneContexts
	now      func() time.Time
}

// Register adds the pane to b (Deps says what may be left out). Call it
// before b.Run.
func Register(b *bot.Bot, cfg Config, d Deps) (*Feature, error) {
	cfg = cfg.withDefaults()
	p := &pane{core: b, health: d.Health, deploys: d.Deploys, marks: d.Limits, follows: d.Jobs, contexts: d.PaneContexts, now: cfg.Now}
	p.route(b)
	return &Feature{}, nil
}

// route declares the pane on b and routes what it declared.
func (p *pane) route(b *bot.Bot) {
	routes := b.Router()
	routes.Declare(Declaration())
	routes.HandleEvent(slackevents.AssistantThreadStarted, p.onThreadStarted)
	routes.HandleEvent(slackevents.AssistantThreadContextChanged, p.onThreadStarted)
	routes.HandleEvent(slackevents.AppContextChanged, p.onAppContext)
	routes.HandleEvent(slackevents.AgentSessionStopped, p.onStopped)
	routes.HandleWork(workStopped, bot.WorkHandler{Do: p.doStopped, GiveUp: p.gaveUp})
	routes.HandleWork(workPrompts, bot.WorkHandler{Do: p.doPrompts})
	routes.HandleWork(workPrompt, bot.WorkHandler{Do: p.doPrompt, GiveUp: p.gaveUp})
	routes.HandleWork(workTitle, bot.WorkHandler{Do: p.doTitle})
	p.ownPosts(b.Router())
}
