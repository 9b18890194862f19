package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsbot/docsbot/cmd/internal/checkup"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
)

// testRunner returns a runner with env as its whole environment, a temporary
// working directory holding dotenv as .env (none when dotenv is ""), and
// buffers for its output.
func testRunner(t *testing.T, env map[string]string, dotenv string) (r *runner, stdout, stderr *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	if dotenv != "" {
		if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(dotenv), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	r = &runner{
		stdin:     strings.NewReader(""),
		stdout:    stdout,
		stderr:    stderr,
		lookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		dir:       dir,
		now:       time.Now,
	}
	return r, stdout, stderr
}

func TestLoadConfigPrecedence(t *testing.T) {
	t.Parallel()
	const fullDotenv = "DOCS_API_URL=https://dotenv.example\nDOCS_API_KEY=mint_from_dotenv_0000000000\nDOCS_PROJECT_ID=proj_dotenv\n"
	fullEnv := map[string]string{
		"DOCS_API_URL":    "https://env.example/",
		"DOCS_API_KEY":    "mint_from_env_00000000000000",
		"DOCS_PROJECT_ID": "proj_env",
	}
	tests := []struct {
		name    string
		flags   flagValues
		env     map[string]string
		dotenv  string
		want    config.API
		wantErr string
	}{
		{
			name:   "flags win over environment and .env",
			flags:  flagValues{envAPIURL: "https://flag.example", envAPIKey: "mint_from_flag_0000000000000", envProject: "proj_flag"},
			env:    fullEnv,
			dotenv: fullDotenv,
			want:   config.API{APIURL: "https://flag.example", APIKey: "mint_from_flag_0000000000000", ProjectID: "proj_flag", KeyFrom: "flag --api-key"},
		},
		{
			name:   "environment wins over .env",
			env:    fullEnv,
			dotenv: fullDotenv,
			want:   config.API{APIURL: "https://env.example", APIKey: "mint_from_env_00000000000000", ProjectID: "proj_env", KeyFrom: "environment variable DOCS_API_KEY"},
		},
		{
			name:   ".env fills what the environment leaves unset",
			env:    map[string]string{"DOCS_PROJECT_ID": "proj_env", "DOCS_API_KEY": "  "},
			dotenv: fullDotenv,
			want:   config.API{APIURL: "https://dotenv.example", APIKey: "mint_from_dotenv_0000000000", ProjectID: "proj_env", KeyFrom: "DOCS_API_KEY in .env"},
		},
		{
			name:   "one flag, the rest from the environment, default URL",
			flags:  flagValues{envProject: "proj_flag"},
			env:    map[string]string{"DOCS_API_KEY": "mint_from_env_00000000000000", "DOCS_PROJECT_ID": "proj_env"},
			dotenv: "# only a comment\n",
			want:   config.API{APIURL: defaultOf(envAPIURL), APIKey: "mint_from_env_00000000000000", ProjectID: "proj_flag", KeyFrom: "environment variable DOCS_API_KEY"},
		},
		{
			name:    "missing key",
			env:     map[string]string{"DOCS_PROJECT_ID": "proj_env"},
			wantErr: "DOCS_API_KEY is not set: create an admin API key on the API keys page of your docs dashboard and export DOCS_API_KEY=mint_...",
		},
		{
			name:    "missing project",
			env:     map[string]string{"DOCS_API_KEY": "mint_from_env_00000000000000"},
			wantErr: "DOCS_PROJECT_ID is not set",
		},
		{
			name:    "URL that is not http",
			env:     map[string]string{"DOCS_API_URL": "api.mintlify.com", "DOCS_API_KEY": "mint_x", "DOCS_PROJECT_ID": "p"},
			wantErr: `DOCS_API_URL "api.mintlify.com" (from environment variable DOCS_API_URL) is not an http(s) URL`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, _, _ := testRunner(t, tt.env, tt.dotenv)
			got, err := r.loadConfig(tt.flags)
			if tt.wantErr != "" {
				var ee *cli.Error
				if !errors.As(err, &ee) || ee.Code != cli.ExitUsage {
					t.Fatalf("err = %v, want a usage error", err)
				}
				if !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %q, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.KeyFrom = strings.Replace(tt.want.KeyFrom, ".env", filepath.Join(r.dir, ".env"), 1)
			if got != tt.want {
				t.Fatalf("config = %+v\nwant     %+v", got, tt.want)
			}
		})
	}
}

func TestLoadConfigDotenvProblems(t *testing.T) {
	t.Parallel()
	const secret = "mint_secret_value_123456789"
	tests := []struct {
		name     string
		dotenv   string
		wantText string
	}{
		{"bad variable name", "DOCS-API-KEY=" + secret + "\n", `unexpected character "-" in variable name`},
		{"unterminated quote", "DOCS_PROJECT_ID=p\nDOCS_API_KEY=\"" + secret + "\n", "unterminated quoted value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"DOCS_API_KEY": "mint_env_0000000000000000", "DOCS_PROJECT_ID": "p"}
			r, _, _ := testRunner(t, env, tt.dotenv)
			_, err := r.loadConfig(flagValues{})
			var ee *cli.Error
			if !errors.As(err, &ee) || ee.Code != cli.ExitUsage {
				t.Fatalf("err = %v, want a usage error", err)
			}
			msg := err.Error()
			path := filepath.Join(r.dir, ".env")
			for _, want := range []string{path, tt.wantText} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not contain %q", msg, want)
				}
			}
			if strings.Contains(msg, secret) {
				t.Errorf("error %q shows the value from .env", msg)
			}
		})
	}
}

