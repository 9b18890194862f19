package bot_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/project"
)

// TestProjectQuestionButtons: the question has a button per project, whose
// action ids are the feature's prefix and the position, up to the 25 Slack
// holds in a block; with more projects, or a value longer than a button
// holds, it has no blocks and its text lists the projects and how to name
// one.
func TestProjectQuestionButtons(t *testing.T) {
	t.Parallel()
	choices := func(n int) []project.Project {
		ps := make([]project.Project, n)
		for i := range ps {
			ps[i] = project.Project{Name: fmt.Sprintf("p%02d", i)}
		}
		return ps
	}
	q := bot.ProjectQuestion{Question: "Which docs project is this for?", About: "`/docs-visitors 7d`", Noun: "command", Action: "choose_",
		Value: func(p project.Project) string { return p.Name }}
	for _, tc := range []struct {
		name    string
		n       int
		value   int // length of a button's value; its name when 0
		buttons bool
	}{
		{"two projects", 2, 0, true},
		{"25 projects", 25, 0, true},
		{"26 projects", 26, 0, false},
		{"a value too long for a button", 2, 2001, false},
	} {
		q := q
		if tc.value > 0 {
			q.Value = func(project.Project) string { return strings.Repeat("x", tc.value) }
		}
		text, blocks := q.Message(choices(tc.n))
		if !strings.HasPrefix(text, "Which docs project is this for? `/docs-visitors 7d`\nThe projects are `p00`, `p01`") || !strings.Contains(text, "`project=NAME`") {
			t.Errorf("%s: text %q", tc.name, text)
		}
		if (blocks != nil) != tc.buttons {
			t.Fatalf("%s: blocks %v, want buttons %t", tc.name, blocks, tc.buttons)
		}
		if !tc.buttons {
			continue
		}
		actions, ok := blocks[1].(*slack.ActionBlock)
		if !ok || len(actions.Elements.ElementSet) != tc.n {
			t.Fatalf("%s: %#v, want an actions block of %d buttons", tc.name, blocks[1], tc.n)
		}
		for i, el := range actions.Elements.ElementSet {
			if b, ok := el.(*slack.ButtonBlockElement); !ok || b.ActionID != fmt.Sprintf("choose_%d", i) {
				t.Errorf("%s: button %d is %#v, want action id choose_%d", tc.name, i, el, i)
			}
		}
	}
}
