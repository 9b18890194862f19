package app

import (
	"fmt"
	"slices"

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
	w := &manifestWriter{}
	w.header(http, installMode)
	w.features(ds, manifestTabs{home: home, messages: messages}, http, base)
	w.oauth(ds.Scopes(), installMode, base)
	w.settings(ds.Events(), interactive, http, installMode, base)
	if w.err != nil {
		return nil, fmt.Errorf("app: the manifest: %w", w.err)
	}
	return []byte(w.b.String()), nil
}
