package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot/declare"
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
	declared := declare.Declaration{Name: "feature",
		Commands:  []declare.Command{{Name: "/docs-x"}},
		Shortcuts: []declare.Shortcut{{CallbackID: "send"}},
		Events:    []declare.Event{{Name: "message.im"}, {Name: "message.channels"}, {Name: "app_mention"}},
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
		extra func(b *Bot, d *declare.Declaration)
		// want are the words of the error, none when it is nil.
		want []string
	}{
		{"the same", func(*Bot, *declare.Declaration) {}, nil},
		{"a command declared, not routed", func(_ *Bot, d *declare.Declaration) {
			d.Commands = append(d.Commands, declare.Command{Name: "/docs-y"})
		},
			[]string{"slash command /docs-y is declared but not routed"}},
		{"a button routed, not declared", func(b *Bot, _ *declare.Declaration) { b.Router().HandleBlockAction("reject", in) },
			[]string{"block action reject is routed but not declared"}},
		{"an event type routed, not declared", func(b *Bot, _ *declare.Declaration) { b.Router().HandleEvent(slackevents.AppHomeOpened, ev) },
			[]string{"event type app_home_opened is routed but not declared"}},
		{"a form and a shortcut declared, not routed", func(_ *Bot, d *declare.Declaration) {
			d.Views = append(d.Views, "other_form")
			d.Shortcuts = append(d.Shortcuts, declare.Shortcut{CallbackID: "other"})
		}, []string{"view submission other_form is declared but not routed", "shortcut other is declared but not routed"}},
		{"a group of buttons declared, not routed", func(_ *Bot, d *declare.Declaration) { d.ActionGroups = append(d.ActionGroups, "spend.") },
			[]string{"group of block actions spend. is declared but not routed"}},
	}
	for _, tt := range tests {
		b := &Bot{}
		d := declared
		d.Commands, d.Views, d.Shortcuts, d.ActionGroups = append([]declare.Command(nil), d.Commands...), append([]string(nil), d.Views...),
			append([]declare.Shortcut(nil), d.Shortcuts...), append([]string(nil), d.ActionGroups...)
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
