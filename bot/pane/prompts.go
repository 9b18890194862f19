package pane

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/project"
)

// The prompts the pane suggests: what the person sees (the title) and the
// message Slack posts as theirs when they pick it, worded as a person
// would type it and never naming the project: the pane answers its
// prompts for the default project of the channel the person looks at, as
// it sends the rest there (postProject). promptOf still reads a message
// ending in " project=NAME" and promptAsk, as earlier versions offered
// them.
const (
	promptAsk    = "Ask the docs"
	promptHealth = "What do readers struggle with this week?"
	promptDeploy = "Deploy status"
	promptJob    = "Start a docs job"
)

// exampleQuestion is the question the pane offers to ask the docs: one any
// docs site answers, posted as the person's own and answered from the docs
// like any question typed in the pane.
const exampleQuestion = "How do I get started?"

// healthDays is the span of promptHealth's "this week".
const healthDays = 7

// offer is what the pane can offer: which features are there (Health only
// when the week's docs health can be had now), whether the person may start
// jobs, the project of the channel they look at.
type offer struct {
	Answers, Health, Deploys bool
	Editor                   bool
	// Project is the channel's default project, "" for none (or the
	// implicit project, which needs no naming): named in the prompts'
	// heading only.
	Project string
}

// choose returns the prompts for o, in the order shown: at most 4, as
// Slack takes. Every prompt's message is one the pane recognises
// (promptOf) or a question the answers take.
func choose(o offer) []slack.AssistantThreadsPrompt {
	rows := []struct {
		on             bool
		title, message string
	}{
		{o.Answers, exampleQuestion, exampleQuestion},
		{o.Health, promptHealth, promptHealth},
		{o.Deploys, promptDeploy, promptDeploy},
		{o.Editor, "Start a docs job…", promptJob},
	}
	var out []slack.AssistantThreadsPrompt
	for _, r := range rows {
		if r.on {
			out = append(out, slack.AssistantThreadsPrompt{Title: r.title, Message: r.message})
		}
	}
	return out
}

// promptOf reads text as one of the pane's prompts: the prompt's base and
// the project named (project=NAME at the end), or false.
func promptOf(text string) (base, projectName string, ok bool) {
	t := strings.TrimSpace(text)
	for _, b := range []string{promptAsk, promptHealth, promptDeploy, promptJob} {
		rest, found := strings.CutPrefix(t, b)
		if !found {
			continue
		}
		rest = strings.TrimSpace(rest)
		if rest == "" {
			return b, "", true
		}
		if name, isArg := strings.CutPrefix(rest, "project="); isArg && name != "" && !strings.ContainsAny(name, " \n") {
			return b, name, true
		}
	}
	return "", "", false
}

// channelProject is the project a channel defaults to, for naming in the
// prompts: none for no channel, a channel with no default, or the implicit
// project (the only one, which needs no naming).
func channelProject(set *project.Set, channel string) (project.Project, bool) {
	if channel == "" || set.Implicit() {
		return project.Project{}, false
	}
	return set.ForChannel(channel)
}

// doPrompts sets the prompts of the person's direct message with the bot
// (an agent app's prompts are its channel's, not a thread's): those of
// the features there, the week's docs health only when it can be had now
// (healthOffered), "Start a docs job…" only for an editor of the project
// of the channel they look at (or of some project). A person the
// allow-lists refuse gets none. Setting prompts twice is harmless, so a
// retry sets them again.
func (p *pane) doPrompts(ctx context.Context, w *bot.Work) error {
	var req promptsRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding the pane's event: %w", err)
	}
	log := p.core.Logger().With("feature", Name, "user", req.User, "channel", req.Channel, "context", req.Context, "work", w.Key)
	// The channel looked at, for the questions and jobs typed beside it
	// (offered); "" forgets the one before.
	if err := p.contexts.SetPaneContext(ctx, req.Team, req.Channel, req.ThreadTS, req.Context, titleKeep); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	if refusal := p.core.Refusal(req.User, req.Channel); refusal != "" {
		log.Info("no prompts: the allow-lists refuse the person")
		return nil
	}
	o := offer{Answers: p.core.Router().Handles(bot.WorkAsk), Deploys: p.deploys != nil}
	key := ""
	if proj, ok := channelProject(p.core.ProjectsIn(ctx).Set, req.Context); ok {
		o.Project, key = proj.Name, bot.ProjectKey(proj)
	}
	o.Health = p.healthOffered(ctx, req.Team, req.User, key, log)
	refusal, _ := p.core.Editors().Check(ctx, req.User, req.Channel, key)
	o.Editor = refusal == ""
	prompts := choose(o)
	if len(prompts) == 0 {
		return nil
	}
	title := "Try asking docsbot"
	if o.Project != "" {
		title = "Try asking docsbot about " + o.Project
	}
	err := p.core.SlackIn(ctx).SetAssistantThreadsSuggestedPromptsContext(ctx, slack.AssistantThreadsSetSuggestedPromptsParameters{
		ChannelID: req.Channel, Title: title, Prompts: prompts})
	switch {
	case err == nil:
		log.Info("suggested prompts set", "prompts", len(prompts), "editor", o.Editor, "project", o.Project)
	case bot.TransientSlack(err):
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	default:
		// No pane (the assistant:write scope or the agent view is not there): the DM
		// works as before, without prompts.
		log.Warn("Slack refused the suggested prompts; the pane shows none", "err", err)
	}
	return nil
}

// healthOffered reports whether the week's docs health of the project
// keyed key (healthProject) may be offered to user: it is cached, or
// their share of the analytics budget can read it now
// (Health.HealthAtHand). What cannot be told is not offered: every prompt
// offered must be answered.
func (p *pane) healthOffered(ctx context.Context, team, user, key string, log *slog.Logger) bool {
	if p.health == nil {
		return false
	}
	key, _ = p.healthProject(ctx, key, "")
	who := p.core.Sight(ctx, user, "").Spender(team, user)
	ok, err := p.health.HealthAtHand(ctx, key, healthDays, who)
	if err != nil {
		log.Warn("cannot tell whether the docs health can be read; not offering it", "err", err)
		return false
	}
	return ok
}