func TestLoadConfigUnreadableDotenv(t *testing.T) {
	t.Parallel()
	r, _, _ := testRunner(t, map[string]string{"DOCS_API_KEY": "k", "DOCS_PROJECT_ID": "p"}, "")
	if err := os.Mkdir(filepath.Join(r.dir, ".env"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := r.loadConfig(flagValues{})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(r.dir, ".env")) {
		t.Fatalf("err = %v, want one naming the .env path", err)
	}
}

func TestLoadConfigDoesNotTouchProcessEnvironment(t *testing.T) {
	// Not parallel: it reads the process environment.
	const name = "DOCS_CLI_TEST_ONLY_VARIABLE"
	r, _, _ := testRunner(t, map[string]string{"DOCS_API_KEY": "k", "DOCS_PROJECT_ID": "p"}, name+"=from-dotenv\n")
	if _, err := r.loadConfig(flagValues{}); err != nil {
		t.Fatal(err)
	}
	if v, ok := os.LookupEnv(name); ok {
		t.Fatalf("reading .env set %s=%q in the process environment", name, v)
	}
}

func TestAPIKeyFlagWarns(t *testing.T) {
	t.Parallel()
	r, _, stderr := testRunner(t, map[string]string{"DOCS_PROJECT_ID": "p"}, "")
	const key = "mint_flag_key_000000000000000"
	if _, err := r.loadConfig(flagValues{envAPIKey: key}); err != nil {
		t.Fatal(err)
	}
	if got := stderr.String(); !strings.Contains(got, "warning: --api-key") || strings.Contains(got, key) {
		t.Fatalf("stderr = %q, want a warning about --api-key without the key", got)
	}
}

// TestAPIClientsAreBuiltAlike checks that the commands and the doctor build
// their docs API clients the same way: the same User-Agent, docsapi's own.
func TestAPIClientsAreBuiltAlike(t *testing.T) {
	t.Parallel()
	srv := newServer(t)
	var mu sync.Mutex
	agents := map[string]bool{}
	target, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		agents[req.Header.Get("User-Agent")] = true
		mu.Unlock()
		proxy.ServeHTTP(w, req)
	}))
	t.Cleanup(front.Close)
	env := map[string]string{envAPIURL: front.URL, envAPIKey: srv.Key, envProject: srv.ProjectID}

	for _, args := range [][]string{{"jobs", "create", "--prompt", "x"}, {"visitors", "--max-pages", "1"}} {
		r, _, stderr := testRunner(t, env, "")
		if code := runCode(r, args); code != cli.ExitOK {
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
		}
	}
	r, _, _ := testRunner(t, env, "")
	cfg, err := r.loadConfig(flagValues{})
	if err != nil {
		t.Fatal(err)
	}
	if res := r.checkDocsAPI(context.Background(), "docs API", cfg); res.State != checkup.Passed {
		t.Fatalf("doctor's docs API check: %+v", res)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("server saw %d requests, want 3", n)
	}
	if len(agents) != 1 {
		t.Fatalf("User-Agents %v, want one for every client", agents)
	}
	for ua := range agents {
		if !strings.HasPrefix(ua, "docsbot/") {
			t.Errorf("User-Agent %q, want docsapi's default docsbot/<version>", ua)
		}
	}
}
