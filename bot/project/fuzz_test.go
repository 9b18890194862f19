package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzCutToken: the project= word of a command is found only first or
// last, comes back in lower case and non-empty, and the rest is the text
// without it; the text is never lost otherwise.
func FuzzCutToken(f *testing.F) {
	for _, s := range []string{"", "project=api fix the intro", "fix the intro project=API", "project= fix", "project=a project=b",
		"fix project=api the intro", "PROJECT=Docs", "  project=api  ", "project=api"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		name, rest, found, err := CutToken(text)
		var tokenErr *TokenError
		var emptyErr *EmptyNameError
		switch {
		case err != nil && !errors.As(err, &tokenErr) && !errors.As(err, &emptyErr):
			t.Fatalf("CutToken(%q): error of an unknown kind %T: %v", text, err, err)
		case err != nil:
			return
		case !found:
			if name != "" || rest != text {
				t.Fatalf("CutToken(%q) found nothing but returned %q, %q", text, name, rest)
			}
		case name == "" || name != strings.ToLower(name):
			t.Fatalf("CutToken(%q) name %q: want a non-empty lower-case name", text, name)
		case len(rest) >= len(text):
			t.Fatalf("CutToken(%q) rest %q is not shorter than the text", text, rest)
		}
	})
}

// FuzzLoad: whatever the projects file holds, Load returns projects or a
// *FileError, and the error never shows the API key read from the
// environment.
func FuzzLoad(f *testing.F) {
	const key = "mint_fuzz_secret_key_1234567890"
	for _, s := range []string{
		"projects:\n  - name: docs\n    project_id: p1\n    api_key_env: KEY\n",
		"projects:\n  - name: docs\n    project_id: p1\n    api_key_env: KEY\n    channels: [C0DOCS]\n    editors: [U0ALICE, S0GROUP]\n",
		"projects:\n  - name: docs\n    project_id: p1\n    api_key_env: KEY\n    assistant_key_env: KEY\n    domain: acme\n    site_url: https://docs.acme.test\n    discovery_url: http://127.0.0.1:1/discovery\n",
		"projects:\n  - {name: docs, project_id: p1, api_key_env: KEY, domain: acme}\n", "projects:\n  - {name: docs, project_id: p1, api_key_env: KEY, assistant_key_file: " + key + "}\n",
		"projects: []\n", "", "projects:\n  - name: " + key + "\n", "{", "projects:\n  - {name: a, project_id: b, api_key_env: MISSING}\n",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data string) {
		path := filepath.Join(dir, "projects.yaml")
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path, Options{DefaultAPIURL: "http://127.0.0.1:1", LookupEnv: func(name string) (string, bool) {
			if name == "KEY" {
				return key, true
			}
			return "", false
		}})
		if err == nil {
			return
		}
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Fatalf("Load: error %T, want *FileError: %v", err, err)
		}
		if strings.Contains(err.Error(), key) && !strings.Contains(data, key) {
			t.Fatalf("Load's error shows the API key: %v", err)
		}
	})
}
