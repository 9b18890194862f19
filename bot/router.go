package bot

import (
	"context"
	"net/http"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot/project"
)

// Features register their entry points on the bot's router: slash commands
// by name, events by type, interactive payloads by action id (a group of
// buttons by the prefix of their ids) or callback id, and (HandleWork) the
// kinds of inbox work. A handler gets a request that
// does not depend on how it came (Socket Mode, or signed HTTP requests in
// HTTP mode): the parsed payload, the delivery's id for dedupe, and Ack.
//
// A handler acks the delivery itself, once: with an answer that needs no I/O,
// or with nil after recording the work in the inbox (AcceptEnvelope). A handler that
// cannot record the work of an event returns without acking, so that Slack
// delivers it again. Register every handler before Run.

// AckFunc acknowledges a delivery. payload is the response Slack reads (a
// *slack.WebhookMessage answering a slash command, a view response answering
// a view_submission) or nil for none.
type AckFunc func(payload any)

// CommandRequest is one delivery of a slash command.
type CommandRequest struct {
	Command slack.SlashCommand
	// DeliveryID is the command's trigger_id, the same in every delivery
	// of this invocation: the key that drops a redelivery.
	DeliveryID string
	Ack        AckFunc
}

// EventRequest is one delivery of an Events API event.
type EventRequest struct {
	Event slackevents.EventsAPIEvent
	// DeliveryID is the event's event_id, the same in every delivery of
	// this event; "" if Slack did not send one.
	DeliveryID string
	// LastDelivery is set on Slack's last retry of the event: left
	// unacknowledged, it is not delivered again, so work it brings that
	// cannot be recorded must be answered now.
	LastDelivery bool
	Ack          AckFunc
}

// InteractionRequest is one delivery of an interactive payload: a button
// (block_actions), a modal submission (view_submission), a shortcut or a
// message action.
type InteractionRequest struct {
	Interaction slack.InteractionCallback
	// DeliveryID is the interaction's trigger_id ("" if it has none).
	DeliveryID string
	Ack        AckFunc
}

// CommandHandler handles a slash command. ctx is the bot's work context: it
// outlives a shutdown signal by the shutdown grace.
type CommandHandler func(ctx context.Context, r *CommandRequest)

// EventHandler handles an Events API event.
type EventHandler func(ctx context.Context, r *EventRequest)

// InteractionHandler handles an interactive payload.
type InteractionHandler func(ctx context.Context, r *InteractionRequest)

// routes holds the registered handlers.
type routes struct {
	commands map[string]CommandHandler
	// subcommands are the handlers of a command's first word, by
	// "/command word" (HandleSubcommand).
	subcommands map[string]CommandHandler
	events      map[string]EventHandler
	actions     map[string]InteractionHandler
	// actionGroups are the handlers of groups of buttons, by the prefix of
	// their action ids.
	actionGroups map[string]InteractionHandler
	views        map[string]InteractionHandler
	shortcuts    map[string]InteractionHandler
	// pages are the browser pages features serve under /slack/ beside
	// Slack's request URLs (HandlePage), by pattern.
	pages map[string]http.Handler
}

// add registers h under key, refusing a second registration.
func add[H any](m *map[string]H, what, key string, h H) {
	if *m == nil {
		*m = map[string]H{}
	}
	if _, dup := (*m)[key]; dup {
		panic("bot: " + what + " registered twice: " + key)
	}
	(*m)[key] = h
}

// Router is where features declare what they serve of Slack and route
// it (Bot.Router): Declare, then a Handle... per entry point declared, and
// HandleWork per kind of inbox work.
type Router struct{ b *Bot }

// Router is where features declare and route what they serve.
func (b *Bot) Router() Router { return Router{b} }

// HandleCommand registers the handler of a slash command ("/docs-agent").
func (r Router) HandleCommand(name string, h CommandHandler) {
	add(&r.b.routes.commands, "slash command", name, h)
}

// HandleSubcommand registers the handler of a slash command whose text
// starts with word ("/docs-ask here ..."): it gets those instead of the
// command's handler, which may be another feature's.
func (r Router) HandleSubcommand(command, word string, h CommandHandler) {
	add(&r.b.routes.subcommands, "subcommand", command+" "+word, h)
}

// HandleEvent registers the handler of an Events API event type
// (slackevents.Message, slackevents.AppMention).
func (r Router) HandleEvent(eventType slackevents.EventsAPIType, h EventHandler) {
	add(&r.b.routes.events, "event type", string(eventType), h)
}

// HandleBlockAction registers the handler of a block_actions payload whose
// first action has actionID.
func (r Router) HandleBlockAction(actionID string, h InteractionHandler) {
	add(&r.b.routes.actions, "block action", actionID, h)
}

// HandleBlockActions registers the handler of a group of buttons: the
// block_actions payloads whose first action's id starts with prefix (the
// buttons of a ProjectQuestion, prefix followed by their position). An id
// registered with HandleBlockAction goes to its own handler; of several
// prefixes, the longest wins.
func (r Router) HandleBlockActions(prefix string, h InteractionHandler) {
	add(&r.b.routes.actionGroups, "group of block actions", prefix, h)
}

// HandleViewSubmission registers the handler of a modal's view_submission,
// by the view's callback_id.
func (r Router) HandleViewSubmission(callbackID string, h InteractionHandler) {
	add(&r.b.routes.views, "view submission", callbackID, h)
}

// HandleShortcut registers the handler of a global shortcut or a message
// action, by its callback_id.
func (r Router) HandleShortcut(callbackID string, h InteractionHandler) {
	add(&r.b.routes.shortcuts, "shortcut", callbackID, h)
}

// HandleWork registers the handler of a kind of inbox work.
func (r Router) HandleWork(kind string, h WorkHandler) {
	add(&r.b.handlers, "work kind", kind, h)
}

