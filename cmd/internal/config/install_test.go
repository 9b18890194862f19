package config

import (
	"encoding/base64"
	"errors"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/cmd/internal/cli"
)

// TestInstallMode: http mode with the app's client id and no bot token is
// install by link, which needs the client secret, the public URL, the
// signing secret and the secrets key; with a bot token docsbot serves that
// one workspace as before, and Socket Mode never installs by link.
func TestInstallMode(t *testing.T) {
	t.Parallel()
	key := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("k", 32)))
	full := map[string]string{EnvAPIKey: "mint_0000000000000000000000", EnvProject: "proj_1",
		EnvSlackMode: "http", EnvSigningSecret: "signing", EnvClientID: "123.456", EnvClientSecret: "client-secret",
		EnvPublicURL: "https://docsbot.example.com/", EnvSecretsKey: key}
	tests := []struct {
		name    string
		change  map[string]string // "" deletes
		install bool
		missing []string // the variables named missing; nil: no error
		problem string   // a problem's words, besides
	}{
		{name: "every setting", install: true},
		{name: "a bot token: that one workspace", change: map[string]string{EnvSlackBotToken: "xoxb-1-2-abc"}},
		{name: "socket mode", change: map[string]string{EnvSlackMode: "socket"}, missing: []string{EnvSlackBotToken, EnvSlackAppToken}, problem: "needs DOCSBOT_SLACK_MODE=http"},
		{name: "no secrets key", change: map[string]string{EnvSecretsKey: ""}, install: true, missing: []string{EnvSecretsKey}},
		{name: "no client secret nor public URL", change: map[string]string{EnvClientSecret: "", EnvPublicURL: ""}, install: true, missing: []string{EnvClientSecret, EnvPublicURL}},
		{name: "a secrets key too short", change: map[string]string{EnvSecretsKey: "c2hvcnQ="}, install: true, problem: "is not base64 of 32 bytes"},
		{name: "the workspaces that may install", change: map[string]string{EnvTeams: "T0123ABCD, E0456EFGH"}, install: true},
		{name: "a channel among the workspaces", change: map[string]string{EnvTeams: "T0123ABCD,C0456EFGH"}, install: true, problem: EnvTeams},
		{name: "a public URL over http", change: map[string]string{EnvPublicURL: "http://docsbot.example.com"}, install: true, problem: "must be an https:// URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := maps.Clone(full)
			for k, v := range tt.change {
				if v == "" {
					delete(vars, k)
				} else {
					vars[k] = v
				}
			}
			e := Env{LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, Dir: t.TempDir(), Stderr: io.Discard}
			c, err := e.Serve(nil)
			if c.Bot.InstallMode != tt.install {
				t.Errorf("install mode %t, want %t", c.Bot.InstallMode, tt.install)
			}
			var got []string
			for _, p := range c.Problems {
				if strings.HasPrefix(p.Text, "missing ") {
					got = append(got, p.Vars...)
				}
			}
			if !slices.Equal(got, tt.missing) {
				t.Errorf("missing %v, want %v (%v)", got, tt.missing, err)
			}
			if tt.problem != "" && (err == nil || !strings.Contains(err.Error(), tt.problem)) {
				t.Errorf("error %v, want one saying %q", err, tt.problem)
			}
			if tt.missing == nil && tt.problem == "" {
				if err != nil {
					t.Fatalf("Serve: %v", err)
				}
				if teams := tt.change[EnvTeams]; teams != "" && len(c.Install.Teams) != 2 {
					t.Errorf("teams %v, want the two of %q", c.Install.Teams, teams)
				}
				if tt.install && (c.Install.ClientID != "123.456" || c.Install.PublicURL != "https://docsbot.example.com" || len(c.Install.SecretsKeys) != 1 || c.Install.APIURL == "") {
					t.Errorf("install settings %+v", c.Install)
				}
			}
			if err != nil {
				if ce, ok := errors.AsType[*cli.Error](err); !ok || strings.Contains(ce.Msg, "client-secret") || strings.Contains(ce.Msg, key) {
					t.Errorf("the error shows a secret or is not a cli.Error: %v", err)
				}
			}
		})
	}
}
