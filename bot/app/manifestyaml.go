package app

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/declare"
	"github.com/docsbot/docsbot/bot/install"
)

// manifestWriter writes a manifest's YAML line by line: what the
// declarations do not say (the app's name, its description, the bot user)
// is written here. It is plain Go rather than a text/template on purpose:
// a template reachable from the binary keeps every exported method of
// every type in it (the linker cannot tell which a template calls), about
// 9 MB of the binary and 4 MB of a replica's resident memory
// (BENCHMARKS.md, "A smaller binary"). The first error of a scalar is kept
// in err.
type manifestWriter struct {
	b   strings.Builder
	err error
}

// manifestTabs says why each App Home tab is on, "" when it is off.
type manifestTabs struct{ home, messages string }

// Columns at which a line's comment starts.
const (
	commentColumn      = 40
	scopeCommentColumn = 26
)

// line writes one line.
func (w *manifestWriter) line(format string, args ...any) {
	fmt.Fprintf(&w.b, format, args...)
	w.b.WriteByte('\n')
}

// commentedLine writes line with why as its comment from column on.
func (w *manifestWriter) commentedLine(column int, line, why string) {
	w.line("%s", commented(column, line, why))
}

// q is s as a YAML scalar.
func (w *manifestWriter) q(s string) string {
	out, err := yamlScalar(s)
	if err != nil && w.err == nil {
		w.err = err
	}
	return out
}

const manifestInstallHeader = `# docsbot's Slack app for install by link (DOCSBOT_SLACK_MODE=http, SLACK_CLIENT_ID and no
# SLACK_BOT_TOKEN): any number of workspaces add it at https://docsbot.example.com/slack/install.
# Create it from this manifest (api.slack.com/apps -> Create New App -> From an app manifest),
# replacing docsbot.example.com with your public HTTPS name (DOCSBOT_PUBLIC_URL); copy the
# Client ID, Client Secret and Signing Secret (Basic Information) into SLACK_CLIENT_ID,
# SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET, and turn on Manage Distribution to let other
# workspaces install it. Tokens rotate (docsbot refreshes them).`

const manifestHTTPHeader = `# docsbot's Slack app for HTTP mode (DOCSBOT_SLACK_MODE=http), in one paste: api.slack.com/apps ->
# Create New App -> From an app manifest. Replace docsbot.example.com with the public HTTPS name of
# your load balancer or ingress, which forwards /slack/ to the replicas' DOCSBOT_HTTP_ADDR; then
# copy the Signing Secret (Basic Information) into SLACK_SIGNING_SECRET. Everything but the
# request URLs is the same as deploy/slack-app-manifest.yaml (Socket Mode).`

const manifestSocketHeader = `# docsbot's Slack app in one paste: api.slack.com/apps -> Create New App -> From an app manifest.
# Socket Mode is on, so the app needs no public URL. The scopes are the ones the bot uses, no more.`

const manifestDisplay = `# Generated from what docsbot's features declare (bot/app.Manifest): do not edit by hand.
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
  background_color: "#1e293b"`

// header writes the comment that says how to create the app, then the
// app's name and description.
func (w *manifestWriter) header(http, installMode bool) {
	switch {
	case installMode:
		w.line("%s", manifestInstallHeader)
	case http:
		w.line("%s", manifestHTTPHeader)
	default:
		w.line("%s", manifestSocketHeader)
	}
	w.line("%s", manifestDisplay)
}

// features writes the pane, the App Home, the bot user, the shortcuts, the
// slash commands (with their request URL in HTTP mode) and the unfurl
// domains.
func (w *manifestWriter) features(ds declare.Declarations, tabs manifestTabs, http bool, base string) {
	w.line("features:")
	if view := ds.AgentView(); view != "" {
		w.line("  agent_view:                           # the pane: suggested prompts, answers and jobs in its threads")
		w.line("    agent_description: %s", w.q(view))
	}
	w.line("  app_home:")
	w.commentedLine(commentColumn, fmt.Sprintf("    home_tab_enabled: %t", tabs.home != ""), tabs.home)
	w.commentedLine(commentColumn, fmt.Sprintf("    messages_tab_enabled: %t", tabs.messages != ""), tabs.messages)
	w.line("    messages_tab_read_only_enabled: false")
	w.line("  bot_user:")
	w.line("    display_name: docsbot")
	w.line("    always_online: true")
	if shortcuts := ds.Shortcuts(); len(shortcuts) > 0 {
		w.line("  shortcuts:")
		for _, s := range shortcuts {
			w.line("    - name: %s", w.q(s.Name))
			w.line("      type: message")
			w.line("      callback_id: %s", w.q(s.CallbackID))
			w.line("      description: %s", w.q(s.Description))
		}
	}
	w.line("  slash_commands:")
	for _, c := range ds.Commands() {
		w.line("    - command: %s", w.q(c.Name))
		w.line("      description: %s", w.q(c.Description))
		w.line("      usage_hint: %s", w.q(c.UsageHint))
		if http {
			w.line("      url: %s", base+bot.PathCommands)
		}
		w.line("      should_escape: false")
	}
	if why := ds.Unfurls(); why != "" {
		w.line("  unfurl_domains:                       # %s; replace with your docs site's host", why)
		w.line("    - %s", w.q(ManifestUnfurlDomain))
	}
}

// oauth writes the redirect URL (install mode) and the bot's scopes, each
// with why it is needed.
func (w *manifestWriter) oauth(scopes []declare.Scope, installMode bool, base string) {
	w.line("oauth_config:")
	if installMode {
		w.line("  redirect_urls:")
		w.line("    - %s", base+install.PathRedirect)
	}
	w.line("  scopes:")
	w.line("    bot:")
	for _, s := range scopes {
		w.commentedLine(scopeCommentColumn, "      - "+s.Name, s.Why)
	}
}

// settings writes the events (each with why), interactivity, the request
// URLs of HTTP mode, Socket Mode and token rotation.
func (w *manifestWriter) settings(events []declare.Event, interactive string, http, installMode bool, base string) {
	w.line("settings:")
	w.line("  event_subscriptions:")
	w.line("    bot_events:")
	for _, e := range events {
		w.commentedLine(commentColumn, "      - "+e.Name, e.Why)
	}
	if http {
		w.line("    request_url: %s", base+bot.PathEvents)
	}
	w.line("  interactivity:")
	w.commentedLine(commentColumn, fmt.Sprintf("    is_enabled: %t", interactive != ""), interactive)
	if http {
		w.line("    request_url: %s", base+bot.PathInteractive)
	}
	w.line("  org_deploy_enabled: false")
	w.line("  socket_mode_enabled: %t", !http)
	w.line("  token_rotation_enabled: %t", installMode)
}

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
