package project_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot/project"
)

// The keys of the tests' environment. No error or printout may hold them.
const (
	keyDocs = "mint_docs0123456789abcdefSECRET"
	keyAPI  = "mint_api0123456789abcdefSECRET"
	keyFile = "mint_file0123456789abcdefSECRET"
)

func env(name string) (string, bool) {
	v, ok := map[string]string{
		"DOCS_API_KEY_DOCS":    keyDocs,
		"DOCS_API_KEY_API":     keyAPI,
		"DOCS_API_KEY_PARTNER": "mint_partner0123456789SECRET",
		"EMPTY_KEY":            "  ",
		"TWO_WORDS":            "mint_a mint_b",
	}[name]
	return v, ok
}

// writeFile writes a projects file (and a key file beside it) to a new
// directory and returns its path.
func writeFile(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{
		"docs.key":  keyFile + "\n",
		"empty.key": "\n",
		"two.key":   "mint_a\nmint_b\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "projects.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func load(t *testing.T, text string) (*project.Set, string, error) {
	t.Helper()
	path := writeFile(t, text)
	set, err := project.Load(path, project.Options{DefaultAPIURL: "https://api.example.test", LookupEnv: env})
	return set, path, err
}

const twoProjects = `
projects:
  - name: docs
    project_id: p-docs
    api_key_env: DOCS_API_KEY_DOCS
    channels: [C0DOCS, G0PRIVATE]
    editors: [S0WRITERS, U0ALICE]
    visitors_budget: acme
  - name: api
    project_id: p-api
    api_key_file: docs.key
    api_url: https://api.other.test/
    channels:
      - C0API
`

func TestLoad(t *testing.T) {
	set, path, err := load(t, twoProjects)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if set.Implicit() || set.Len() != 2 || fmt.Sprint(set.Names()) != "[docs api]" {
		t.Fatalf("set: implicit %t, names %v", set.Implicit(), set.Names())
	}
	docs, _ := set.Get("DOCS")
	want := "docs p-docs https://api.example.test [C0DOCS G0PRIVATE] [U0ALICE] [S0WRITERS] acme environment variable DOCS_API_KEY_DOCS"
	got := fmt.Sprint(docs.Name, " ", docs.ID, " ", docs.APIURL, " ", docs.Channels, " ", docs.Editors.Users, " ", docs.Editors.Groups, " ", docs.VisitorsBudget, " ", docs.KeyFrom)
	if got != want {
		t.Errorf("docs:\n got %s\nwant %s", got, want)
	}
	if docs.APIKey.Reveal() != keyDocs {
		t.Errorf("docs key not read from its variable")
	}
	api, _ := set.ForChannel("C0API")
	if api.Name != "api" || api.APIKey.Reveal() != keyFile || api.APIURL != "https://api.other.test/" ||
		api.VisitorsBudget != "api" || api.KeyFrom != "file "+filepath.Join(filepath.Dir(path), "docs.key") {
		t.Errorf("api: %+v (from %s)", api, api.KeyFrom)
	}
	if _, ok := set.ForChannel("C0OTHER"); ok {
		t.Error("a channel of no project has a default")
	}
	if _, ok := set.Get("blog"); ok {
		t.Error("Get found a project that is not in the file")
	}
	// What callers get is theirs to change.
	all := set.All()
	all[0].Channels[0] = "C0CHANGED"
	if again, _ := set.Get("docs"); again.Channels[0] != "C0DOCS" {
		t.Error("changing All's result changed the set")
	}
}

func TestLoadRefuses(t *testing.T) {
	head := "projects:\n  - name: docs\n    project_id: p-docs\n"
	keyed := head + "    api_key_env: DOCS_API_KEY_DOCS\n"
	tests := []struct {
		name  string
		text  string
		line  int
		field string
		msg   string
	}{
		{"empty file", "", 0, "", "empty"},
		{"only comments", "# nothing yet\n", 0, "", "empty"},
		{"not YAML", "projects: [\n", 0, "", "not valid YAML"},
		{"two documents", keyed + "---\nprojects: []\n", 5, "", "more than one"},
		{"top level not a mapping", "- docs\n", 1, "", "projects:"},
		{"unknown top-level field", keyed + "version: 2\n", 5, "version", "unknown field"},
		{"projects not a list", "projects: docs\n", 1, "projects", "list"},
		{"no projects", "projects: []\n", 1, "projects", "at least one"},
		{"project not a mapping", "projects:\n  - docs\n", 2, "", "want a project"},
		{"unknown field", keyed + "    chanels: [C0DOCS]\n", 5, "chanels", "unknown field"},
		{"the key in the file", head + "    api_key: " + keyDocs + "\n", 4, "api_key", "never goes in this file"},
		{"field twice", keyed + "    name: again\n", 5, "name", "given twice"},
		{"no name", "projects:\n  - project_id: p\n    api_key_env: DOCS_API_KEY_DOCS\n", 2, "name", "missing"},
		{"name with a colon", "projects:\n  - name: docs:v2\n    project_id: p\n    api_key_env: DOCS_API_KEY_DOCS\n", 2, "name", `"docs:v2"`},
		{"name in capitals", "projects:\n  - name: Docs\n    project_id: p\n    api_key_env: DOCS_API_KEY_DOCS\n", 2, "name", "lower-case"},
		{"name too long", "projects:\n  - name: " + strings.Repeat("a", 33) + "\n    project_id: p\n    api_key_env: DOCS_API_KEY_DOCS\n", 2, "name", "32"},
		{"name a list", "projects:\n  - name: [a, b]\n", 2, "name", "single value"},
		{"no project id", "projects:\n  - name: docs\n    api_key_env: DOCS_API_KEY_DOCS\n", 2, "project_id", "missing"},
		{"project id with a slash", "projects:\n  - name: docs\n    project_id: a/b\n    api_key_env: DOCS_API_KEY_DOCS\n", 3, "project_id", `"a/b"`},
		{"no key", head, 2, "api_key_env", "api_key_env or api_key_file"},
		{"two keys", keyed + "    api_key_file: docs.key\n", 5, "api_key_file", "both"},
		{"the key in api_key_env", head + "    api_key_env: " + keyDocs + "\n", 4, "api_key_env", "looks like a key"},
		{"not a variable name", head + "    api_key_env: DOCS API KEY\n", 4, "api_key_env", "name of an environment variable"},
		{"variable not set", head + "    api_key_env: NOT_SET\n", 4, "api_key_env", "NOT_SET of project \"docs\" is not set"},
		{"variable blank", head + "    api_key_env: EMPTY_KEY\n", 4, "api_key_env", "is not set"},
		{"variable of two words", head + "    api_key_env: TWO_WORDS\n", 4, "api_key_env", "more than one word"},
		{"key file missing", head + "    api_key_file: missing.key\n", 4, "api_key_file", "no such file"},
		{"key file empty", head + "    api_key_file: empty.key\n", 4, "api_key_file", "is empty"},
		{"key file of two lines", head + "    api_key_file: two.key\n", 4, "api_key_file", "more than one word"},
		{"channels not a list", keyed + "    channels: C0DOCS\n", 5, "channels", "want a list"},
		{"channel by name", keyed + "    channels: [\"#general\"]\n", 5, "channels", "not its name"},
		{"channel twice", keyed + "    channels: [C0DOCS, C0DOCS]\n", 5, "channels", "listed twice"},
		{"editor by name", keyed + "    editors: [U0ALICE, alice]\n", 5, "editors", `"alice"`},
		{"editors a mapping", keyed + "    editors: {a: b}\n", 5, "editors", "want a list"},
		{"api url not http", keyed + "    api_url: ftp://api.test\n", 5, "api_url", "http(s) URL"},
		{"api url with a password", keyed + "    api_url: https://me:hunter2@api.test\n", 5, "api_url", "password"},
		{"budget with a space", keyed + "    visitors_budget: acme corp\n", 5, "visitors_budget", `"acme corp"`},
		{"names repeat", keyed + "  - name: docs\n    project_id: p2\n    api_key_env: DOCS_API_KEY_API\n", 5, "name", "line 2"},
		{"ids repeat", keyed + "  - name: api\n    project_id: p-docs\n    api_key_env: DOCS_API_KEY_API\n", 6, "project_id", `project id of "docs" (line 3)`},
		{"channel of two projects", keyed + "    channels: [C0DOCS]\n  - name: api\n    project_id: p-api\n    api_key_env: DOCS_API_KEY_API\n    channels:\n      - C0API\n      - C0DOCS\n",
			11, "channels", `default channel of project "docs" (line 5)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, path, err := load(t, tt.text)
			fe, ok := errors.AsType[*project.FileError](err)
			if !ok {
				t.Fatalf("err = %v, want a *FileError", err)
			}
			if fe.Path != path || fe.Line != tt.line || fe.Field != tt.field {
				t.Errorf("at %s line %d field %q, want %s line %d field %q (%v)", fe.Path, fe.Line, fe.Field, path, tt.line, tt.field, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.msg) || !strings.HasPrefix(msg, "projects file "+path) {
				t.Errorf("err = %q, want it to name the file and say %q", msg, tt.msg)
			}
			for _, secret := range []string{keyDocs, keyAPI, keyFile, "hunter2"} {
				if strings.Contains(msg, secret) {
					t.Errorf("err = %q holds a secret", msg)
				}
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.yaml")
	_, err := project.Load(path, project.Options{LookupEnv: env})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v, want one naming %s that is fs.ErrNotExist", err, path)
	}
}

func TestKeysNeverShow(t *testing.T) {
	set, _, err := load(t, twoProjects)
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	for _, p := range set.All() {
		js, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		log.Info("project", "project", p, "key", p.APIKey)
		out := fmt.Sprintf("%v %+v %#v %s %s", p, p, p, p.APIKey, js) + logs.String()
		for _, secret := range []string{keyDocs, keyFile} {
			if strings.Contains(out, secret) {
				t.Fatalf("the key shows in %s", out)
			}
		}
		if !strings.Contains(out, "[redacted]") || p.APIKey.IsZero() {
			t.Fatalf("no [redacted] in %s", out)
		}
	}
}

func TestExampleFileLoads(t *testing.T) {
	path := filepath.Join("..", "..", "deploy", "projects.example.yaml")
	set, err := project.Load(path, project.Options{DefaultAPIURL: "https://api.mintlify.com", LookupEnv: env})
	if err != nil {
		t.Fatalf("the example file: %v", err)
	}
	if fmt.Sprint(set.Names()) != "[docs api partner-portal]" {
		t.Fatalf("names %v", set.Names())
	}
	docs, _ := set.Get("docs")
	api, _ := set.Get("api")
	partner, _ := set.Get("partner-portal")
	if docs.VisitorsBudget != "acme" || api.VisitorsBudget != "acme" || partner.VisitorsBudget != "partner-portal" {
		t.Errorf("budgets %s %s %s, want acme acme partner-portal", docs.VisitorsBudget, api.VisitorsBudget, partner.VisitorsBudget)
	}
}

func TestSingle(t *testing.T) {
	set := project.Single("p-legacy", keyDocs, "https://api.example.test")
	if !set.Implicit() || set.Len() != 1 {
		t.Fatalf("implicit %t, len %d", set.Implicit(), set.Len())
	}
	p, ok := set.Get(project.ImplicitName)
	if !ok || p.ID != "p-legacy" || p.APIKey.Reveal() != keyDocs || p.APIURL != "https://api.example.test" || !p.Implicit {
		t.Fatalf("project %+v", p)
	}
}
