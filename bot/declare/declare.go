// Package declare is what docsbot says of itself to Slack: each feature's
// declaration (and the core's) of the slash commands, shortcuts, events,
// buttons, forms, scopes and App Home tabs it serves. One declaration
// drives the routes (bot.Router.CheckRoutes), the Slack app manifests
// (bot/app), doctor's scope check and the sandbox's commands.
package declare

import (
	"slices"
	"strings"
)

// Declaration is what one feature (or the core) says of itself to Slack, in
// one place: the slash commands, message shortcuts and events it serves, the
// buttons and forms it handles, the bot scopes it needs and the App Home
// tabs it uses. Its Register declares it (bot.Router.Declare) and routes exactly
// these, which CheckRoutes verifies; bot/app gathers every feature's, and
// the Slack app manifests are generated from them, doctor checks the bot
// token's scopes against them and the sandbox offers their commands.
type Declaration struct {
	// Name names the feature ("agent"): app.Config.Features lists names.
	Name     string
	Commands []Command
	// Subcommands are the first words of another declaration's command
	// that this one handles (HandleSubcommand).
	Subcommands []Subcommand
	Shortcuts   []Shortcut
	// Events are the Events API subscriptions it handles, each with the
	// scope that delivers it.
	Events []Event
	// Actions are the action ids of the buttons it handles
	// (HandleBlockAction); ActionGroups the prefixes of its groups of
	// buttons (HandleBlockActions).
	Actions, ActionGroups []string
	// Views are the callback ids of the forms whose submission it handles
	// (HandleViewSubmission).
	Views []string
	// Scopes are the bot scopes it calls Slack with, beyond its events'.
	Scopes []Scope
	// HomeTab and MessagesTab say why it needs the App Home's Home tab and
	// its Messages tab; "" when it does not.
	HomeTab, MessagesTab string
	// AgentView describes the app in the pane (Slack's side pane of the app, its agent view), which
	// the manifests turn on (features.agent_view) when a feature gives one;
	// "" when it does not use the pane.
	AgentView string
	// Unfurls says why it unfurls links to the docs site (the manifests
	// list the site's host under features.unfurl_domains); "" when it
	// does not.
	Unfurls string
}

// Command is a slash command: what the manifest declares and people see in
// Slack's list of commands.
type Command struct {
	// Name is the command with its slash, "/docs-agent".
	Name string
	// Description and UsageHint are what Slack shows beside the command.
	Description, UsageHint string
	// Examples are whole lines to try, such as "/docs-visitors 30d" (the
	// sandbox offers them).
	Examples []string
}

// Subcommand is a slash command's first word that a feature handles
// (HandleSubcommand), the command being declared where it is served.
type Subcommand struct {
	// Command is the slash command, "/docs-ask"; Word its first word.
	Command, Word string
}

// Shortcut is a message shortcut (HandleShortcut): an item of a message's
// "More actions" menu.
type Shortcut struct {
	CallbackID, Name, Description string
}

// Event is an Events API subscription ("message.im"), why it is handled,
// and the scope that delivers it (none for app_home_opened). It reaches the
// handler of its event type, the part before the dot ("message").
type Event struct {
	Name, Why string
	Scope     Scope
}

// Type is the event type an Event's deliveries carry (HandleEvent).
func (e Event) Type() string {
	t, _, _ := strings.Cut(e.Name, ".")
	return t
}

// Scope is a bot scope and why docsbot needs it, for the person installing
// the app (the manifests' comments).
type Scope struct{ Name, Why string }

// Declarations are the declarations of a replica: the core's and its
// features'.
type Declarations []Declaration

// Commands are every slash command declared, in order.
func (ds Declarations) Commands() []Command {
	var out []Command
	for _, d := range ds {
		out = append(out, d.Commands...)
	}
	return out
}

// Shortcuts are every message shortcut declared, in order.
func (ds Declarations) Shortcuts() []Shortcut {
	var out []Shortcut
	for _, d := range ds {
		out = append(out, d.Shortcuts...)
	}
	return out
}

// Events are every event subscription declared, each once (two features
// may hear one), in the order first declared.
func (ds Declarations) Events() []Event {
	var out []Event
	for _, d := range ds {
		for _, e := range d.Events {
			if !slices.ContainsFunc(out, func(o Event) bool { return o.Name == e.Name }) {
				out = append(out, e)
			}
		}
	}
	return out
}

// Scopes are the bot scopes declared, their events' included, each once in
// the order first declared, with every declaration's reason joined.
func (ds Declarations) Scopes() []Scope {
	var out []Scope
	add := func(s Scope) {
		if s.Name == "" {
			return
		}
		i := slices.IndexFunc(out, func(o Scope) bool { return o.Name == s.Name })
		switch {
		case i < 0:
			out = append(out, s)
		case s.Why != "" && !strings.Contains(out[i].Why, s.Why):
			out[i].Why = strings.TrimPrefix(out[i].Why+"; "+s.Why, "; ")
		}
	}
	for _, d := range ds {
		for _, e := range d.Events {
			add(e.Scope)
		}
		for _, s := range d.Scopes {
			add(s)
		}
	}
	return out
}

// ScopeNames are the names of Scopes, sorted.
func (ds Declarations) ScopeNames() []string {
	var out []string
	for _, s := range ds.Scopes() {
		out = append(out, s.Name)
	}
	slices.Sort(out)
	return out
}

// Tabs say why the App Home's Home and Messages tabs are needed, every
// declaration's reason joined; "" for a tab none needs.
func (ds Declarations) Tabs() (home, messages string) {
	var h, m []string
	for _, d := range ds {
		if d.HomeTab != "" {
			h = append(h, d.HomeTab)
		}
		if d.MessagesTab != "" {
			m = append(m, d.MessagesTab)
		}
	}
	return strings.Join(h, "; "), strings.Join(m, "; ")
}

// AgentView is the description of the app in Slack's agent pane, every
// declaration's joined; "" when no feature uses the pane.
func (ds Declarations) AgentView() string {
	var out []string
	for _, d := range ds {
		if d.AgentView != "" {
			out = append(out, d.AgentView)
		}
	}
	return strings.Join(out, " ")
}

// Unfurls says why links are unfurled, every declaration's reason joined;
// "" when no feature unfurls links.
func (ds Declarations) Unfurls() string {
	var out []string
	for _, d := range ds {
		if d.Unfurls != "" {
			out = append(out, d.Unfurls)
		}
	}
	return strings.Join(out, "; ")
}

// Interactive reports whether something declared needs Slack's
// interactivity: a shortcut, a button or a form.
func (ds Declarations) Interactive() bool {
	return slices.ContainsFunc(ds, func(d Declaration) bool {
		return len(d.Shortcuts)+len(d.Actions)+len(d.ActionGroups)+len(d.Views) > 0
	})
}
