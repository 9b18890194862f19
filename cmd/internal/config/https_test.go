package config

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestURLsAreHTTPSOffThisMachine: every URL docsbot sends a key to, or links
// people to, is https, whether a setting or a field of the projects file;
// http is let be only to this machine (127.0.0.1, [::1], localhost), where
// the tests, the sandbox and docsapitest run. Each refusal names the
// setting or the field.
func TestURLsAreHTTPSOffThisMachine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(field, url string) string {
		path := filepath.Join(dir, strings.ReplaceAll(field+url, "/", "_")+".yaml")
		body := "projects:\n  - name: docs\n    project_id: p1\n    api_key_env: KEY\n    assistant_key_env: AKEY\n    domain: acme\n    " + field + ": " + url + "\n"
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	base := map[string]string{EnvSlackBotToken: "xoxb-test", EnvSlackAppToken: "xapp-test", EnvAPIKey: "mint_test_key_000000000000", EnvProject: "p1",
		"KEY": "mint_file_key_0000000000000", "AKEY": "mint_dsc_file_key_00000000000"}
	tests := []struct {
		name string
		env  map[string]string
		want string // "" for no problem
	}{
		{"API over https", map[string]string{EnvAPIURL: "https://api.example.com"}, ""},
		{"API over http", map[string]string{EnvAPIURL: "http://api.example.com"}, `DOCS_API_URL "http://api.example.com" (from environment variable DOCS_API_URL) must be an https:// URL: docsbot sends the API key to it`},
		{"API on 127.0.0.1", map[string]string{EnvAPIURL: "http://127.0.0.1:7070"}, ""},
		{"API on localhost", map[string]string{EnvAPIURL: "http://localhost:7070/"}, ""},
		{"API on ::1", map[string]string{EnvAPIURL: "http://[::1]:7070"}, ""},
		{"API on an address of this network", map[string]string{EnvAPIURL: "http://10.1.2.3:7070"}, `DOCS_API_URL "http://10.1.2.3:7070"`},
		{"discovery over http", map[string]string{EnvDiscoveryURL: "http://api.example.com/discovery"}, `DOCS_DISCOVERY_URL "http://api.example.com/discovery" must be an https:// URL: docsbot sends the assistant key to it`},
		{"discovery on loopback", map[string]string{EnvDiscoveryURL: "http://127.0.0.1:7070/discovery"}, ""},
		{"site over http", map[string]string{EnvSiteURL: "http://docs.example.com"}, `DOCS_SITE_URL "http://docs.example.com" must be an https:// URL: the sources of answers link people to it`},
		{"Slack over http", map[string]string{EnvSlackAPIURL: "http://slack.example.com/api/"}, `SLACK_API_URL "http://slack.example.com/api/" must be an https:// URL: docsbot sends the Slack tokens to it`},
		{"Slack on loopback", map[string]string{EnvSlackAPIURL: "http://127.0.0.1:1/api/"}, ""},
		{"the file's api_url over http", map[string]string{EnvProjectsFile: file("api_url", "http://api.example.com")},
			`api_url: "http://api.example.com": want an https:// URL such as https://api.mintlify.com, as docsbot sends the project's key to it`},
		{"the file's discovery_url over http", map[string]string{EnvProjectsFile: file("discovery_url", "http://api.example.com/discovery")},
			`discovery_url: "http://api.example.com/discovery": want an https:// URL`},
		{"the file's site_url over http", map[string]string{EnvProjectsFile: file("site_url", "http://docs.acme.com")},
			`site_url: "http://docs.acme.com": want an https:// URL such as https://docs.example.com, as the sources of answers link people to it`},
		{"the file's URLs on loopback", map[string]string{EnvProjectsFile: file("api_url", "http://127.0.0.1:7070")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{}
			for k, v := range base {
				env[k] = v
			}
			for k, v := range tt.env {
				env[k] = v
			}
			if env[EnvProjectsFile] != "" {
				delete(env, EnvAPIKey)
				delete(env, EnvProject)
			}
			e := Env{Dir: dir, Stderr: io.Discard, LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
			_, err := e.Serve(nil)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}
