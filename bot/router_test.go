package bot

import (
	"context"
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// TestRouterFindsTheRegisteredHandler registers a handler of each kind and
// checks which one every delivery reaches, or that none does.
func TestRouterFindsTheRegisteredHandler(t *testing.T) {
	t.Parallel()
	b := &Bot{}
	var got string
	interaction := func(name string) InteractionHandler {
		return func(context.Context, *InteractionRequest) { got = name }
	}
	b.Router().HandleBlockAction("approve", interaction("action approve"))
	b.Router().HandleViewSubmission("new_job", interaction("view new_job"))
	b.Router().HandleShortcut("ask_agent", interaction("shortcut ask_agent"))
	b.Router().HandleEvent(slackevents.Message, func(context.Context, *EventRequest) { got = "event message" })
	b.Router().HandleCommand("/docs-agent", func(context.Context, *CommandRequest) { got = "command /docs-agent" })
	b.Router().HandleSubcommand("/docs-agent", "here", func(context.Context, *CommandRequest) { got = "subcommand here" })

	interactions := []struct {
		name string
		ic   slack.InteractionCallback
		want string
	}{
		{"button", slack.InteractionCallback{Type: slack.InteractionTypeBlockActions,
			ActionCallback: slack.ActionCallbacks{BlockActions: []*slack.BlockAction{{ActionID: "approve"}}}}, "action approve"},
		{"other button", slack.InteractionCallback{Type: slack.InteractionTypeBlockActions,
			ActionCallback: slack.ActionCallbacks{BlockActions: []*slack.BlockAction{{ActionID: "reject"}}}}, ""},
		{"block_actions without actions", slack.InteractionCallback{Type: slack.InteractionTypeBlockActions}, ""},
		{"modal submission", slack.InteractionCallback{Type: slack.InteractionTypeViewSubmission,
			View: slack.View{CallbackID: "new_job"}}, "view new_job"},
		{"global shortcut", slack.InteractionCallback{Type: slack.InteractionTypeShortcut, CallbackID: "ask_agent"}, "shortcut ask_agent"},
		{"message action", slack.InteractionCallback{Type: slack.InteractionTypeMessageAction, CallbackID: "ask_agent"}, "shortcut ask_agent"},
		{"callback id of another type", slack.InteractionCallback{Type: slack.InteractionTypeViewSubmission,
			View: slack.View{CallbackID: "ask_agent"}}, ""},
		{"view closed", slack.InteractionCallback{Type: slack.InteractionTypeViewClosed,
			View: slack.View{CallbackID: "new_job"}}, ""},
	}
	for _, tt := range interactions {
		got = ""
		if h := b.routes.interactionHandler(&tt.ic); h != nil {
			h(t.Context(), &InteractionRequest{Interaction: tt.ic})
		}
		if got != tt.want {
			t.Errorf("%s: reached %q, want %q", tt.name, got, tt.want)
		}
	}

	events := []struct {
		name string
		ev   slackevents.EventsAPIEvent
		want string
	}{
		{"message", slackevents.EventsAPIEvent{Type: slackevents.CallbackEvent,
			InnerEvent: slackevents.EventsAPIInnerEvent{Type: string(slackevents.Message)}}, "event message"},
		{"mention, not registered", slackevents.EventsAPIEvent{Type: slackevents.CallbackEvent,
			InnerEvent: slackevents.EventsAPIInnerEvent{Type: string(slackevents.AppMention)}}, ""},
	}
	for _, tt := range events {
		got = ""
		if h := b.routes.eventHandler(tt.ev); h != nil {
			h(t.Context(), &EventRequest{Event: tt.ev})
		}
		if got != tt.want {
			t.Errorf("%s: reached %q, want %q", tt.name, got, tt.want)
		}
	}

	commands := []struct{ cmd, text, want string }{
		{"/docs-agent", "add a page", "command /docs-agent"},
		{"/docs-agent", "", "command /docs-agent"},
		{"/docs-agent", " Here auto", "subcommand here"},
		{"/docs-agent", "here", "subcommand here"},
		{"/docs-agent", "where is here", "command /docs-agent"},
		{"/docs-other", "here", ""},
	}
	for _, tt := range commands {
		got = ""
		if h := b.routes.commandHandler(tt.cmd, tt.text); h != nil {
			h(t.Context(), &CommandRequest{})
		}
		if got != tt.want {
			t.Errorf("%s %q: reached %q, want %q", tt.cmd, tt.text, got, tt.want)
		}
	}
}

// TestRegisteringTwicePanics: two features claiming one entry point is a
// wiring mistake, found at start.
func TestRegisteringTwicePanics(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		register func(b *Bot)
	}{
		{"command", func(b *Bot) { b.Router().HandleCommand("/docs-agent", func(context.Context, *CommandRequest) {}) }},
		{"event", func(b *Bot) { b.Router().HandleEvent(slackevents.Message, func(context.Context, *EventRequest) {}) }},
		{"block action", func(b *Bot) { b.Router().HandleBlockAction("approve", func(context.Context, *InteractionRequest) {}) }},
		{"view submission", func(b *Bot) {
			b.Router().HandleViewSubmission("new_job", func(context.Context, *InteractionRequest) {})
		}},
		{"shortcut", func(b *Bot) { b.Router().HandleShortcut("ask_agent", func(context.Context, *InteractionRequest) {}) }},
		{"work", func(b *Bot) { b.Router().HandleWork("agent.start", WorkHandler{}) }},
	}
	for _, tt := range tests {
		b := &Bot{}
		tt.register(b)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s registered twice without a panic", tt.name)
				}
			}()
			tt.register(b)
		}()
	}
}

// TestRouterMatchesButtonGroups: a group of buttons is one route, by the
// prefix of their action ids; an id registered on its own keeps its
// handler, and of two prefixes the longer wins.
func TestRouterMatchesButtonGroups(t *testing.T) {
	t.Parallel()
	b := &Bot{}
	var got string
	interaction := func(name string) InteractionHandler {
		return func(context.Context, *InteractionRequest) { got = name }
	}
	b.Router().HandleBlockActions("choose.", interaction("group choose."))
	b.Router().HandleBlockActions("choose.project.", interaction("group choose.project."))
	b.Router().HandleBlockAction("choose.project.none", interaction("action choose.project.none"))
	for id, want := range map[string]string{
		"choose.0":            "group choose.",
		"choose.project.3":    "group choose.project.",
		"choose.project.none": "action choose.project.none",
		"choose":              "",
		"other.0":             "",
	} {
		got = ""
		ic := slack.InteractionCallback{Type: slack.InteractionTypeBlockActions,
			ActionCallback: slack.ActionCallbacks{BlockActions: []*slack.BlockAction{{ActionID: id}}}}
		if h := b.routes.interactionHandler(&ic); h != nil {
			h(t.Context(), &InteractionRequest{Interaction: ic})
		}
		if got != want {
			t.Errorf("%s: reached %q, want %q", id, got, want)
		}
	}
}
