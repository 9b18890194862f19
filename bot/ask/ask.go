package ask

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// Command is the slash command that asks the docs.
const Command = "/docs-ask"

// Name is the feature's name (app.Config.Features).
const Name = "ask"

// Declaration is what the answers from the docs serve of Slack
// (declare.Declaration): /docs-ask and an answer's buttons. Register routes
// exactly these, also where no project has a docs assistant (they then
// say so).
func Declaration() declare.Declaration {
	return declare.Declaration{
		Name: Name,
		Commands: []declare.Command{{Name: Command,
			Description: "Ask the docs; the answer comes with its sources, in a thread",
			UsageHint:   "<question> [project=NAME] | help",
			Examples:    []string{Command + " How do I rotate an API key?", Command + " How do webhooks get signed?", Command + " Where are the audit logs?"}}},
		Actions: []string{ActionFeedback, ActionAskAgain, ActionFallsShort, ActionAskTeam},
	}
}

// Action ids of an answer's buttons.
const (
	// ActionFeedback is the answer's 👍/👎 (a feedback_buttons element);
	// its values are feedbackGood and feedbackBad.
	ActionFeedback = "ask.feedback"
	// ActionAskAgain asks a question again after its answer was lost or cut.
	ActionAskAgain = "ask.again"
	// ActionFallsShort is an answer's "The docs don't answer this".
	ActionFallsShort = "ask.falls_short"
	// ActionAskTeam posts a question the docs did not answer in the
	// requests channel.
	ActionAskTeam = "ask.team"
)

// Defaults of Config.
const (
	// DefaultPerUser is how many questions a person may ask an hour
	// (DOCSBOT_ASK_PER_USER).
	DefaultPerUser = bot.DefaultQuestionsPerUser
	// DefaultPerGuest is how many questions a guest or a person of another
	// organisation may ask an hour (DOCSBOT_ASK_PER_GUEST).
	DefaultPerGuest = bot.DefaultQuestionsPerGuest
	// DefaultBudget is how many questions the whole workspace may ask an
	// hour, all replicas together (DOCSBOT_ASK_BUDGET).
	DefaultBudget = bot.DefaultQuestionBudget
	// DefaultKeep is how long a conversation may go on after its last
	// answer: a reply later starts a new one.
	DefaultKeep = 24 * time.Hour
	// DefaultInterval is the least time between two Slack calls of one
	// answer while it streams.
	DefaultInterval = time.Second
	// DefaultStreamTime is how long an answer's stream is read at most
	// (StreamTimeMax).
	DefaultStreamTime = StreamTimeMax
)

// What one question may cost: the assistant's credits are paid by the
// organisation, so what goes to it and what is read back is bounded.
const (
	// QuestionMax is the most characters of a question the assistant is
	// sent; a longer one is cut, and its answer says so.
	QuestionMax = 4000
	// HistoryMax is the most characters of the conversation so far (its
	// earlier questions and answers) sent with a question: the oldest
	// turns are left out first. A conversation keeps no more
	// (store.Conversation.Keep).
	HistoryMax = store.HistoryMax
	// StreamTextMax is the most text (bytes) of an answer read from the
	// assistant: past it the stream is closed, and the answer says it was
	// cut.
	StreamTextMax = 64 << 10
	// StreamTimeMax is how long an answer's stream is read at most: past
	// it the stream is closed, and the answer says it was cut.
	StreamTimeMax = 5 * time.Minute
)

// Assistant answers questions from a project's docs (*docsapi.Assistant).
type Assistant interface {
	Ask(ctx context.Context, req docsapi.AskRequest) (*docsapi.AnswerStream, error)
}

// Docs is what answers from one docs project: its assistant, and its
// public site, which sources link to.
type Docs struct {
	Assistant Assistant
	// Site is the public docs site (DOCS_SITE_URL, a project's site_url):
	// an answer's links to it stay links, and docs paths resolve against
	// it; nil shows sources as titles and paths without links.
	Site *url.URL
}

// Conversations keeps answer threads' conversations, and each asker's own
// in a thread answered privately (store.Conversations).
type Conversations interface {
	Conversation(ctx context.Context, k store.ConversationKey) (store.Conversation, error)
	UpdateConversation(ctx context.Context, k store.ConversationKey, keep time.Duration, from store.Conversation,
		fn func(*store.Conversation) error) (store.Conversation, error)
}

// Limits bounds the questions of a person and of the workspace, and
// counts a person's clicks once (store.Limits).
type Limits interface {
	Draw(ctx context.Context, d store.Draw, n int) (store.Grant, error)
	Once(ctx context.Context, name string, keep time.Duration) (bool, error)
	OnceBy(ctx context.Context, name, by string, keep time.Duration) (bool, error)
	ForgetOnce(ctx context.Context, name string) error
}

