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

// DirectMessage sends text to a person in their direct message with the bot
// (conversations.open, which needs the im:write scope, then a post paced
// like any other). It reaches them where an ephemeral cannot: news nobody
// asked for just now, about a channel the bot is not a member of.
func (b *Bot) DirectMessage(ctx context.Context, user, text string) error {
	ch, _, _, err := b.Slack().OpenConversationContext(ctx, &slack.OpenConversationParameters{Users: []string{user}})
	if err != nil {
		return fmt.Errorf("opening the direct message with %s: %w", user, err)
	}
	if _, err := b.Post(ctx, ch.ID, slack.MsgOptionText(text, false)); err != nil {
		return fmt.Errorf("posting in the direct message with %s: %w", user, err)
	}
	return nil
}
