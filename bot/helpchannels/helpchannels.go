// Package helpchannels is the help channels: each channel's answer mode
// (/docs-ask here auto|private|mention|off, DOCSBOT_ANSWER_CHANNELS), the
// questions people ask there without mentioning docsbot, answered from the
// docs (bot.WorkAsk, Via bot.ViaAuto or bot.ViaPrivate) within a channel's
// share of the hour (DOCSBOT_AUTO_PER_CHANNEL), and Share in channel under a
// private answer. It answers through the answerer the core exposes, and
// owns the top-level questions nobody addressed to the bot (its row in the
// core's table of posts, bot/posts.go).
//
// # A help channel's question
//
//	where                      what
//	the message event (ack)    a person's top-level post, not an edit nor a
//	                           bot's, addressed to nobody, more than 3 words, a
//	                           question (IsQuestion), in a channel that answers
//	                           unasked: the core's post work keyed by the message
//	                           (bot/posts.go); anything else is acked and costs
//	                           nothing
//	the post's work (owned)    the channel's mode (auto or private, else done);
//	                           the thread already answered by a person: done;
//	                           the asker's share of questions, then the
//	                           channel's share of the hour, each taken once
//	                           (store.Draw.ID; budgets.go): past the asker's
//	                           they are told privately, done; past the
//	                           channel's the asker's is given back, a 👀
//	                           reaction, done; else a bot.WorkAsk queued, keyed
//	                           by this work (the answers take the asker's share
//	                           again without taking)
//	bot.WorkAsk (the answerer) the answer shown only when it has sources
package helpchannels

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/mrkdwn"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/store"
)

// Name is the feature's name (app.Config.Features).
const Name = "helpchannels"

// askCommand is the answers' slash command, whose "here" this feature
// serves.
const askCommand = "/docs-ask"

// Declaration is what the help channels serve of Slack (declare.Declaration).
func Declaration() declare.Declaration {
	return declare.Declaration{
		Name:        Name,
		Subcommands: []declare.Subcommand{{Command: askCommand, Word: "here"}},
		Events: []declare.Event{
			{Name: "message.channels", Scope: declare.Scope{Name: "channels:history", Why: "questions asked in help channels without a mention"}},
			{Name: "message.groups", Scope: declare.Scope{Name: "groups:history", Why: "the same in private channels"}},
			{Name: "reaction_added", Scope: declare.Scope{Name: "reactions:read", Why: ":question: on a message asks the docs about it; :memo: by an editor offers a docs job; ✅ by the asker resolves their question"}},
		},
		Actions: []string{bot.ActionShareAnswer, bot.ActionAskExpert, bot.ActionMarkResolved},
		Scopes: []declare.Scope{{Name: "reactions:write", Why: "👀 on a help channel's question past the channel's answers of the hour, ✅ on one resolved"},
			{Name: "usergroups:read", Why: "who is in the experts' user groups (Mark resolved)"}},
	}
}

// DefaultPerChannel is how many questions a channel is answered unasked an
// hour (DOCSBOT_AUTO_PER_CHANNEL).
const DefaultPerChannel = 20

// Config holds the help channels' settings.
type Config struct {
	// Channels are the modes set for operations (DOCSBOT_ANSWER_CHANNELS:
	// channel id -> mode); a mode set with /docs-ask here overrides them.
	Channels map[string]string
	// PerChannel is how many questions of one channel are answered unasked
	// an hour, every replica together.
	PerChannel int
	// Experts are who Ask an expert calls (DOCSBOT_EXPERTS), besides a
	// project's experts (the projects file).
	Experts roles.Editors
	// ExpertReminder is how long an expert call waits for an answer before
	// it is reminded, once (DOCSBOT_EXPERT_REMINDER).
	ExpertReminder time.Duration
	// ExpertCallsPerUser is how many times one person may call the experts
	// an hour, every replica together (DOCSBOT_EXPERT_CALLS_PER_USER).
	ExpertCallsPerUser int
	// ExpertCallsPerChannel is how many times the experts may be called to
	// one channel's threads an hour (DOCSBOT_EXPERT_CALLS_PER_CHANNEL).
	ExpertCallsPerChannel int
	// Questions are the answers' limits of questions (ask.Config.Questions,
	// which the replica's builder passes): a person's share is taken before
	// the channel's, for an unasked question and a :question: alike.
	Questions bot.QuestionLimits
	// ReminderCheck is how often each replica looks for reminders due.
	ReminderCheck time.Duration
	// LinkDomains are the hosts, besides each project's docs site, that a
	// shared answer may link to (DOCSBOT_LINK_DOMAINS, as the answers').
	LinkDomains []string
	// Now is the feature's clock; time.Now when nil.
	Now func() time.Time
}

