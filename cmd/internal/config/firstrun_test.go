package config

import (
	"encoding/base64"
	"io"
	"slices"
	"strings"
	"testing"
)

// TestFirstRun: with DOCSBOT_SECRETS_KEY set and neither DOCS_API_KEY nor
// DOCS_PROJECT_ID, serve starts with no docs project, to have them
// connected from Slack; without the key, or with one of the two set, the
// missing ones are named as before.
func TestFirstRun(t *testing.T) {
	t.Parallel()
	key := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("k", 32)))
	slackVars := map[string]string{EnvSlackBotToken: "xoxb-1-2-abc", EnvSlackAppToken: "xapp-1-2-abc"}
	tests := []struct {
		name    string
		vars    map[string]string
		missing []string
	}{
		{"the secrets key alone", map[string]string{EnvSecretsKey: key}, nil},
		{"no secrets key", map[string]string{}, []string{EnvAPIKey, EnvProject}},
		{"the key and a project id", map[string]string{EnvSecretsKey: key, EnvProject: "proj_1"}, []string{EnvAPIKey}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]string{}
			for _, m := range []map[string]string{slackVars, tt.vars} {
				for k, v := range m {
					vars[k] = v
				}
			}
			e := Env{LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }, Dir: t.TempDir(), Stderr: io.Discard}
			c, err := e.Serve(nil)
			var missing []string
			for _, p := range c.Problems {
				if strings.HasPrefix(p.Text, "missing ") {
					missing = append(missing, p.Vars...)
				}
			}
			if !slices.Equal(missing, tt.missing) {
				t.Errorf("missing %v, want %v (%v)", missing, tt.missing, err)
			}
			if tt.missing == nil && (err != nil || c.Bot.Projects == nil || c.Bot.Projects.Len() != 0) {
				t.Errorf("first run: %v, projects %v", err, c.Bot.Projects)
			}
		})
	}
}
