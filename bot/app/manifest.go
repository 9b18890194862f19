package app

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"text/template"

	"go.yaml.in/yaml/v3"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/install"
)

// ManifestURL is the public address the HTTP-mode manifest names for the
// request URLs; the person installing the app replaces it with theirs.
const ManifestURL = "https://docsbot.example.com"

// ManifestUnfurlDomain is the docs site's host the manifests list for link
// unfurls; the person installing the app replaces it with the host of
// DOCS_SITE_URL (and of each project's site_url).
const ManifestUnfurlDomain = "docs.example.com"

// Manifest is docsbot's Slack app manifest in YAML, made of ds: the slash
// commands, message shortcuts, events, scopes (each with why it is needed),
// App Home tabs and interactivity that the core and the features declare.
// With http set it is HTTP mode's, whose request URLs are under base
// (ManifestURL); else Socket Mode's. deploy/slack-app-manifest.yaml and
// deploy/slack-app-manifest-http.yaml are its output, checked by
// TestManifestsAreTheDeclarations (go test ./bot/app -run Manifests -update
// writes them again).
func Manifest(ds declare.Declarations, http bool, base string) ([]byte, error) {
	return manifest(ds, http, false, base)
}

// InstallManifest is the manifest of install mode (docsbot added by link to
// any number of workspaces): HTTP mode's, with install mode's own
// declaration (the uninstall events), the redirect URL under base, token
// rotation on and distribution to other workspaces. It is
// deploy/slack-app-manifest-install.yaml.
func InstallManifest(ds declare.Declarations, base string) ([]byte, error) {
	return manifest(append(slices.Clip(ds), install.Declaration()), true, true, base)
}

func manifest(ds declare.Declarations, http, installMode bool, base string) ([]byte, error) {
	home, messages := ds.Tabs()
	interactive := ""
	if ds.Interactive() {
		interactive = "buttons, forms and the message shortcut"
	}
	data := struct {
		HTTP, Install bool
		RedirectURL   string
		Commands      []declare.Command
		Shortcuts     []declare.Shortcut
		Events        []declare.Event
		Scopes        []declare.Scope
		// HomeTab, MessagesTab and Interactive say why each is on, "" when
		// it is off.
		HomeTab, MessagesTab, Interactive string
		// AgentView describes the app in the agent pane, "" when it is off;
		// Unfurls says why links to the docs site are unfurled.
		AgentView, Unfurls                     string
		UnfurlDomain                           string
		EventsURL, CommandsURL, InteractiveURL string
	}{
		HTTP: http, Install: installMode, RedirectURL: base + install.PathRedirect, Commands: ds.Commands(), Shortcuts: ds.Shortcuts(), Events: ds.Events(), Scopes: ds.Scopes(),
		HomeTab: home, MessagesTab: messages, Interactive: interactive,
		AgentView: ds.AgentView(), Unfurls: ds.Unfurls(), UnfurlDomain: ManifestUnfurlDomain,
		EventsURL: base + bot.PathEvents, CommandsURL: base + bot.PathCommands, InteractiveURL: base + bot.PathInteractive,
	}
	var buf bytes.Buffer
	if err := manifestTemplate.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("app: the manifest: %w", err)
	}
	return buf.Bytes(), nil
}