func (c Config) withDefaults() Config {
	if c.PerChannel <= 0 {
		c.PerChannel = DefaultPerChannel
	}
	if c.ExpertReminder <= 0 {
		c.ExpertReminder = DefaultExpertReminder
	}
	if c.ExpertCallsPerUser <= 0 {
		c.ExpertCallsPerUser = DefaultExpertCallsPerUser
	}
	if c.ExpertCallsPerChannel <= 0 {
		c.ExpertCallsPerChannel = DefaultExpertCallsPerChannel
	}
	if c.ReminderCheck <= 0 {
		c.ReminderCheck = DefaultReminderCheck
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Modes keeps the channels' modes set with the command (store.HelpChannels).
type Modes interface {
	SetMode(ctx context.Context, m store.ChannelMode) error
	Mode(ctx context.Context, channel string) (store.ChannelMode, error)
	Modes(ctx context.Context) ([]store.ChannelMode, error)
}

// Limits holds each channel's share of the hour, the people's shares of
// questions and of expert calls (store.Limits).
type Limits interface {
	Draw(ctx context.Context, d store.Draw, n int) (store.Grant, error)
	Refund(ctx context.Context, d store.Draw, tokens []string) error
	Room(ctx context.Context, d store.Draw) (store.Grant, error)
	Once(ctx context.Context, name string, keep time.Duration) (bool, error)
	OnceBy(ctx context.Context, name, by string, keep time.Duration) (bool, error)
	ForgetOnce(ctx context.Context, name string) error
	Happened(ctx context.Context, name string) (bool, error)
}

// Conversations are the answers' conversations, read to share an answer
// (store.Conversations).
type Conversations interface {
	Conversation(ctx context.Context, k store.ConversationKey) (store.Conversation, error)
}

// Deps are the parts of the store the help channels use.
type Deps struct {
	Modes         Modes
	Calls         Calls
	Limits        Limits
	Conversations Conversations
	Outcomes      Outcomes
}

// Feature is the help channels, as the Home reads them (Channels).
type Feature struct {
	core  *bot.Bot
	cfg   Config
	store Deps
	// sites are each project's links an answer may keep, by project key.
	sites map[string]mrkdwn.Sites
	// modes are the channels' modes as the answerer last read them.
	modes modeCache
	// expertGroups tells who is in the experts' groups, each group read from
	// Slack once and kept briefly (roles.Checker's cache), not per reply.
	expertGroups *roles.Checker
	log          *slog.Logger
}

// Work kinds of the help channels.
const workPost = "help.post"

// Register adds the help channels to b: /docs-ask here, the posts of
// channels nobody addressed to the bot, the answer modes the answerer reads
// and Share in channel. sites are the links each project's answers may keep
// (by project key).
func Register(b *bot.Bot, cfg Config, st Deps) (*Feature, error) {
	routes := b.Router()
	routes.Declare(Declaration())
	f := &Feature{core: b, cfg: cfg.withDefaults(), store: st, sites: map[string]mrkdwn.Sites{}, log: b.Logger().With("feature", Name)}
	f.expertGroups = roles.NewChecker(roles.MembersFunc(f.groupMembers))
	for _, p := range b.Projects().All() {
		sites, err := sitesOf(p, cfg.LinkDomains)
		if err != nil {
			return nil, err
		}
		f.sites[bot.ProjectKey(p)] = sites
	}
	routes.HandleSubcommand(askCommand, "here", f.onHere)
	routes.OwnPosts(bot.PostOwner{Name: ownerHelp, Order: bot.OrderHelpChannel, Hears: f.hears, Do: f.doOwned})
	routes.HandleWork(workPost, bot.WorkHandler{Do: f.doPost})
	routes.HandleWork(workHere, bot.WorkHandler{Do: f.doHere})
	routes.HandleBlockAction(bot.ActionShareAnswer, f.onShare)
	routes.HandleBlockAction(bot.ActionAskExpert, f.onAskExpert)
	routes.HandleBlockAction(bot.ActionMarkResolved, f.onResolve)
	routes.HandlePress(workShare, bot.PressHandler{Do: f.doShare, GiveUp: f.giveUpPress("Slack was unavailable for too long, so the answer was not shared. Press *Share in channel* again.")})
	routes.HandlePress(workAskExpert, bot.PressHandler{Do: f.doAskExpert, GiveUp: f.giveUpPress("Slack was unavailable for too long, so the experts may not have been called. Press *Ask an expert* again: it calls them once.")})
	routes.HandlePress(workResolve, bot.PressHandler{Do: f.doResolve, GiveUp: f.giveUpPress("Slack was unavailable for too long, so marking this question resolved may not have finished: the ✅ and the line saying who resolved it may be missing.")})
	routes.HandleEvent(slackevents.ReactionAdded, f.onReaction)
	routes.HandleWork(workReact, bot.WorkHandler{Do: f.doReact})
	routes.HandleWork(workResolved, bot.WorkHandler{Do: f.doResolved, GiveUp: f.giveUpResolved})
	b.Background(bot.Every(f.cfg.ReminderCheck, f.remind))
	return f, nil
}

// sitesOf are the links answers of p may keep: its docs site's, and
// linkDomains.
func sitesOf(p project.Project, linkDomains []string) (mrkdwn.Sites, error) {
	var site *url.URL
	if p.Assistant.SiteURL != "" {
		u, err := url.Parse(p.Assistant.SiteURL)
		if err != nil {
			return mrkdwn.Sites{}, fmt.Errorf("helpchannels: project %s: the docs site's URL: %w", p.Name, err)
		}
		site = u
	}
	return mrkdwn.NewSites(site, linkDomains), nil
}

// sitesOf are the links the answers of the project keyed key may keep:
// the settings' projects' (Register), else those of a project connected
// from Slack, else none (a project no longer served).
func (f *Feature) sitesOf(key string) mrkdwn.Sites {
	if s, ok := f.sites[key]; ok {
		return s
	}
	if served, ok := f.core.Project(key); ok {
		if s, err := sitesOf(served.Project, f.cfg.LinkDomains); err == nil {
			return s
		}
	}
	return mrkdwn.Sites{}
}