// Deps is what the answers use: one part of the store each (store/doc.go,
// "Parts"), embedded and named as the store names it; every part is
// required.
type Deps struct {
	Conversations // store.Conversations
	Limits        // store.Limits
	Outcomes      // store.Outcomes
	// Help is what the answers read of the help channels
	// (*helpchannels.Feature); nil without them: every channel answers
	// when mentioned, and no project has experts.
	Help HelpChannels
}

// HelpChannels is what the answers read of the help channels.
type HelpChannels interface {
	// AnswerMode is a channel's answer mode (bot.ModeMention, ...).
	AnswerMode(ctx context.Context, channel string) string
	// HasExperts reports whether a project (its key) has experts to call.
	HasExperts(ctx context.Context, project string) bool
}

// mode is channel's answer mode: bot.ModeMention without help channels.
func (a *answers) mode(ctx context.Context, channel string) string {
	if a.store.Help == nil {
		return bot.ModeMention
	}
	return a.store.Help.AnswerMode(ctx, channel)
}

// hasExperts reports whether the project keyed key has experts to call.
func (a *answers) hasExperts(ctx context.Context, key string) bool {
	return a.store.Help != nil && a.store.Help.HasExperts(ctx, key)
}

// Config holds the answers' settings; zero values take the defaults.
type Config struct {
	// PerUser is how many questions a person may ask an hour.
	PerUser int
	// PerGuest is how many questions a guest or a person of another
	// organisation may ask an hour, instead of PerUser.
	PerGuest int
	// Budget is how many questions the whole workspace may ask an hour,
	// every replica together (DOCSBOT_ASK_BUDGET).
	Budget int
	// PerWorkspace gives each workspace a Budget of its own (install mode).
	PerWorkspace bool
	// LinkDomains are the hosts, besides each project's docs site, that an
	// answer may link to (DOCSBOT_LINK_DOMAINS), each with its subdomains
	// (mrkdwn.Sites); any other address is shown as code, not linked.
	LinkDomains []string
	// StreamTime is how long an answer's stream is read at most
	// (StreamTimeMax; a test's shorter time).
	StreamTime time.Duration
	// Keep is how long a conversation may go on after its last answer.
	Keep time.Duration
	// Interval is the least time between two Slack calls of one answer.
	Interval time.Duration
	// RequestsChannel is where "Ask the docs team" posts a question the
	// docs did not answer (DOCSBOT_REQUESTS_CHANNEL); "" offers no such
	// button.
	RequestsChannel string
	// Now is the answers' clock (a question's outcome is timed by it);
	// time.Now when nil.
	Now func() time.Time
}

func (c Config) withDefaults() Config {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.PerUser <= 0 {
		c.PerUser = DefaultPerUser
	}
	if c.PerGuest <= 0 {
		c.PerGuest = DefaultPerGuest
	}
	if c.Budget <= 0 {
		c.Budget = DefaultBudget
	}
	if c.StreamTime <= 0 {
		c.StreamTime = DefaultStreamTime
	}
	if c.Keep <= 0 {
		c.Keep = DefaultKeep
	}
	if c.Interval <= 0 {
		c.Interval = DefaultInterval
	}
	return c
}

// Questions are the questions' limits of c (bot.QuestionLimits), which
// the help channels take too, before the answers do.
func (c Config) Questions() bot.QuestionLimits {
	return bot.QuestionLimits{Budget: c.Budget, PerUser: c.PerUser, PerGuest: c.PerGuest, PerWorkspace: c.PerWorkspace}
}

// notSetUp answers /docs-ask where no project has a docs assistant.
const notSetUp = "Answers from the docs are not set up here: no docs project has a docs assistant. " +
	"Ask whoever runs docsbot to set `DOCS_ASSISTANT_KEY` and `DOCS_DOMAIN` (`docsbot doctor` says how)."

// answers is the feature.
type answers struct {
	core    *bot.Bot
	cfg     Config
	docs    map[string]Docs // by project key (bot.ProjectKey)
	store   Deps
	log     *slog.Logger
	metrics *metrics
}

