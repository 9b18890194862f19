package app_test

import (
	"bytes"
	"flag"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"go.yaml.in/yaml/v3"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/install"
)

// update writes the manifests again from the declarations:
// go test ./bot/app -run Manifests -update.
var update = flag.Bool("update", false, "write deploy/slack-app-manifest*.yaml from the features' declarations")

// The two Slack app manifests: Socket Mode, and HTTP mode with request URLs.
const (
	socketManifest  = "../../deploy/slack-app-manifest.yaml"
	httpManifest    = "../../deploy/slack-app-manifest-http.yaml"
	installManifest = "../../deploy/slack-app-manifest-install.yaml"
)

// TestManifestsAreTheDeclarations: both Slack app manifests are exactly
// what app.Manifest makes of the features' declarations, so a command, an
// event or a scope declared in a feature's package is in them, and nothing
// else is. With -update it writes them.
func TestManifestsAreTheDeclarations(t *testing.T) {
	for path, make := range map[string]func() ([]byte, error){
		socketManifest:  func() ([]byte, error) { return app.Manifest(app.Declarations(), false, app.ManifestURL) },
		httpManifest:    func() ([]byte, error) { return app.Manifest(app.Declarations(), true, app.ManifestURL) },
		installManifest: func() ([]byte, error) { return app.InstallManifest(app.Declarations(), app.ManifestURL) },
	} {
		want, err := make()
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what the features declare: run go test ./bot/app -run Manifests -update\nwant:\n%s", path, want)
		}
	}
}

// TestManifestsDeclareWhatIsServed reads both manifests as Slack does
// (slack-go's manifest types) and checks them against the declarations,
// whatever wrote them: every slash command with its description and usage
// hint, the shortcuts, exactly the events and scopes declared, the App Home
// tabs and interactivity; and that each reaches the bot the way its mode
// does.
func TestManifestsDeclareWhatIsServed(t *testing.T) {
	t.Parallel()
	ds := app.Declarations()
	for _, path := range []string{socketManifest, httpManifest} {
		m := readManifest(t, path)
		var commands []declare.Command
		for _, c := range m.Features.SlashCommands {
			commands = append(commands, declare.Command{Name: c.Command, Description: c.Description, UsageHint: c.UsageHint})
		}
		var want []declare.Command
		for _, c := range ds.Commands() {
			c.Examples = nil
			want = append(want, c)
			if c.Description == "" || c.UsageHint == "" {
				t.Errorf("%s is declared without a description or usage hint", c.Name)
			}
		}
		byName := func(a, b declare.Command) int { return strings.Compare(a.Name, b.Name) }
		slices.SortFunc(commands, byName)
		slices.SortFunc(want, byName)
		if !reflect.DeepEqual(commands, want) {
			t.Errorf("%s: slash commands %+v, the features declare %+v", path, commands, want)
		}
		var shortcuts []declare.Shortcut
		for _, s := range m.Features.Shortcuts {
			if s.Type != slack.MessageShortcut {
				t.Errorf("%s: shortcut %s is of type %q, want a message shortcut", path, s.CallbackID, s.Type)
			}
			shortcuts = append(shortcuts, declare.Shortcut{CallbackID: s.CallbackID, Name: s.Name, Description: s.Description})
		}
		if !slices.Equal(shortcuts, ds.Shortcuts()) {
			t.Errorf("%s: shortcuts %+v, the features declare %+v", path, shortcuts, ds.Shortcuts())
		}
		var events []string
		for _, e := range ds.Events() {
			events = append(events, e.Name)
		}
		if got := m.Settings.EventSubscriptions.BotEvents; !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(events))) {
			t.Errorf("%s: bot events %v, the features declare %v", path, got, events)
		}
		if got := slices.Sorted(slices.Values(m.OAuthConfig.Scopes.Bot)); !slices.Equal(got, ds.ScopeNames()) {
			t.Errorf("%s: bot scopes %v, the core and the features declare %v", path, got, ds.ScopeNames())
		}
		home, messages := ds.Tabs()
		if m.Features.AppHome.HomeTabEnabled != (home != "") || m.Features.AppHome.MessagesTabEnabled != (messages != "") {
			t.Errorf("%s: app_home %+v, the features need the Home tab for %q and the Messages tab for %q", path, m.Features.AppHome, home, messages)
		}
		if m.Settings.Interactivity == nil || m.Settings.Interactivity.IsEnabled != ds.Interactive() {
			t.Errorf("%s: interactivity %+v, the features' buttons, forms and shortcuts need it: %t", path, m.Settings.Interactivity, ds.Interactive())
		}
		if http := path == httpManifest; m.Settings.SocketModeEnabled == http {
			t.Errorf("%s: socket_mode_enabled is %v", path, m.Settings.SocketModeEnabled)
		}
	}
	m := readManifest(t, httpManifest)
	wantURL := func(what, got, path string) {
		if u, err := url.Parse(got); err != nil || u.Scheme != "https" || u.Path != path {
			t.Errorf("%s: %s is %q, want an https URL with the path %s", httpManifest, what, got, path)
		}
	}
	for _, c := range m.Features.SlashCommands {
		wantURL(c.Command+"'s url", c.Url, bot.PathCommands)
	}
	wantURL("event_subscriptions.request_url", m.Settings.EventSubscriptions.RequestUrl, bot.PathEvents)
	wantURL("interactivity.request_url", m.Settings.Interactivity.RequestUrl, bot.PathInteractive)
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

func readManifest(t *testing.T, path string) slack.Manifest {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m slack.Manifest
	if err := yaml.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s is not valid YAML: %v", path, err)
	}
	if m.Settings.EventSubscriptions == nil {
		t.Fatalf("%s subscribes to no events", path)
	}
	return m
}

// TestInstallManifest: install mode's manifest is HTTP mode's app with what
// installing by link needs: the redirect URL docsbot serves, token
// rotation, and the events that say a workspace removed docsbot.
func TestInstallManifest(t *testing.T) {
	t.Parallel()
	m := readManifest(t, installManifest)
	if got := m.OAuthConfig.RedirectUrls; len(got) != 1 || got[0] != app.ManifestURL+install.PathRedirect {
		t.Errorf("redirect_urls %v, want %s", got, app.ManifestURL+install.PathRedirect)
	}
	if !m.Settings.TokenRotationEnabled || m.Settings.SocketModeEnabled {
		t.Errorf("token rotation %t, socket mode %t: want rotation on, socket mode off", m.Settings.TokenRotationEnabled, m.Settings.SocketModeEnabled)
	}
	for _, ev := range []string{"app_uninstalled", "tokens_revoked"} {
		if !slices.Contains(m.Settings.EventSubscriptions.BotEvents, ev) {
			t.Errorf("bot_events lack %s", ev)
		}
	}
	h := readManifest(t, httpManifest)
	if len(m.OAuthConfig.Scopes.Bot) != len(h.OAuthConfig.Scopes.Bot) || len(m.Features.SlashCommands) != len(h.Features.SlashCommands) {
		t.Errorf("the install manifest asks other scopes or commands than HTTP mode's")
	}
}
