package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// startBudget bounds the whole start of a job (post, create, link, update).
// It runs on the bot's work context, so a shutdown signal does not cut a
// created job off before it is linked.
const startBudget = 2 * time.Minute

// onAgentCommand handles /docs-agent. Answers that need no I/O (help,
// refusals) travel in the ack itself; everything else is acked at once and
// done afterwards.
func (b *Bot) onAgentCommand(ctx context.Context, evt *socketmode.Event, client *socketmode.Client) {
	cmd, ok := evt.Data.(slack.SlashCommand)
	if !ok {
		b.ack(client, evt.Request, nil)
		return
	}
	b.metrics.command(cmd.Command)
	// Slack escapes what the person typed and marks up mentions and links;
	// the agent gets it as typed.
	text := strings.TrimSpace(plain(cmd.Text))
	if text == "" || strings.EqualFold(text, "help") {
		b.ack(client, evt.Request, ephemeral(agentHelp()))
		return
	}
	if refusal := b.access.check(cmd.UserID, cmd.ChannelID); refusal != "" {
		b.ack(client, evt.Request, ephemeral(refusal))
		return
	}
	b.ack(client, evt.Request, nil)
	b.spawn(ctx, startBudget, func(ctx context.Context) { b.startJob(ctx, cmd, text) })
}

// startJob posts the job's root message, creates the job, links the thread to
// it and updates the root message. A job that was created is always linked.
func (b *Bot) startJob(ctx context.Context, cmd slack.SlashCommand, prompt string) {
	log := b.log.With("user", cmd.UserID, "channel", cmd.ChannelID, "team", cmd.TeamID)
	if !b.firstDelivery(ctx, cmd, "start the job", log) {
		return
	}

	view := rootView{Requester: cmd.UserID, Prompt: prompt, State: stateStarting}
	_, ts, err := b.slack.PostMessageContext(ctx, cmd.ChannelID, view.message()...)
	if err != nil {
		log.Warn("cannot post the job's root message; no job created", "err", err)
		b.replyPrivately(ctx, cmd, describe(err))
		return
	}
	log = log.With("thread", ts)

	job, err := b.api.CreateJob(ctx, prompt)
	if err != nil {
		log.Warn("docs API did not create the job", "err", err)
		view.State, view.Problem = stateNotStarted, describe(err)
		b.updateRoot(ctx, cmd.ChannelID, ts, view, log)
		return
	}
	log = log.With("job", job.ID)

	rec := store.Job{
		ID:        job.ID,
		Thread:    store.Thread{Team: cmd.TeamID, Channel: cmd.ChannelID, TS: ts},
		Requester: cmd.UserID,
		// The excerpt the root message shows, cut mark included.
		Prompt: cut(prompt, promptInRoot),
		Status: string(job.Status),
	}
	if err := b.linkJob(ctx, rec, log); err != nil {
		view.State, view.JobID = stateUntracked, job.ID
		view.Problem = "the job started, but docsbot could not save it and will not report its result. Follow it in your docs dashboard."
		b.updateRoot(ctx, cmd.ChannelID, ts, view, log)
		return
	}
	log.Info("agent job started")
	b.metrics.jobCreated()
	view.State, view.JobID, view.Status, view.Generation = stateWorking, job.ID, job.Status, 1
	b.updateRoot(ctx, cmd.ChannelID, ts, view, log)
	b.nudgePoller()
}

// linkJob saves the thread-to-job link, retrying until it works or the start
// budget runs out: a created job must not be left unlinked.
func (b *Bot) linkJob(ctx context.Context, rec store.Job, log *slog.Logger) error {
	err := retry(ctx, log, "saving the job link", func() error {
		return b.store.LinkJob(ctx, rec, b.cfg.PollInterval)
	})
	if err != nil {
		log.Error("job created but NOT linked: it will not be followed", "err", err)
	}
	return err
}

// updateRoot re-renders a job's root message. A failure is logged only: the
// thread and the job stay usable.
func (b *Bot) updateRoot(ctx context.Context, channel, ts string, v rootView, log *slog.Logger) {
	if _, _, _, err := b.slack.UpdateMessageContext(ctx, channel, ts, v.message()...); err != nil {
		log.Warn("updating the job's root message failed", "err", err)
	}
}

// firstDelivery reports whether this is the first delivery of a slash
// command (Slack may send an envelope again), keyed on its trigger_id. When
// Redis cannot tell, the user is told that what they asked (to do) was not
// done.
func (b *Bot) firstDelivery(ctx context.Context, cmd slack.SlashCommand, do string, log *slog.Logger) bool {
	first, err := b.store.Once(ctx, "cmd:"+cmd.TriggerID, dedupeTTL)
	if err != nil {
		log.Error("dedupe check failed; command not handled", "err", err)
		b.replyPrivately(ctx, cmd, "docsbot cannot reach its database right now, so it did not "+do+". Try again in a minute.")
		return false
	}
	if !first {
		log.Info("slash command delivered again; already handled", "trigger", cmd.TriggerID)
	}
	return first
}

// replyPrivately answers the user who typed a slash command through its
// response_url, which works even in channels the bot has not joined.
func (b *Bot) replyPrivately(ctx context.Context, cmd slack.SlashCommand, text string) {
	if cmd.ResponseURL == "" {
		return
	}
	if err := b.respond(ctx, cmd, ephemeral(text)); err != nil {
		b.log.Warn("private reply through response_url failed", "user", cmd.UserID, "err", err)
	}
}

// respond posts msg through the command's response_url. The URL lets anyone
// holding it post in the channel, so errors name the operation, not the URL.
func (b *Bot) respond(ctx context.Context, cmd slack.SlashCommand, msg *slack.WebhookMessage) error {
	err := slack.PostWebhookCustomHTTPContext(ctx, cmd.ResponseURL, b.http, msg)
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return fmt.Errorf("%s response_url: %w", ue.Op, ue.Err)
	}
	return err
}

// jobView rebuilds a root message view from a stored job record.
func jobView(j *store.Job) rootView {
	return rootView{
		Requester:  j.Requester,
		Prompt:     j.Prompt,
		State:      stateWorking,
		JobID:      j.ID,
		Status:     docsapi.Status(j.Status),
		PRLink:     j.PRLink,
		Generation: j.Generation,
	}
}
