package bot

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/docsbot/docsbot/bot/declare"
)

// Core is the core's declaration: the scopes it calls Slack with for every
// feature.
func Core() declare.Declaration {
	return declare.Declaration{Name: "core", Scopes: []declare.Scope{
		{Name: "commands", Why: "the slash commands"},
		{Name: "chat:write", Why: "messages, answers, results, private notes in threads"},
		{Name: "usergroups:read", Why: "who is in the user groups of DOCSBOT_EDITORS"},
		{Name: "users:read", Why: "whether a person, or anyone in a channel, is a guest or of another organisation (users.info)"},
		{Name: "channels:read", Why: "whether a channel is shared with another organisation or has guests in it (conversations.info, conversations.members: readers' words are then answered privately), and the channels a person is in (/docs-deploy status)"},
		{Name: "groups:read", Why: "the same for private channels"},
		{Name: "files:read", Why: "the files people attach to their questions and job requests, read with a cap and only from Slack's file host; " +
			"without it Slack sends its sign-in page instead of each file, and docsbot reads none"},
	}}
}

// Declare records what a feature serves; its Register calls it, then
// routes each entry point declared. CheckRoutes compares the two.
func (r Router) Declare(d declare.Declaration) {
	r.b.declared = append(r.b.declared, d)
	r.routePosts()
}

// Declared are the declarations made on b so far.
func (r Router) Declared() declare.Declarations { return slices.Clone(r.b.declared) }

// CheckRoutes reports, as one error naming each, every entry point declared
// (Declare) but not routed and every one routed but not declared: what the
// manifests declare is what the router serves. bot/app calls it once the
// features are registered, before a caller's own routes (a test's).
func (rt Router) CheckRoutes() error {
	b := rt.b
	var commands, subcommands, events, actions, groups, views, shortcuts []string
	for _, d := range b.declared {
		for _, s := range d.Subcommands {
			subcommands = append(subcommands, s.Command+" "+s.Word)
		}
		for _, c := range d.Commands {
			commands = append(commands, c.Name)
		}
		for _, e := range d.Events {
			events = append(events, e.Type())
		}
		for _, s := range d.Shortcuts {
			shortcuts = append(shortcuts, s.CallbackID)
		}
		actions = append(actions, d.Actions...)
		groups = append(groups, d.ActionGroups...)
		views = append(views, d.Views...)
	}
	r := &b.routes
	return errors.Join(
		compareRoutes("slash command", commands, r.commands),
		compareRoutes("subcommand", subcommands, r.subcommands),
		compareRoutes("event type", events, r.events),
		compareRoutes("block action", actions, r.actions),
		compareRoutes("group of block actions", groups, r.actionGroups),
		compareRoutes("view submission", views, r.views),
		compareRoutes("shortcut", shortcuts, r.shortcuts),
	)
}

// compareRoutes names each of declared without a route and each route not
// declared.
func compareRoutes[H any](what string, declared []string, routed map[string]H) error {
	var errs []error
	for _, name := range declared {
		if _, ok := routed[name]; !ok {
			errs = append(errs, fmt.Errorf("bot: the %s %s is declared but not routed", what, name))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(routed)) {
		if !slices.Contains(declared, name) {
			errs = append(errs, fmt.Errorf("bot: the %s %s is routed but not declared", what, name))
		}
	}
	return errors.Join(errs...)
}