// manifestTemplate is the manifests' text; what the declarations do not
// say (the app's name, its description, the bot user) is written here.
var manifestTemplate = template.Must(template.New("manifest").Funcs(template.FuncMap{
	"q": yamlScalar, "line": commented,
}).Parse(`{{if .Install -}}
# docsbot's Slack app for install by link (DOCSBOT_SLACK_MODE=http, SLACK_CLIENT_ID and no
# SLACK_BOT_TOKEN): any number of workspaces add it at https://docsbot.example.com/slack/install.
# Create it from this manifest (api.slack.com/apps -> Create New App -> From an app manifest),
# replacing docsbot.example.com with your public HTTPS name (DOCSBOT_PUBLIC_URL); copy the
# Client ID, Client Secret and Signing Secret (Basic Information) into SLACK_CLIENT_ID,
# SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET, and turn on Manage Distribution to let other
# workspaces install it. Tokens rotate (docsbot refreshes them).
{{- else if .HTTP -}}
# docsbot's Slack app for HTTP mode (DOCSBOT_SLACK_MODE=http), in one paste: api.slack.com/apps ->
# Create New App -> From an app manifest. Replace docsbot.example.com with the public HTTPS name of
# your load balancer or ingress, which forwards /slack/ to the replicas' DOCSBOT_HTTP_ADDR; then
# copy the Signing Secret (Basic Information) into SLACK_SIGNING_SECRET. Everything but the
# request URLs is the same as deploy/slack-app-manifest.yaml (Socket Mode).
{{- else -}}
# docsbot's Slack app in one paste: api.slack.com/apps -> Create New App -> From an app manifest.
# Socket Mode is on, so the app needs no public URL. The scopes are the ones the bot uses, no more.
{{- end}}
# Generated from what docsbot's features declare (bot/app.Manifest): do not edit by hand.
_metadata:
  major_version: 1
  minor_version: 1
display_information:
  name: docsbot
  description: Run the docs agent and read your docs traffic without leaving Slack.
  long_description: >-
    /docs-agent, an @docsbot mention, a direct message or the "Send to docs agent" message
    shortcut starts the documentation platform's AI agent on an instruction and follows the
    job in a thread: replies in the thread go to the agent as follow-ups, and the pull
    request link is posted there when the agent finishes. /docs-ask answers questions from
    your docs with their sources, streamed into a thread. /docs-visitors posts unique-visitor
    summaries of your docs site: totals, human and AI traffic, the top pages, trend charts,
    comparisons, CSV files and a weekly digest. /docs-health shows what to fix in the docs,
    and /docs-deploy deploys them or previews a branch.
  background_color: "#1e293b"
features:
{{- with .AgentView}}
  agent_view:                           # the pane: suggested prompts, answers and jobs in its threads
    agent_description: {{q .}}
{{- end}}
  app_home:
{{line 40 (printf "    home_tab_enabled: %t" (ne .HomeTab "")) .HomeTab}}
{{line 40 (printf "    messages_tab_enabled: %t" (ne .MessagesTab "")) .MessagesTab}}
    messages_tab_read_only_enabled: false
  bot_user:
    display_name: docsbot
    always_online: true
{{- with .Shortcuts}}
  shortcuts:
{{- range .}}
    - name: {{q .Name}}
      type: message
      callback_id: {{q .CallbackID}}
      description: {{q .Description}}
{{- end}}
{{- end}}
  slash_commands:
{{- range .Commands}}
    - command: {{q .Name}}
      description: {{q .Description}}
      usage_hint: {{q .UsageHint}}
{{- if $.HTTP}}
      url: {{$.CommandsURL}}
{{- end}}
      should_escape: false
{{- end}}
{{- if .Unfurls}}
  unfurl_domains:                       # {{.Unfurls}}; replace with your docs site's host
    - {{q .UnfurlDomain}}
{{- end}}
oauth_config:
{{- if .Install}}
  redirect_urls:
    - {{.RedirectURL}}
{{- end}}
  scopes:
    bot:
{{- range .Scopes}}
{{line 26 (printf "      - %s" .Name) .Why}}
{{- end}}
settings:
  event_subscriptions:
    bot_events:
{{- range .Events}}
{{line 40 (printf "      - %s" .Name) .Why}}
{{- end}}
{{- if .HTTP}}
    request_url: {{.EventsURL}}
{{- end}}
  interactivity:
{{line 40 (printf "    is_enabled: %t" (ne .Interactive "")) .Interactive}}
{{- if .HTTP}}
    request_url: {{.InteractiveURL}}
{{- end}}
  org_deploy_enabled: false
  socket_mode_enabled: {{not .HTTP}}
  token_rotation_enabled: {{.Install}}
`))

// commented is line with why as its comment, from column on; line alone
// when why is "".
func commented(column int, line, why string) string {
	if why == "" {
		return line
	}
	return line + strings.Repeat(" ", max(column-len(line), 1)) + "# " + why
}

// yamlScalar writes s as a YAML scalar: plain when it reads back as
// itself, quoted otherwise.
func yamlScalar(s string) (string, error) {
	out, err := yaml.Marshal(s)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}
