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
	// The assistant keys (mint_dsc_…), from a variable and from a file.
	keyAssistant     = "mint_dsc_docs0123456789abcdefSECRET"
	keyAssistantFile = "mint_dsc_file0123456789abcdefSECRET"
)

func env(name string) (string, bool) {
	v, ok := map[string]string{
		"DOCS_API_KEY_DOCS":          keyDocs,
		"DOCS_API_KEY_API":           keyAPI,
		"DOCS_API_KEY_PARTNER":       "mint_partner0123456789SECRET",
		"DOCS_ASSISTANT_KEY_DOCS":    keyAssistant,
		"DOCS_ASSISTANT_KEY_PARTNER": "mint_dsc_partner0123456789SECRET",
		"EMPTY_KEY":                  "  ",
		"TWO_WORDS":                  "mint_a mint_b",
	}[name]
	return v, ok
}

// writeFile writes a projects file (and a key file beside it) to a new
// directory and returns its path.
func writeFile(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{
		"docs.key":      keyFile + "\n",
		"assistant.key": keyAssistantFile + "\n",
		"empty.key":     "\n",
		"two.key":       "mint_a\nmint_b\n",
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
	set, err := project.Load(path, project.Options{DefaultAPIURL: "https://api.example.test", DefaultDiscoveryURL: "https://api.example.test/discovery", LookupEnv: env})
	return set, path, err
}

const twoProjects = `
projects:
  - name: docs
    project_id: p-docs
    api_key_env: DOCS_API_KEY_DOCS
    channels: [C0DOCS, G0PRIVATE]
    editors: [S0WRITERS, U0ALICE]
    experts: [S0SUPPORT, U0CAROL]
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
	if fmt.Sprint(docs.Experts.Users, docs.Experts.Groups) != "[U0CAROL] [S0SUPPORT]" {
		t.Errorf("docs experts: %+v", docs.Experts)
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

// TestLoadAssistant reads the assistants of the projects: the key from a
// variable or a file, the domain, the site, and the discovery URL of the
// project or, by default, of the options; a project without them has none.
func TestLoadAssistant(t *testing.T) {
	set, path, err := load(t, `
projects:
  - name: docs
    project_id: p-docs
    api_key_env: DOCS_API_KEY_DOCS
    assistant_key_env: DOCS_ASSISTANT_KEY_DOCS
    domain: acme
    site_url: https://docs.acme.test
  - name: api
    project_id: p-api
    api_key_env: DOCS_API_KEY_API
    assistant_key_file: assistant.key
    domain: acme-api
    discovery_url: https://discovery.other.test/discovery
  - name: blog
    project_id: p-blog
    api_key_env: DOCS_API_KEY_API
    site_url: https://blog.acme.test
`)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	tests := []struct {
		name                                  string
		set                                   bool
		key, keyFrom, domain, discovery, site string
	}{
		{"docs", true, keyAssistant, "environment variable DOCS_ASSISTANT_KEY_DOCS", "acme", "https://api.example.test/discovery", "https://docs.acme.test"},
		{"api", true, keyAssistantFile, "file " + filepath.Join(filepath.Dir(path), "assistant.key"), "acme-api", "https://discovery.other.test/discovery", ""},
		// The site alone makes no assistant, and takes no discovery URL.
		{"blog", false, "", "", "", "", "https://blog.acme.test"},
	}
	for _, tt := range tests {
		p, _ := set.Get(tt.name)
		a := p.Assistant
		if a.Set() != tt.set || a.Key.Reveal() != tt.key || a.KeyFrom != tt.keyFrom || a.Domain != tt.domain || a.DiscoveryURL != tt.discovery || a.SiteURL != tt.site {
			t.Errorf("project %s: assistant set %t, key %t, from %q, domain %q, discovery %q, site %q; want %t, %t, %q, %q, %q, %q", tt.name,
				a.Set(), a.Key.Reveal() == tt.key, a.KeyFrom, a.Domain, a.DiscoveryURL, a.SiteURL, tt.set, true, tt.keyFrom, tt.domain, tt.discovery, tt.site)
		}
	}
	// The API keys are read as ever, beside the assistants'.
	if docs, _ := set.Get("docs"); docs.APIKey.Reveal() != keyDocs {
		t.Error("docs: the API key is not DOCS_API_KEY_DOCS's")
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
		{"team by name", keyed + "    teams: [acme]\n", 5, "teams", "want a workspace id (T…)"},
		{"team twice", keyed + "    teams: [T0ACME, T0ACME]\n", 5, "teams", "listed twice"},
		{"teams not a list", keyed + "    teams: T0ACME\n", 5, "teams", "want a list, such as [T0123ABCD, E0456EFGH]"},
		{"editor by name", keyed + "    editors: [U0ALICE, alice]\n", 5, "editors", `"alice"`},
		{"editors a mapping", keyed + "    editors: {a: b}\n", 5, "editors", "want a list"},
		{"expert by name", keyed + "    experts: [carol]\n", 5, "experts", `"carol"`},
		{"api url not http", keyed + "    api_url: ftp://api.test\n", 5, "api_url", "http(s) URL"},
		{"api url with a password", keyed + "    api_url: https://me:hunter2@api.test\n", 5, "api_url", "password"},
		{"budget with a space", keyed + "    visitors_budget: acme corp\n", 5, "visitors_budget", `"acme corp"`},
		{"assistant key without domain", keyed + "    assistant_key_env: DOCS_ASSISTANT_KEY_DOCS\n", 2, "domain", `project "docs" has an assistant key (assistant_key_env) but no domain`},
		{"assistant key file without domain", keyed + "    assistant_key_file: assistant.key\n", 2, "domain", "(assistant_key_file) but no domain"},
		{"domain null beside a key", keyed + "    assistant_key_env: DOCS_ASSISTANT_KEY_DOCS\n    domain:\n", 2, "domain", "but no domain"},
		{"domain without assistant key", keyed + "    domain: acme\n", 5, "assistant_key_env", `project "docs" has a domain but no assistant key`},
		{"two assistant keys", keyed + "    assistant_key_env: DOCS_ASSISTANT_KEY_DOCS\n    assistant_key_file: assistant.key\n    domain: acme\n", 6, "assistant_key_file", "both assistant_key_env and assistant_key_file"},
		{"the assistant key in the file", keyed + "    assistant_key: " + keyAssistant + "\n", 5, "assistant_key", "never goes in this file"},
		{"the assistant key in assistant_key_env", keyed + "    assistant_key_env: " + keyAssistant + "\n    domain: acme\n", 5, "assistant_key_env", "looks like a key"},
		{"assistant variable not a name", keyed + "    assistant_key_env: my key\n    domain: acme\n", 5, "assistant_key_env", "such as DOCS_ASSISTANT_KEY_DOCS"},
		{"assistant variable not set", keyed + "    assistant_key_env: NOT_SET\n    domain: acme\n", 5, "assistant_key_env", "NOT_SET of project \"docs\" is not set"},
		{"assistant variable of two words", keyed + "    assistant_key_env: TWO_WORDS\n    domain: acme\n", 5, "assistant_key_env", "want the assistant key alone"},
		{"assistant key file missing", keyed + "    assistant_key_file: missing.key\n    domain: acme\n", 5, "assistant_key_file", "no such file"},
		{"assistant key file empty", keyed + "    assistant_key_file: empty.key\n    domain: acme\n", 5, "assistant_key_file", "is empty"},
		{"an admin key as assistant key", keyed + "    assistant_key_env: DOCS_API_KEY_API\n    domain: acme\n", 5, "assistant_key_env", "environment variable DOCS_API_KEY_API holds another kind of docs key"},
		{"an admin key file as assistant key", keyed + "    assistant_key_file: docs.key\n    domain: acme\n", 5, "assistant_key_file", "not an assistant key: create an assistant key (mint_dsc_…)"},
		{"domain a URL", keyed + "    assistant_key_env: DOCS_ASSISTANT_KEY_DOCS\n    domain: https://acme.mintlify.app\n", 6, "domain", "app.mintlify.com/ORG/DOMAIN"},
		{"a key as domain", keyed + "    assistant_key_env: DOCS_ASSISTANT_KEY_DOCS\n    domain: " + keyAssistant + "\n", 6, "domain", "this value: want the docs site's domain"},
		{"a key as site url", keyed + "    site_url: " + keyAPI + "\n", 5, "site_url", "this value: want an http(s) URL"},
		{"domain a list", keyed + "    domain: [acme]\n", 5, "domain", "single value"},
		{"site url not absolute", keyed + "    site_url: docs.acme.com\n", 5, "site_url", `"docs.acme.com": want an http(s) URL`},
		{"site url with a password", keyed + "    site_url: https://me:hunter2@docs.acme.com\n", 5, "site_url", "password"},
		{"discovery url not http", keyed + "    discovery_url: ftp://api.test/discovery\n", 5, "discovery_url", "http(s) URL such as https://api.mintlify.com/discovery"},
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
			for _, secret := range []string{keyDocs, keyAPI, keyFile, keyAssistant, keyAssistantFile, "hunter2"} {
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
	set, _, err := load(t, twoProjects+"    assistant_key_file: assistant.key\n    domain: acme\n")
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
		log.Info("project", "project", p, "key", p.APIKey, "assistant", p.Assistant)
		out := fmt.Sprintf("%v %+v %#v %s %s %+v", p, p, p, p.APIKey, js, p.Assistant) + logs.String()
		for _, secret := range []string{keyDocs, keyFile, keyAssistantFile} {
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
	if !docs.Assistant.Set() || docs.Assistant.SiteURL == "" || api.Assistant.Set() || !partner.Assistant.Set() || partner.Assistant.DiscoveryURL == "" {
		t.Errorf("assistants: docs %t (site %q), api %t, partner-portal %t (discovery %q); want docs and partner-portal's, with a site and a discovery URL",
			docs.Assistant.Set(), docs.Assistant.SiteURL, api.Assistant.Set(), partner.Assistant.Set(), partner.Assistant.DiscoveryURL)
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
