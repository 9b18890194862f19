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
		AppHome struct {
			MessagesTab bool `yaml:"messages_tab_enabled"`
		} `yaml:"app_home"`
		Shortcuts []struct {
			Name       string `yaml:"name"`
			Type       string `yaml:"type"`
			CallbackID string `yaml:"callback_id"`
		} `yaml:"shortcuts"`
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
		Interactivity struct {
			Enabled bool `yaml:"is_enabled"`
		} `yaml:"interactivity"`
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
	if len(m.Settings.Events.Bot) != len(agent.MessageEvents()) {
		t.Errorf("manifest subscribes to %v: the bot handles exactly %v", m.Settings.Events.Bot, agent.MessageEvents())
	}
	if !m.Features.AppHome.MessagesTab {
		t.Error("messages_tab_enabled must be true: direct messages start jobs")
	}
	var shortcuts []string
	for _, sc := range m.Features.Shortcuts {
		shortcuts = append(shortcuts, sc.CallbackID)
		if sc.Type != "message" || sc.Name == "" {
			t.Errorf("shortcut %s: type %q name %q, want a named message shortcut", sc.CallbackID, sc.Type, sc.Name)
		}
	}
	if !slices.Equal(shortcuts, agent.Shortcuts()) {
		t.Errorf("manifest shortcuts %v, the bot handles %v", shortcuts, agent.Shortcuts())
	}
	if !m.Settings.Interactivity.Enabled {
		t.Error("interactivity must be enabled: the shortcut, the job form and buttons")
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
		t.Errorf("manifest scopes %v: the bot needs exactly %v plus one scope per event", m.OAuth.Scopes.Bot, scopes)
	}
}
