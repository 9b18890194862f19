package bot

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/slack-go/slack"
)

// ReplyPrivately answers the user who typed a slash command privately with
// text, with TellPrivately's fallbacks: through its response_url (which works
// even in channels the bot has not joined), else in the channel visible to
// them only, else in a direct message. What reaches them by none of these
// is logged as an error.
func (b *Bot) ReplyPrivately(ctx context.Context, cmd slack.SlashCommand, text string) {
	p := Private{User: cmd.UserID, Channel: cmd.ChannelID, ResponseURL: cmd.ResponseURL, Text: text}
	if err := b.TellPrivately(ctx, p); err != nil {
		b.log.Error("could not tell the person privately", "user", cmd.UserID, "channel", cmd.ChannelID, "err", err)
	}
}

// Private is a message for one person's eyes, and where they may be found.
type Private struct {
	// User is the person told.
	User string
	// Channel is where they asked; the ephemeral fallback is posted there.
	Channel string
	// ThreadTS, when set, puts the ephemeral fallback in that thread.
	ThreadTS string
	// ResponseURL is the slash command's or interaction's response_url,
	// tried first when set.
	ResponseURL string
	// Text is the message, and its fallback text when Blocks are set.
	Text string
	// Blocks, when set, are shown instead of Text (buttons work there).
	Blocks []slack.Block
	// DMText, when set, is what a direct message says instead of Text,
	// without Blocks: say there what it answers, since the DM is away from
	// where the person asked, and a button there would act in the DM.
	DMText string
}

// TellPrivately tells p.User p's message privately, wherever Slack lets it:
// through p.ResponseURL when set; else in p.Channel (p.ThreadTS's thread
// when set), visible to them only (chat.postEphemeral, with the blocks);
// else, when the bot cannot write in the channel (removed from it,
// archived), in a direct message (chat.postMessage to the user, which
// needs no scope beyond chat:write), with p.DMText when set. Each step
// that fails is logged as a warning; the error, when no step reached the
// person, joins every step's failure, for the caller to log.
func (b *Bot) TellPrivately(ctx context.Context, p Private) error {
	log := b.log.With("user", p.User, "channel", p.Channel)
	var errs []error
	if p.ResponseURL != "" {
		msg := Ephemeral(p.Text)
		if len(p.Blocks) > 0 {
			msg.Blocks = &slack.Blocks{BlockSet: p.Blocks}
		}
		err := b.Respond(ctx, slack.SlashCommand{UserID: p.User, ChannelID: p.Channel, ResponseURL: p.ResponseURL}, Reply(msg))
		if err == nil {
			return nil
		}
		log.Warn("private reply through response_url failed; answering in the channel", "err", err)
		errs = append(errs, err)
	}
	opts := []slack.MsgOption{slack.MsgOptionText(p.Text, false)}
	if len(p.Blocks) > 0 {
		opts = append(opts, slack.MsgOptionBlocks(p.Blocks...))
	}
	if p.Channel != "" {
		eopts := opts
		if p.ThreadTS != "" {
			eopts = append(slices.Clip(opts), slack.MsgOptionTS(p.ThreadTS))
		}
		_, err := b.SlackIn(ctx).PostEphemeralContext(ctx, p.Channel, p.User, eopts...)
		if err == nil {
			return nil
		}
		log.Warn("private reply in the channel failed; answering in a direct message", "err", err)
		errs = append(errs, fmt.Errorf("posting an ephemeral message: %w", err))
	}
	if p.DMText != "" {
		opts = []slack.MsgOption{slack.MsgOptionText(p.DMText, false)}
	}
	if _, err := b.Post(ctx, p.User, Plain(opts)); err != nil {
		return errors.Join(append(errs, fmt.Errorf("posting in the direct message with %s: %w", p.User, err))...)
	}
	return nil
}

// Respond posts r through the command's response_url: a Reply as it is; a
// RichReply with its rich blocks unless Slack refused their kind lately
// (richblocks.go), and without them where the response_url refuses it
// (richResponseRefusal: the form without, which Slack took before these
// blocks existed, is then sent; if it is refused too, the fault was
// elsewhere, and its error is returned).
func (b *Bot) Respond(ctx context.Context, cmd slack.SlashCommand, r Response) error {
	kind, with, without := r.replies()
	if with == nil || b.richRefused(kind) {
		return b.respond(ctx, cmd, without)
	}
	err := b.respond(ctx, cmd, with)
	if richResponseRefusal(err) {
		b.refuseRich(kind)
		return b.respond(ctx, cmd, without)
	}
	return err
}

// respond posts msg through the command's response_url. The URL lets anyone
// holding it post in the channel, so errors name the operation, not the URL.
//
// A 429 is waited out for as long as its Retry-After asks, within ctx, like
// every Web API call (SlackOptions): Slack did not take the post.
func (b *Bot) respond(ctx context.Context, cmd slack.SlashCommand, msg *slack.WebhookMessage) error {
	if !b.responseURLOK(cmd.ResponseURL) {
		return ErrResponseURL
	}
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
