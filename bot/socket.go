package bot

import (
	"context"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// The slash commands the bot serves. The Slack app manifest declares the same.
const (
	CommandAgent    = "/docs-agent"
	CommandVisitors = "/docs-visitors"
)

// Subscription is an Events API subscription the bot handles and the bot
// scope it needs.
type Subscription struct{ Event, Scope string }

// MessageEvents returns the subscriptions that deliver thread replies. The
// Slack app manifest must declare them.
func MessageEvents() []Subscription {
	return []Subscription{
		{"message.channels", "channels:history"},
		{"message.groups", "groups:history"},
		{"message.im", "im:history"},
	}
}

// Scopes returns the other bot scopes the bot uses: slash commands, posting,
// and reacting to a follow-up.
func Scopes() []string { return []string{"commands", "chat:write", "reactions:write"} }

// dedupeTTL is how long envelope ids are remembered. Slack retries an
// unacknowledged envelope three times within minutes; an hour is ample.
const dedupeTTL = time.Hour

// handlerFunc is a Socket Mode handler that also gets the bot's run context.
type handlerFunc func(ctx context.Context, evt *socketmode.Event, client *socketmode.Client)

// register wires the bot's handlers the way slack-go's socketmode examples do:
// one registration per slash command and event type, each handler acking its
// own envelope.
func (b *Bot) register(ctx context.Context, h *socketmode.SocketmodeHandler) {
	with := func(f handlerFunc) socketmode.SocketmodeHandlerFunc {
		return func(evt *socketmode.Event, client *socketmode.Client) { f(ctx, evt, client) }
	}
	for _, t := range []socketmode.EventType{
		socketmode.EventTypeConnecting, socketmode.EventTypeConnected,
		socketmode.EventTypeConnectionError, socketmode.EventTypeInvalidAuth, socketmode.EventTypeHello,
	} {
		h.Handle(t, b.onLifecycle)
	}
	h.HandleSlashCommand(CommandAgent, with(b.onAgentCommand))
	h.HandleSlashCommand(CommandVisitors, with(b.onVisitorsCommand))
	h.HandleEvents(slackevents.Message, with(b.onMessage))
	h.HandleDefault(b.onOther)
}

// onLifecycle logs connection changes; these events carry no envelope to ack.
func (b *Bot) onLifecycle(evt *socketmode.Event, _ *socketmode.Client) {
	switch evt.Type {
	case socketmode.EventTypeConnected:
		b.log.Info("slack socket connected")
	case socketmode.EventTypeConnectionError:
		b.log.Warn("slack socket connection failed; retrying", "detail", evt.Data)
	case socketmode.EventTypeInvalidAuth:
		b.log.Error("slack refused the app-level token (SLACK_APP_TOKEN)")
	default:
		b.log.Debug("slack socket event", "type", evt.Type)
	}
}

// onOther acknowledges every envelope no handler claimed, so Slack does not
// send it again, and ignores it.
func (b *Bot) onOther(evt *socketmode.Event, client *socketmode.Client) {
	if evt.Request != nil && evt.Request.EnvelopeID != "" {
		b.ack(client, evt.Request, nil)
	}
	if evt.Type == socketmode.EventTypeSlashCommand {
		if cmd, ok := evt.Data.(slack.SlashCommand); ok {
			b.log.Warn("slash command not handled by this bot", "command", cmd.Command)
		}
	}
}

func (b *Bot) ack(client *socketmode.Client, req *socketmode.Request, payload any) {
	if err := client.Ack(*req, payload); err != nil {
		b.log.Error("ack failed", "envelope", req.EnvelopeID, "err", err)
	}
}

// spawn runs fn in a tracked goroutine that outlives the envelope's handler
// but not the bot: Run waits for it before returning.
func (b *Bot) spawn(fn func()) {
	b.work.Go(fn)
}

// detached returns a context for work that must finish even when the Socket
// Mode loop stops (an agent job being linked), bounded by d.
func detached(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), d)
}

// isOwnOrBot reports whether a message comes from this bot or any other bot.
func (b *Bot) isOwnOrBot(ev *slackevents.MessageEvent) bool {
	if ev.BotID != "" || ev.SubType == "bot_message" {
		return true
	}
	return ev.User == "" || ev.User == b.self.userID
}
