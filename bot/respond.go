package bot

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/slack-go/slack"
)

// ReplyPrivately answers the user who typed a slash command through its
// response_url, which works even in channels the bot has not joined.
func (b *Bot) ReplyPrivately(ctx context.Context, cmd slack.SlashCommand, text string) {
	if cmd.ResponseURL == "" {
		return
	}
	if err := b.Respond(ctx, cmd, Ephemeral(text)); err != nil {
		b.log.Warn("private reply through response_url failed", "user", cmd.UserID, "err", err)
	}
}

// Respond posts msg through the command's response_url. The URL lets anyone
// holding it post in the channel, so errors name the operation, not the URL.
//
// A 429 is waited out for as long as its Retry-After asks, within ctx, like
// every Web API call (SlackOptions): Slack did not take the post.
func (b *Bot) Respond(ctx context.Context, cmd slack.SlashCommand, msg *slack.WebhookMessage) error {
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

// Ephemeral is a slash-command reply only the user who typed it sees. It can
// travel in the envelope's ack or through the command's response_url.
func Ephemeral(text string) *slack.WebhookMessage {
	return &slack.WebhookMessage{ResponseType: slack.ResponseTypeEphemeral, Text: text}
}