// Register adds the answers from the docs to b: /docs-ask, the questions
// handed over (bot.WorkAsk), the posts it owns (a reply in an answer's
// thread, a question by mention or DM: posts.go) and the answers' buttons. They answer from the
// projects that have a docs assistant (b.Project's AssistantAPI); with
// none, /docs-ask and an answer's buttons (of answers given before) only
// say so and the bot answers no questions. A project's docs site that is
// no URL is an error.
func Register(b *bot.Bot, cfg Config, st Deps) (*Feature, error) {
	routes := b.Router()
	routes.Declare(Declaration())
	docs, err := answerDocs(b)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 && !b.ConnectsInSlack() {
		registerOff(b)
		return &Feature{}, nil
	}
	a := &answers{core: b, cfg: cfg.withDefaults(), docs: docs, store: st, log: b.Logger().With("feature", "ask"),
		metrics: newMetrics(b.Metrics())}
	routes.HandleCommand(Command, a.onCommand)
	routes.HandleWork(bot.WorkAsk, bot.WorkHandler{Do: a.doAsk, GiveUp: a.giveUp})
	routes.HandleWork(workOutcome, bot.WorkHandler{Do: a.doOutcome, GiveUp: a.giveUpOutcome})
	routes.HandleBlockAction(ActionFeedback, a.onFeedback)
	routes.HandleBlockAction(ActionAskAgain, a.onAskAgain)
	routes.HandleBlockAction(ActionFallsShort, a.onFallsShort)
	routes.HandleBlockAction(ActionAskTeam, a.onAskTeam)
	routes.HandlePress(workFeedback, bot.PressHandler{Do: a.doFeedback,
		GiveUp: a.giveUpPress("Slack or docsbot's storage was unavailable for too long, so your feedback on this answer was not recorded. Press it again.")})
	routes.HandlePress(workFallsShort, bot.PressHandler{Do: a.doFallsShort,
		GiveUp: a.giveUpPress("Slack or docsbot's storage was unavailable for too long, so nothing was passed on. Press *The docs don't answer this* again.")})
	routes.HandlePress(workAskTeam, bot.PressHandler{Do: a.doAskTeam, GiveUp: a.giveUpAskTeam})
	a.ownPosts(routes)
	return &Feature{on: true}, nil
}

// Feature is what other features may read of the answers.
type Feature struct{ on bool }

// On reports whether the answers answer questions: some project has a docs
// assistant.
func (f *Feature) On() bool { return f.on }

// answerDocs is what answers from each project of b that has a docs
// assistant, by project key.
func answerDocs(b *bot.Bot) (map[string]Docs, error) {
	docs := map[string]Docs{}
	for _, p := range b.Projects().All() {
		s, ok := b.Project(bot.ProjectKey(p))
		if !ok || s.AssistantAPI == nil {
			continue
		}
		d, err := docsOfServed(s)
		if err != nil {
			return nil, err
		}
		docs[s.Key] = d
	}
	return docs, nil
}

// docsOfServed is what answers from s, which has a docs assistant.
func docsOfServed(s bot.Served) (Docs, error) {
	d := Docs{Assistant: s.AssistantAPI}
	if s.Assistant.SiteURL != "" {
		site, err := url.Parse(s.Assistant.SiteURL)
		if err != nil {
			return Docs{}, fmt.Errorf("ask: project %s: the docs site's URL: %w", s.Name, err)
		}
		d.Site = site
	}
	return d, nil
}

// docsOf is what answers from the project keyed key: one of the settings'
// (answerDocs), else one connected from Slack that has a docs assistant
// (bot.Bot.Project, read as its connections change).
func (a *answers) docsOf(key string) (Docs, bool) {
	if d, ok := a.docs[key]; ok {
		return d, true
	}
	s, ok := a.core.Project(key)
	if !ok || s.Workspace == "" || s.AssistantAPI == nil {
		return Docs{}, false
	}
	d, err := docsOfServed(s)
	return d, err == nil
}

// registerOff routes what the answers declare where no project has a docs
// assistant: the manifests declare /docs-ask, and answers given before may
// still show their buttons, so each says, privately, why it does nothing.
func registerOff(b *bot.Bot) {
	b.Router().HandleCommand(Command, func(_ context.Context, r *bot.CommandRequest) {
		r.Ack(bot.Ephemeral(notSetUp))
	})
	for _, id := range Declaration().Actions {
		b.Router().HandleBlockAction(id, func(ctx context.Context, r *bot.InteractionRequest) {
			r.Ack(nil)
			ic := r.Interaction
			p := bot.Private{User: ic.User.ID, Channel: cmp.Or(ic.Channel.ID, ic.Container.ChannelID),
				ThreadTS: ic.Container.ThreadTs, ResponseURL: ic.ResponseURL, Text: notSetUp}
			if err := b.TellPrivately(ctx, p); err != nil {
				b.Logger().Error("could not tell the person that answers are off", "user", p.User, "channel", p.Channel, "err", err)
			}
		})
	}
}

// sites is the allow-list of the links of an answer from docs.
func (a *answers) sites(docs Docs) mrkdwn.Sites { return mrkdwn.NewSites(docs.Site, a.cfg.LinkDomains) }
