package bot_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// twoProjects loads a projects file of two projects: docs, the default of
// C0DOCS with editor U0DOCSED, and api with no editors of its own.
func twoProjects(t *testing.T, apiEditors string) *project.Set {
	t.Helper()
	path := filepath.Join(t.TempDir(), "projects.yaml")
	yaml := `projects:
  - name: docs
    project_id: p-docs
    api_key_env: KEY_DOCS
    channels: [C0DOCS]
    editors: [U0DOCSED]
  - name: api
    project_id: p-api
    api_key_env: KEY_API
    channels: [C0API]
` + apiEditors
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"KEY_DOCS": "mint_docs_key_1234", "KEY_API": "mint_api_key_5678"}
	set, err := project.Load(path, project.Options{DefaultAPIURL: "http://127.0.0.1:1", LookupEnv: func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// projectBot builds a bot (not run) over the package's redis-server.
func projectBot(t *testing.T, cfg bot.Config) *bot.Bot {
	t.Helper()
	st, err := store.Open(context.Background(), redisURL, store.WithPrefix(redistest.Prefix(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return bot.New(cfg, slack.New("xoxb-not-used", slack.OptionAPIURL("http://127.0.0.1:1/api/")), bot.WorkStore{Inbox: st.Inbox(), LastChoices: st.Choices()})
}

func TestResolveProjectRemembersTheChoice(t *testing.T) {
	ctx := context.Background()
	b := projectBot(t, bot.Config{Projects: twoProjects(t, "")})
	ask := project.Request{Team: "T1", Channel: "C0ELSE", User: alice, Text: "Document the new endpoint"}

	res, err := b.Projects().Resolve(ctx, ask)
	if err != nil || !res.Ask || len(res.Choices) != 2 {
		t.Fatalf("no default, no choice yet: %+v, %v; want Ask with 2 choices", res, err)
	}
	res, err = b.Projects().Resolve(ctx, project.Request{Team: "T1", Channel: "C0DOCS", User: alice, Text: "project=api Fix the typo"})
	if err != nil || res.Project.Name != "api" || res.Source != project.ByToken || res.Text != "Fix the typo" {
		t.Fatalf("project=api in the docs channel: %+v, %v", res, err)
	}
	if err := b.Projects().Remember(ctx, "T1", alice, res.Project.Name); err != nil {
		t.Fatal(err)
	}
	res, err = b.Projects().Resolve(ctx, ask)
	if err != nil || res.Project.Name != "api" || res.Source != project.ByLastChoice {
		t.Fatalf("after choosing api: %+v, %v; want api by last choice", res, err)
	}
	if key := bot.ProjectKey(res.Project); key != "api" {
		t.Errorf("ProjectKey = %q, want api", key)
	}
}

func TestImplicitProjectKeepsTodaysKeys(t *testing.T) {
	b := projectBot(t, bot.Config{})
	res, err := b.Projects().Resolve(context.Background(), project.Request{Team: "T1", Channel: "C1", User: alice, Text: "project=api x"})
	if err != nil || !res.Project.Implicit || res.Text != "project=api x" {
		t.Fatalf("implicit set: %+v, %v; want the implicit project and the text untouched", res, err)
	}
	if key := bot.ProjectKey(res.Project); key != "" {
		t.Errorf("ProjectKey of the implicit project = %q, want empty", key)
	}
}

func TestEditorRefusalPerProject(t *testing.T) {
	ctx := context.Background()
	const docsEditor, apiEditor, viewer = "U0DOCSED", "U0APIED", "U0VIEWER"
	global, err := roles.ParseEditors([]string{"U0GLOBAL"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		apiEditors string
		global     roles.Editors
		user, proj string
		editor     bool
		// gone: proj is no longer served, and the refusal says so.
		gone bool
	}{
		{"editor of docs in docs", "", roles.Editors{}, docsEditor, "docs", true, false},
		{"viewer in docs", "", roles.Editors{}, viewer, "docs", false, false},
		{"anyone in api, which names no editors", "", roles.Editors{}, viewer, "api", true, false},
		{"anyone before the project is known, as api names none", "", roles.Editors{}, viewer, "", true, false},
		{"editor of docs in api with its own editors", "    editors: [U0APIED]\n", roles.Editors{}, docsEditor, "api", false, false},
		{"editor of api in api", "    editors: [U0APIED]\n", roles.Editors{}, apiEditor, "api", true, false},
		{"editor of some project before the project is known", "    editors: [U0APIED]\n", roles.Editors{}, apiEditor, "", true, false},
		{"viewer of every project before the project is known", "    editors: [U0APIED]\n", roles.Editors{}, viewer, "", false, false},
		{"DOCSBOT_EDITORS make api's viewers viewers", "", global, viewer, "api", false, false},
		{"DOCSBOT_EDITORS are editors of every project", "    editors: [U0APIED]\n", global, "U0GLOBAL", "docs", true, false},
		{"anyone in a project no longer served, with no DOCSBOT_EDITORS", "", roles.Editors{}, viewer, "removed", false, true},
		{"DOCSBOT_EDITORS in a project no longer served", "", global, "U0GLOBAL", "removed", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Guests and other organisations let in: this bot has no Slack to
			// ask users.info (the gate's rows are TestGate's and the agent's).
			b := projectBot(t, bot.Config{Projects: twoProjects(t, tt.apiEditors), Editors: tt.global, AllowGuests: true, AllowExternal: true})
			refusal := b.Editors().Refusal(ctx, tt.user, "C0DOCS", tt.proj)
			if (refusal == "") != tt.editor {
				t.Errorf("refusal = %q, want editor %v", refusal, tt.editor)
			}
			switch {
			case tt.gone && !strings.Contains(refusal, "no longer serves the docs project `removed`"):
				t.Errorf("refusal %q does not say the project is no longer served", refusal)
			case !tt.editor && !tt.gone && !strings.Contains(refusal, "<@"):
				t.Errorf("refusal %q does not say who can help", refusal)
			}
		})
	}
}

// TestProject: a key is a project's name, "" the implicit project and
// nothing else, and a project is reached with its own docs API client; a
// key docsbot does not serve, or cannot reach, finds nothing.
func TestProject(t *testing.T) {
	two := twoProjects(t, "")
	implicit := project.Single("p-one", "mint_one_key", "http://127.0.0.1:1")
	tests := []struct {
		name    string
		set     *project.Set
		key     string
		clients bool
		wantID  string // "": not found
	}{
		{"a project by its name", two, "api", true, "p-api"},
		{"the other", two, "docs", true, "p-docs"},
		{"the empty key in a projects file", two, "", true, ""},
		{"a project no longer in the file", two, "gone", true, ""},
		{"a project without a client", two, "api", false, ""},
		{"the implicit project by the empty key", implicit, "", true, "p-one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := bot.Config{Projects: tt.set}
			if tt.clients {
				clients, err := project.Clients(tt.set)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Clients = bot.Clients{API: clients}
			}
			p, ok := projectBot(t, cfg).Project(tt.key)
			switch {
			case tt.wantID == "" && ok:
				t.Errorf("Project(%q) = %s, want none", tt.key, p.Name)
			case tt.wantID != "" && (!ok || p.ID != tt.wantID || p.API == nil || p.API.ProjectID() != tt.wantID || p.Key != tt.key):
				t.Errorf("Project(%q) = %+v, %v; want %s with its client", tt.key, p, ok, tt.wantID)
			}
		})
	}
}

// TestOpenToEveryone names the projects where nobody is named an editor,
// which serve and doctor warn of.
func TestOpenToEveryone(t *testing.T) {
	t.Parallel()
	named, err := roles.ParseEditors([]string{"U0ALICE"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		cfg     bot.Config
		want    []string
		warning string
	}{
		{"one project, nobody named", bot.Config{Projects: project.Single("p1", "mint_k", "")}, []string{project.ImplicitName}, "name them with DOCSBOT_EDITORS"},
		{"one project, DOCSBOT_EDITORS", bot.Config{Projects: project.Single("p1", "mint_k", ""), Editors: named}, nil, ""},
		{"api without editors", bot.Config{Projects: twoProjects(t, "")}, []string{"api"}, "docs project(s) api"},
		{"every project names its own", bot.Config{Projects: twoProjects(t, "\n    editors: [U0APIED]")}, nil, ""},
	}
	for _, tt := range tests {
		got := bot.OpenToEveryone(tt.cfg)
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("%s: OpenToEveryone = %q, want %q", tt.name, got, tt.want)
		}
		if w := bot.OpenWarning(got); (tt.warning == "") != (w == "") || !strings.Contains(w, tt.warning) {
			t.Errorf("%s: OpenWarning = %q, want it to say %q", tt.name, w, tt.warning)
		}
	}
}
