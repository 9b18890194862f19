package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/slack-go/slack/slackevents"
)

// TestCheckRoutesComparesDeclaredAndRouted: what a feature declares must be
// what it routes. Each entry point declared without a route, or routed
// without a declaration, is named; the message subscriptions all reach the
// handler of the message event type.
func TestCheckRoutesComparesDeclaredAndRouted(t *testing.T) {
	t.Parallel()
	cmd := func(context.Context, *CommandRequest) {}
	ev := func(context.Context, *EventRequest) {}
	in := func(context.Context, *InteractionRequest) {}
	declared := Declaration{Name: "feature",
		Commands:  []Command{{Name: "/docs-x"}},
		Shortcuts: []Shortcut{{CallbackID: "send"}},
		Events:    []Event{{Name: "message.im"}, {Name: "message.channels"}, {Name: "app_mention"}},
		Actions:   []string{"approve"}, ActionGroups: []string{"choose."}, Views: []string{"form"},
	}
	routeAll := func(b *Bot) {
		b.Router().HandleCommand("/docs-x", cmd)
		b.Router().HandleShortcut("send", in)
		b.Router().HandleEvent(slackevents.Message, ev)
		b.Router().HandleEvent(slackevents.AppMention, ev)
		b.Router().HandleBlockAction("approve", in)
		b.Router().HandleBlockActions("choose.", in)
		b.Router().HandleViewSubmission("form", in)
	}
	tests := []struct {
		name string
		// extra changes what is declared or routed beyond declared and routeAll.
		extra func(b *Bot, d *Declaration)
		// want are the words of the error, none when it is nil.
		want []string
	}{
		{"the same", func(*Bot, *Declaration) {}, nil},
		{"a command declared, not routed", func(_ *Bot, d *Declaration) { d.Commands = append(d.Commands, Command{Name: "/docs-y"}) },
			[]string{"slash command /docs-y is declared but not routed"}},
		{"a button routed, not declared", func(b *Bot, _ *Declaration) { b.Router().HandleBlockAction("reject", in) },
			[]string{"block action reject is routed but not declared"}},
		{"an event type routed, not declared", func(b *Bot, _ *Declaration) { b.Router().HandleEvent(slackevents.AppHomeOpened, ev) },
			[]string{"event type app_home_opened is routed but not declared"}},
		{"a form and a shortcut declared, not routed", func(_ *Bot, d *Declaration) {
			d.Views = append(d.Views, "other_form")
			d.Shortcuts = append(d.Shortcuts, Shortcut{CallbackID: "other"})
		}, []string{"view submission other_form is declared but not routed", "shortcut other is declared but not routed"}},
		{"a group of buttons declared, not routed", func(_ *Bot, d *Declaration) { d.ActionGroups = append(d.ActionGroups, "spend.") },
			[]string{"group of block actions spend. is declared but not routed"}},
	}
	for _, tt := range tests {
		b := &Bot{}
		d := declared
		d.Commands, d.Views, d.Shortcuts, d.ActionGroups = append([]Command(nil), d.Commands...), append([]string(nil), d.Views...),
			append([]Shortcut(nil), d.Shortcuts...), append([]string(nil), d.ActionGroups...)
		routeAll(b)
		tt.extra(b, &d)
		b.Router().Declare(d)
		err := b.Router().CheckRoutes()
		if (err == nil) != (len(tt.want) == 0) {
			t.Errorf("%s: CheckRoutes = %v, want an error saying %q", tt.name, err, tt.want)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: CheckRoutes = %v, want it to say %q", tt.name, err, w)
			}
		}
	}
}

// TestDeclarationsScopes: each scope once, its events' included, in the
// order first declared, with every declaration's reason; the tabs' reasons
// joined.
func TestDeclarationsScopes(t *testing.T) {
	t.Parallel()
	ds := Declarations{
		{Scopes: []Scope{{"chat:write", "posting"}}},
		{Events: []Event{{Name: "message.im", Scope: Scope{"im:history", "DMs"}}, {Name: "app_home_opened"}},
			Scopes: []Scope{{"im:write", "a digest's DM"}}, MessagesTab: "DMs start jobs"},
		{Scopes: []Scope{{"im:write", "the Home's DM"}, {"chat:write", "posting"}}, HomeTab: "the jobs"},
	}
	want := []Scope{{"chat:write", "posting"}, {"im:history", "DMs"}, {"im:write", "a digest's DM; the Home's DM"}}
	if got := ds.Scopes(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("Scopes = %v, want %v", got, want)
	}
	if got := strings.Join(ds.ScopeNames(), ","); got != "chat:write,im:history,im:write" {
		t.Errorf("ScopeNames = %s", got)
	}
	if home, messages := ds.Tabs(); home != "the jobs" || messages != "DMs start jobs" {
		t.Errorf("Tabs = %q, %q", home, messages)
	}
	if ds.Interactive() {
		t.Error("Interactive with no button, form or shortcut")
	}
}
