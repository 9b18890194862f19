package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store"
)

// storageDown is what a person is told when docsbot could not record their
// command: nothing was started.
const storageDown = "docsbot cannot reach its storage right now, so it did not start this. Try again in a minute."

// onAgentCommand handles /docs-agent. Answers that need no I/O (help,
// refusals) travel in the ack itself; anything else is recorded in the inbox
// and then acknowledged. If Redis cannot record it, the ack says so.
func (b *Bot) onAgentCommand(ctx context.Context, r *CommandRequest) {
	cmd := r.Command
	b.metrics.command(cmd.Command)
	// Slack escapes what the person typed and marks up mentions and links;
	// the agent gets it as typed.
	text := strings.TrimSpace(plain(cmd.Text))
	if text == "" || strings.EqualFold(text, "help") {
		r.Ack(ephemeral(agentHelp()))
		return
	}
	if refusal := b.access.check(cmd.UserID, cmd.ChannelID); refusal != "" {
		r.Ack(ephemeral(refusal))
		return
	}
	payload, _ := json.Marshal(startRequest{Team: cmd.TeamID, Channel: cmd.ChannelID, User: cmd.UserID, Prompt: text, ResponseURL: cmd.ResponseURL})
	if !b.accept(ctx, store.Work{Key: "cmd:" + r.DeliveryID, Kind: workStart, Payload: payload}, redeliveredCommand) {
		r.Ack(ephemeral(storageDown))
		return
	}
	r.Ack(nil)
}

// giveUpStart tells the person that their job could not be started in time.
func (b *Bot) giveUpStart(ctx context.Context, w *Work) {
	var req startRequest
	if json.Unmarshal(w.Payload, &req) != nil {
		return
	}
	b.replyPrivately(ctx, req.command(), fmt.Sprintf("docsbot could not start your docs agent job: Slack or its storage kept failing for %d minutes. Nothing was started; try again.",
		int(workMaxAge/time.Minute)))
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
//
// A 429 is waited out for as long as its Retry-After asks, within ctx, like
// every Web API call (SlackOptions): Slack did not take the post.
func (b *Bot) respond(ctx context.Context, cmd slack.SlashCommand, msg *slack.WebhookMessage) error {
	for {
		err := slack.PostWebhookCustomHTTPContext(ctx, cmd.ResponseURL, b.http, msg)
		if ue, ok := errors.AsType[*url.Error](err); ok {
			return fmt.Errorf("%s response_url: %w", ue.Op, ue.Err)
		}
		rl, limited := errors.AsType[*slack.RateLimitedError](err)
		if !limited {
			return err
		}
		b.metrics.slackRateLimited("response_url")
		t := time.NewTimer(max(rl.RetryAfter, time.Second))
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
	}
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
