package bot_test

import (
	"net/url"
	"os"
	"reflect"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/health"
	"github.com/docsbot/docsbot/bot/home"
	"github.com/docsbot/docsbot/bot/visitors"
)

// manifest is the part of the Slack app manifests the code depends on.
type manifest struct {
	Features struct {
		AppHome struct {
			HomeTab     bool `yaml:"home_tab_enabled"`
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
			URL         string `yaml:"url"`
		} `yaml:"slash_commands"`
	} `yaml:"features"`
	OAuth struct {
		Scopes struct {
			Bot []string `yaml:"bot"`
		} `yaml:"scopes"`
	} `yaml:"oauth_config"`
	Settings struct {
		Events struct {
			Bot        []string `yaml:"bot_events"`
			RequestURL string   `yaml:"request_url"`
		} `yaml:"event_subscriptions"`
		Interactivity struct {
			Enabled    bool   `yaml:"is_enabled"`
			RequestURL string `yaml:"request_url"`
		} `yaml:"interactivity"`
		SocketMode bool `yaml:"socket_mode_enabled"`
	} `yaml:"settings"`
}

// The two Slack app manifests: Socket Mode, and HTTP mode with request URLs.
const (
	socketManifest = "../deploy/slack-app-manifest.yaml"
	httpManifest   = "../deploy/slack-app-manifest-http.yaml"
)

// TestManifestMatchesTheCode reads both Slack app manifests and checks that
// each declares every slash command, shortcut and event the bot handles,
// with the scopes they need, and no command the bot does not serve; and
// that each reaches the bot the way its mode does.
func TestManifestMatchesTheCode(t *testing.T) {
	t.Parallel()
	for _, path := range []string{socketManifest, httpManifest} {
		m := readManifest(t, path)
		checkManifest(t, path, m)
		if http := path == httpManifest; m.Settings.SocketMode == http {
			t.Errorf("%s: socket_mode_enabled is %v", path, m.Settings.SocketMode)
		}
	}
	m := readManifest(t, httpManifest)
	wantURL := func(what, got, path string) {
		if u, err := url.Parse(got); err != nil || u.Scheme != "https" || u.Path != path {
			t.Errorf("%s: %s is %q, want an https URL with the path %s", httpManifest, what, got, path)
		}
	}
	for _, c := range m.Features.SlashCommands {
		wantURL(c.Command+"'s url", c.URL, bot.PathCommands)
	}
	wantURL("event_subscriptions.request_url", m.Settings.Events.RequestURL, bot.PathEvents)
	wantURL("interactivity.request_url", m.Settings.Interactivity.RequestURL, bot.PathInteractive)
}

// TestManifestsDifferOnlyInTheRequestURLs keeps the HTTP-mode manifest the
// same app as the Socket Mode one: the same commands, shortcuts, events,
// scopes and settings, only reached by request URLs.
func TestManifestsDifferOnlyInTheRequestURLs(t *testing.T) {
	t.Parallel()
	generic := func(path string) map[string]any {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := yaml.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s is not valid YAML: %v", path, err)
		}
		settings, _ := m["settings"].(map[string]any)
		delete(settings, "socket_mode_enabled")
		for _, k := range []string{"event_subscriptions", "interactivity"} {
			if sub, ok := settings[k].(map[string]any); ok {
				delete(sub, "request_url")
			}
		}
		features, _ := m["features"].(map[string]any)
		commands, _ := features["slash_commands"].([]any)
		for _, c := range commands {
			if c, ok := c.(map[string]any); ok {
				delete(c, "url")
			}
		}
		return m
	}
	if s, h := generic(socketManifest), generic(httpManifest); !reflect.DeepEqual(s, h) {
		t.Errorf("the manifests differ in more than how Slack reaches the bot:\n%s: %v\n%s: %v", socketManifest, s, httpManifest, h)
	}
}

func readManifest(t *testing.T, path string) manifest {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := yaml.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s is not valid YAML: %v", path, err)
	}
	return m
}

// checkManifest checks that m declares what the code serves and needs.
func checkManifest(t *testing.T, path string, m manifest) {
	t.Helper()
	var commands []string
	for _, c := range m.Features.SlashCommands {
		commands = append(commands, c.Command)
		if c.Description == "" || c.UsageHint == "" {
			t.Errorf("%s: %s lacks a description or usage hint", path, c.Command)
		}
	}
	slices.Sort(commands)
	if want := []string{agent.Command, ask.Command, deploy.Command, health.Command, visitors.Command}; !slices.Equal(commands, want) {
		t.Errorf("%s: manifest commands %v, the bot serves %v", path, commands, want)
	}
	if len(m.Settings.Events.Bot) != len(agent.MessageEvents())+len(home.Events()) {
		t.Errorf("%s: manifest subscribes to %v: the bot handles exactly %v and %v", path, m.Settings.Events.Bot, agent.MessageEvents(), home.Events())
	}
	for _, ev := range home.Events() {
		if !slices.Contains(m.Settings.Events.Bot, ev) {
			t.Errorf("%s: manifest does not subscribe to %s", path, ev)
		}
	}
	if !m.Features.AppHome.HomeTab {
		t.Errorf("%s: home_tab_enabled must be true: the bot publishes the Home tab", path)
	}
	if !m.Features.AppHome.MessagesTab {
		t.Errorf("%s: messages_tab_enabled must be true: direct messages start jobs", path)
	}
	var shortcuts []string
	for _, sc := range m.Features.Shortcuts {
		shortcuts = append(shortcuts, sc.CallbackID)
		if sc.Type != "message" || sc.Name == "" {
			t.Errorf("%s: shortcut %s: type %q name %q, want a named message shortcut", path, sc.CallbackID, sc.Type, sc.Name)
		}
	}
	if !slices.Equal(shortcuts, agent.Shortcuts()) {
		t.Errorf("%s: manifest shortcuts %v, the bot handles %v", path, shortcuts, agent.Shortcuts())
	}
	if !m.Settings.Interactivity.Enabled {
		t.Errorf("%s: interactivity must be enabled: the shortcut, the job form and buttons", path)
	}
	for _, ev := range agent.MessageEvents() {
		if !slices.Contains(m.Settings.Events.Bot, ev.Event) {
			t.Errorf("%s: manifest does not subscribe to %s", path, ev.Event)
		}
		if !slices.Contains(m.OAuth.Scopes.Bot, ev.Scope) {
			t.Errorf("%s: manifest lacks scope %s needed for %s", path, ev.Scope, ev.Event)
		}
	}
	scopes := slices.Concat(bot.Scopes(), agent.Scopes(), visitors.Scopes(), home.Scopes())
	for _, s := range scopes {
		if !slices.Contains(m.OAuth.Scopes.Bot, s) {
			t.Errorf("%s: manifest lacks scope %s", path, s)
		}
	}
	// Each scope once, and none the code does not use.
	for _, ev := range agent.MessageEvents() {
		scopes = append(scopes, ev.Scope)
	}
	slices.Sort(scopes)
	want := slices.Compact(scopes)
	got := slices.Sorted(slices.Values(m.OAuth.Scopes.Bot))
	if !slices.Equal(got, want) {
		t.Errorf("%s: manifest scopes %v: the bot needs each of %v once", path, got, want)
	}
}