// commandHandler returns the handler of a slash command, nil if none.
// A subcommand's handler comes before the command's.
func (r *routes) commandHandler(name, text string) CommandHandler {
	word, _, _ := strings.Cut(strings.TrimSpace(text), " ")
	if h, ok := r.subcommands[name+" "+strings.ToLower(word)]; ok && word != "" {
		return h
	}
	return r.commands[name]
}

// eventHandler returns the handler of an event, nil if none.
func (r *routes) eventHandler(ev slackevents.EventsAPIEvent) EventHandler {
	t := ev.InnerEvent.Type
	if t == "" {
		t = ev.Type
	}
	return r.events[t]
}

// interactionHandler returns the handler of an interactive payload, nil if
// none.
func (r *routes) interactionHandler(ic *slack.InteractionCallback) InteractionHandler {
	switch ic.Type {
	case slack.InteractionTypeBlockActions:
		if len(ic.ActionCallback.BlockActions) > 0 {
			return r.actionHandler(ic.ActionCallback.BlockActions[0].ActionID)
		}
	case slack.InteractionTypeViewSubmission:
		return r.views[ic.View.CallbackID]
	case slack.InteractionTypeShortcut, slack.InteractionTypeMessageAction:
		return r.shortcuts[ic.CallbackID]
	}
	return nil
}

// actionHandler returns the handler of a block action's id: its own, else
// that of the longest prefix registered; nil if none.
func (r *routes) actionHandler(id string) InteractionHandler {
	if h, ok := r.actions[id]; ok {
		return h
	}
	var h InteractionHandler
	longest := -1
	for prefix, g := range r.actionGroups {
		if strings.HasPrefix(id, prefix) && len(prefix) > longest {
			h, longest = g, len(prefix)
		}
	}
	return h
}

// dispatchCommand hands a slash command to its handler and reports whether
// one is registered. Both transports (Socket Mode and HTTP) deliver through
// the dispatch functions, so a request reaches the same handler either way.
func (b *Bot) dispatchCommand(ctx context.Context, cmd slack.SlashCommand, ack AckFunc) bool {
	f := b.routes.commandHandler(cmd.Command, cmd.Text)
	if f == nil {
		return false
	}
	b.metrics.command(cmd.Command)
	ctx = WithWorkspace(ctx, commandWorkspace(cmd))
	if b.cfg.InstallMode {
		if text := b.clients.Unserved(ctx, commandWorkspace(cmd)); text != "" {
			ack(Ephemeral(text))
			return true
		}
	}
	if !b.docsConnected(ctx) {
		ack(Ephemeral(project.NotConnected)) // notconnected.go
		return true
	}
	if b.channelOff(ctx, cmd.ChannelID) {
		ack(Ephemeral(channelOffText)) // channeloff.go
		return true
	}
	f(ctx, &CommandRequest{Command: cmd, DeliveryID: cmd.TriggerID, Ack: ack})
	return true
}

// SlackEventRetries is how many times Slack delivers an unacknowledged
// Events API event again (retry_attempt, X-Slack-Retry-Num 1 to 3) before
// it gives up.
const SlackEventRetries = 3

// dispatchEvent hands an Events API event to its handler and reports whether
// one is registered. last is set on Slack's last retry of the event.
func (b *Bot) dispatchEvent(ctx context.Context, ev slackevents.EventsAPIEvent, last bool, ack AckFunc) bool {
	f := b.routes.eventHandler(ev)
	if f == nil {
		return false
	}
	ctx = WithWorkspace(ctx, eventWorkspace(ev))
	if b.cfg.InstallMode && !removalEvent(ev) && b.clients.Unserved(ctx, eventWorkspace(ev)) != "" {
		ack(nil) // a workspace docsbot is not installed in, or cannot serve
		return true
	}
	if b.channelOff(ctx, eventChannel(ev)) {
		ack(nil) // channeloff.go
		return true
	}
	f(ctx, &EventRequest{Event: ev, DeliveryID: eventID(ev), LastDelivery: last, Ack: ack})
	return true
}

// removalEvent reports whether ev says docsbot was removed from its
// workspace: heard even where docsbot can no longer serve (bot/install).
func removalEvent(ev slackevents.EventsAPIEvent) bool {
	t := slackevents.EventsAPIType(ev.InnerEvent.Type)
	return t == slackevents.AppUninstalled || t == slackevents.TokensRevoked
}

// dispatchInteraction hands an interactive payload (block_actions,
// view_submission, shortcut, message_action) to its handler and reports
// whether one is registered.
func (b *Bot) dispatchInteraction(ctx context.Context, ic slack.InteractionCallback, ack AckFunc) bool {
	f := b.routes.interactionHandler(&ic)
	if f == nil {
		return false
	}
	ctx = WithWorkspace(ctx, interactionWorkspace(ic))
	if b.cfg.InstallMode && b.clients.Unserved(ctx, interactionWorkspace(ic)) != "" {
		ack(nil)
		return true
	}
	if isShortcut(ic) && !b.docsConnected(ctx) {
		ack(nil)
		b.tellNotConnected(ctx, ic) // notconnected.go
		return true
	}
	if isShortcut(ic) && b.channelOff(ctx, ic.Channel.ID) {
		ack(nil)
		b.tellChannelOff(ctx, ic) // channeloff.go
		return true
	}
	f(ctx, &InteractionRequest{Interaction: ic, DeliveryID: ic.TriggerID, Ack: ack})
	return true
}

// eventID is the event_id of an Events API delivery, "" if none.
func eventID(ev slackevents.EventsAPIEvent) string {
	if cb, ok := ev.Data.(*slackevents.EventsAPICallbackEvent); ok {
		return cb.EventID
	}
	return ""
}
