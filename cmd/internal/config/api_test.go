package config

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/settings"
)

// TestAPIPicksTheProject resolves the docs API settings of a command with a
// projects file: --project by name or id, the only project, or a usage error
// naming the projects.
func TestAPIPicksTheProject(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	two := filepath.Join(dir, "two.yaml")
	one := filepath.Join(dir, "one.yaml")
	for path, content := range map[string]string{
		two:                           "projects:\n  - {name: docs, project_id: p_docs, api_key_env: KEY_DOCS}\n  - {name: api, project_id: p_api, api_key_file: api.key, api_url: \"https://api.example\"}\n",
		one:                           "projects:\n  - {name: docs, project_id: p_docs, api_key_env: KEY_DOCS}\n",
		filepath.Join(dir, "api.key"): "mint_api_key_from_file\n",
	} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"KEY_DOCS": "mint_docs_key_from_env", EnvAPIURL: "https://default.example/"}
	tests := []struct {
		name        string
		file        string
		flags       settings.Values
		want        API
		wantErr     string
		wantErrCode int
	}{
		{"by name", two, settings.Values{EnvProject: "api"}, API{APIURL: "https://api.example", APIKey: "mint_api_key_from_file", ProjectID: "p_api", KeyFrom: "file " + filepath.Join(dir, "api.key"), Project: "api"}, "", 0},
		{"by name, any case, default URL", two, settings.Values{EnvProject: "Docs"}, API{APIURL: "https://default.example", APIKey: "mint_docs_key_from_env", ProjectID: "p_docs", KeyFrom: "environment variable KEY_DOCS", Project: "docs"}, "", 0},
		{"by id", two, settings.Values{EnvProject: "p_docs"}, API{APIURL: "https://default.example", APIKey: "mint_docs_key_from_env", ProjectID: "p_docs", KeyFrom: "environment variable KEY_DOCS", Project: "docs"}, "", 0},
		{"the only one", one, nil, API{APIURL: "https://default.example", APIKey: "mint_docs_key_from_env", ProjectID: "p_docs", KeyFrom: "environment variable KEY_DOCS", Project: "docs"}, "", 0},
		{"several, none named", two, nil, API{}, "DOCSBOT_PROJECTS_FILE lists several projects: pick one with --project NAME\nits projects: docs, api", cli.ExitUsage},
		{"unknown", two, settings.Values{EnvProject: "blog"}, API{}, `--project "blog" is not a project of DOCSBOT_PROJECTS_FILE`, cli.ExitUsage},
		{"a key flag", two, settings.Values{EnvProject: "api", EnvAPIKey: "mint_flag"}, API{}, "--api-key is not used with DOCSBOT_PROJECTS_FILE", cli.ExitUsage},
		{"relative to the directory", "one.yaml", nil, API{APIURL: "https://default.example", APIKey: "mint_docs_key_from_env", ProjectID: "p_docs", KeyFrom: "environment variable KEY_DOCS", Project: "docs"}, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := Env{Dir: dir, Stderr: io.Discard, LookupEnv: func(k string) (string, bool) {
				if k == EnvProjectsFile {
					return tt.file, true
				}
				v, ok := env[k]
				return v, ok
			}}
			got, err := e.API(tt.flags)
			if tt.wantErr != "" {
				ce, ok := errors.AsType[*cli.Error](err)
				if !ok || ce.Code != tt.wantErrCode || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want exit %d and %q", err, tt.wantErrCode, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("API = %+v, %v\nwant  %+v", got, err, tt.want)
			}
		})
	}
}

// TestInputNamesTheProjectsFields checks the words an API error uses for a
// project of the projects file.
func TestInputNamesTheProjectsFields(t *testing.T) {
	t.Parallel()
	env := API{Project: "docs", KeyFrom: "environment variable KEY_DOCS"}
	file := API{Project: "docs", KeyFrom: "file /run/secrets/k"}
	for _, c := range []struct {
		api         API
		field, want string
	}{
		{API{}, "apikey", EnvAPIKey},
		{API{}, "projectid", EnvProject},
		{env, "apikey", "KEY_DOCS"},
		{file, "apikey", "api_key_file of project docs"},
		{env, "projectid", "project_id of project docs in DOCSBOT_PROJECTS_FILE"},
		{env, "baseurl", "api_url of project docs in DOCSBOT_PROJECTS_FILE"},
		{env, "prompt", "--prompt"},
	} {
		if got := c.api.Input(c.field); got != c.want {
			t.Errorf("%+v: Input(%q) = %q, want %q", c.api, c.field, got, c.want)
		}
	}
}

// TestAssistantInputNamesTheSettings checks the words an assistant's error
// uses: today's settings, or the fields of a project of the projects file.
func TestAssistantInputNamesTheSettings(t *testing.T) {
	t.Parallel()
	implicit := project.Project{Name: project.ImplicitName, Implicit: true}
	env := project.Project{Name: "docs", Assistant: project.Assistant{KeyFrom: "environment variable ASSISTANT_DOCS"}}
	file := project.Project{Name: "docs", Assistant: project.Assistant{KeyFrom: "file /run/secrets/assistant"}}
	for _, c := range []struct {
		p           project.Project
		field, want string
	}{
		{implicit, "key", EnvAssistantKey},
		{implicit, "domain", EnvDomain},
		{implicit, "discoveryurl", EnvDiscoveryURL},
		{implicit, "query", "query"},
		{env, "key", "ASSISTANT_DOCS"},
		{file, "key", "assistant_key_file of project docs in DOCSBOT_PROJECTS_FILE"},
		{env, "domain", "domain of project docs in DOCSBOT_PROJECTS_FILE"},
		{env, "discoveryurl", "discovery_url of project docs in DOCSBOT_PROJECTS_FILE (by default DOCS_DISCOVERY_URL)"},
	} {
		if got := AssistantInput(c.p)(c.field); got != c.want {
			t.Errorf("project %s (%s): AssistantInput(%q) = %q, want %q", c.p.Name, c.p.Assistant.KeyFrom, c.field, got, c.want)
		}
	}
}
