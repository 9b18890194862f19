package bot_test

import (
	"os"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/visitors"
)

// manifest is the part of deploy/slack-app-manifest.yaml the code depends on.
type manifest struct {
	Features struct {
		SlashCommands []struct {
			Command     string `yaml:"command"`
			Description string `yaml:"description"`
			UsageHint   string `yaml:"usage_hint"`
		} `yaml:"slash_commands"`
	} `yaml:"features"`
	OAuth struct {
		Scopes struct {
			Bot []string `yaml:"bot"`
		} `yaml:"scopes"`
	} `yaml:"oauth_config"`
	Settings struct {
		Events struct {
			Bot []string `yaml:"bot_events"`
		} `yaml:"event_subscriptions"`
		SocketMode bool `yaml:"socket_mode_enabled"`
	} `yaml:"settings"`
}

// TestManifestMatchesTheCode reads the Slack app manifest and checks that it
// declares every slash command and event the bot handles, with the scopes
// they need, and no command the bot does not serve.
func TestManifestMatchesTheCode(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../deploy/slack-app-manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := yaml.Unmarshal(raw, &m); err != nil {
		t.Fatalf("manifest is not valid YAML: %v", err)
	}
	if !m.Settings.SocketMode {
		t.Error("socket_mode_enabled must be true: the bot connects over Socket Mode")
	}
	var commands []string
	for _, c := range m.Features.SlashCommands {
		commands = append(commands, c.Command)
		if c.Description == "" || c.UsageHint == "" {
			t.Errorf("%s lacks a description or usage hint", c.Command)
		}
	}
	slices.Sort(commands)
	if want := []string{agent.Command, visitors.Command}; !slices.Equal(commands, want) {
		t.Errorf("manifest commands %v, the bot serves %v", commands, want)
	}
	for _, ev := range agent.MessageEvents() {
		if !slices.Contains(m.Settings.Events.Bot, ev.Event) {
			t.Errorf("manifest does not subscribe to %s", ev.Event)
		}
		if !slices.Contains(m.OAuth.Scopes.Bot, ev.Scope) {
			t.Errorf("manifest lacks scope %s needed for %s", ev.Scope, ev.Event)
		}
	}
	scopes := slices.Concat(bot.Scopes(), agent.Scopes(), visitors.Scopes())
	for _, s := range scopes {
		if !slices.Contains(m.OAuth.Scopes.Bot, s) {
			t.Errorf("manifest lacks scope %s", s)
		}
	}
	if len(m.OAuth.Scopes.Bot) != len(scopes)+len(agent.MessageEvents()) {
		t.Errorf("manifest scopes %v: the bot needs exactly %v plus one history scope per message event", m.OAuth.Scopes.Bot, scopes)
	}
}
