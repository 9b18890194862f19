package app_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/helpchannels"
	"github.com/docsbot/docsbot/bot/home"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/visitors"
)

// TestNewRefusesWhatCannotRun: a bot without docs projects, or with the App
// Home but not the agent it reads, is refused before anything is built; a
// project whose docs API client cannot be built is named by a
// *project.ClientError. The features themselves are tested end to end
// through bot/bottest, which builds every bot with New.
func TestNewRefusesWhatCannotRun(t *testing.T) {
	t.Parallel()
	sc := slack.New("xoxb-not-used", slack.OptionAPIURL("http://127.0.0.1:1/api/"))
	implicit := project.Single("proj_test", "mint_test_key_0000000000000000", "http://127.0.0.1:1")
	cases := []struct {
		name string
		cfg  app.Config
		want string
		// client: the error is a *project.ClientError.
		client bool
	}{
		{"no projects", app.Config{}, "no docs projects", false},
		{"the Home without the agent", app.Config{Bot: bot.Config{Projects: implicit}, Features: []string{home.Name, visitors.Name}}, "needs the agent", false},
		{"a feature of no name", app.Config{Bot: bot.Config{Projects: implicit}, Features: []string{"weather"}}, `no feature is named "weather"`, false},
		{"a client that cannot be built", app.Config{Bot: bot.Config{Projects: project.Single("proj_test", "", "http://127.0.0.1:1")}}, "project " + project.ImplicitName, true},
	}
	for _, tc := range cases {
		b, err := app.New(tc.cfg, app.Deps{Slack: sc})
		if err == nil || !strings.Contains(err.Error(), tc.want) || b != nil {
			t.Errorf("%s: New = %v, %v; want an error saying %q", tc.name, b, err, tc.want)
		}
		if _, ok := errors.AsType[*project.ClientError](err); ok != tc.client {
			t.Errorf("%s: %v is a *project.ClientError: %t, want %t", tc.name, err, ok, tc.client)
		}
	}
}

// TestNewRoutesWhatIsDeclared builds a replica of every feature, and of each
// feature alone (the Home with the agent it reads, the help channels with
// the agent that hears the messages they declare): what each declares is
// what it routes (bot.Router.CheckRoutes), or New fails. Building touches no
// Redis, so no store is needed.
func TestNewRoutesWhatIsDeclared(t *testing.T) {
	t.Parallel()
	sc := slack.New("xoxb-not-used", slack.OptionAPIURL("http://127.0.0.1:1/api/"))
	implicit := project.Single("proj_test", "mint_test_key_0000000000000000", "http://127.0.0.1:1")
	sets := [][]string{nil}
	for _, d := range app.Declarations()[1:] {
		set := []string{d.Name}
		if d.Name == home.Name || d.Name == helpchannels.Name {
			set = append(set, agent.Name)
		}
		sets = append(sets, set)
	}
	for _, features := range sets {
		b, err := app.New(app.Config{Bot: bot.Config{Projects: implicit}, Features: features}, app.Deps{Slack: sc})
		if err != nil {
			t.Errorf("features %v: %v", features, err)
			continue
		}
		if n := len(b.Router().Declared()); features != nil && n != len(features) || features == nil && n != len(app.Declarations())-1 {
			t.Errorf("features %v: %d declarations made", features, n)
		}
	}
}
