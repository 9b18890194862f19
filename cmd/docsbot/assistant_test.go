package main

import (
	"bytes"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/ask"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// Assistant keys of the tests, long enough that their masked form shows the
// last four characters; none may be printed in full.
const (
	wrongAssistantKey = "mint_dsc_doctor_wrong_key_0000000Wa"
	docsAssistantKey  = "mint_dsc_projects_docs_key_000000Da"
)

// withAssistant is the environment of s with the assistant of its API test
// server, and more.
func (s *doctorSetup) withAssistant(more map[string]string) map[string]string {
	env := maps.Clone(s.env)
	env[envAssistantKey], env[envDomain], env[envDiscoveryURL] = s.api.AssistantKey, s.api.Domain, s.api.DiscoveryURL
	maps.Copy(env, more)
	return env
}

// TestAskSettings reads the settings of the answers from the docs: the
// implicit project's assistant, the questions a person may ask an hour and
// the requests channel, and their defaults.
func TestAskSettings(t *testing.T) {
	t.Parallel()
	const key = "mint_dsc_settings_key_0000000000Sk"
	base := map[string]string{envSlackBotToken: testBotToken, envSlackAppToken: testAppToken,
		envAPIKey: "mint_settings_admin_key_000000000Ak", envProject: "proj_settings"}

	r, _, _ := testRunner(t, base, "")
	cfg, err := r.loadServeConfig(flagValues{})
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := cfg.Projects.Get(project.ImplicitName); p.Assistant.Set() || cfg.Ask.PerUser != ask.DefaultPerUser || cfg.Ask.RequestsChannel != "" {
		t.Errorf("defaults: assistant %t, per user %d, requests channel %q; want none, %d, none", p.Assistant.Set(), cfg.Ask.PerUser, cfg.Ask.RequestsChannel, ask.DefaultPerUser)
	}
	if off, on := cfg.AnswersOff(); !strings.Contains(off, "/docs-ask is not served") || !strings.Contains(on, "DOCS_ASSISTANT_KEY") {
		t.Errorf("AnswersOff = %q, %q", off, on)
	}

	env := maps.Clone(base)
	maps.Copy(env, map[string]string{envDomain: "acme", envSiteURL: "https://docs.acme.test", envAskPerUser: "5", envRequestsChannel: "C0DOCSTEAM"})
	r, _, _ = testRunner(t, env, envAssistantKey+"="+key+"\n")
	cfg, err = r.loadServeConfig(flagValues{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := cfg.Bot.Projects.Get(project.ImplicitName)
	a := p.Assistant
	if !a.Set() || a.Key.Reveal() != key || a.KeyFrom != envAssistantKey+" in "+r.env().DotenvPath() || a.Domain != "acme" ||
		a.DiscoveryURL != docsapi.DefaultDiscoveryURL || a.SiteURL != "https://docs.acme.test" {
		t.Errorf("the implicit project's assistant: set %t, from %q, domain %q, discovery %q, site %q", a.Set(), a.KeyFrom, a.Domain, a.DiscoveryURL, a.SiteURL)
	}
	if cfg.Ask.PerUser != 5 || cfg.Ask.RequestsChannel != "C0DOCSTEAM" {
		t.Errorf("ask.Config %+v, want 5 questions an hour and C0DOCSTEAM", cfg.Ask)
	}
	if off, _ := cfg.AnswersOff(); off != "" {
		t.Errorf("AnswersOff = %q with an assistant", off)
	}
}

// TestAskSettingsRefused: every wrong setting of the answers is a problem
// that names its variable and never shows a key.
func TestAskSettingsRefused(t *testing.T) {
	t.Parallel()
	const (
		key      = "mint_dsc_refused_key_000000000000Rk"
		adminKey = "mint_refused_admin_key_0000000000Ak"
	)
	file := writeFile(t, "projects.yaml", "projects:\n  - {name: docs, project_id: p1, api_key_env: K1}\n")
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"key without domain", map[string]string{envAssistantKey: key}, "DOCS_ASSISTANT_KEY is set but DOCS_DOMAIN is not: the assistant needs both\n  set DOCS_DOMAIN to the docs site's domain"},
		{"domain without key", map[string]string{envDomain: "acme"}, "DOCS_DOMAIN is set but DOCS_ASSISTANT_KEY is not: the assistant needs both\n  create an assistant key"},
		{"the admin key", map[string]string{envAssistantKey: adminKey, envDomain: "acme"},
			"DOCS_ASSISTANT_KEY is another kind of docs key (the admin API key?), not an assistant key: create an assistant key (mint_dsc_…) on the API keys page"},
		{"a Slack token", map[string]string{envAssistantKey: testBotToken, envDomain: "acme"}, "DOCS_ASSISTANT_KEY is a Slack token, not an assistant key"},
		{"a URL as domain", map[string]string{envAssistantKey: key, envDomain: "https://acme.mintlify.app"},
			`DOCS_DOMAIN "https://acme.mintlify.app" is not a docs domain: write the last part of the dashboard's URL app.mintlify.com/ORG/DOMAIN`},
		{"the key as domain", map[string]string{envAssistantKey: key, envDomain: key}, "DOCS_DOMAIN mint_…00Rk is not a docs domain"},
		{"credentials in the discovery URL", map[string]string{envDiscoveryURL: "https://u:" + key + "@api.example/discovery"},
			"DOCS_DISCOVERY_URL must not contain credentials: the assistant takes only the key in DOCS_ASSISTANT_KEY"},
		{"a relative site URL", map[string]string{envSiteURL: "docs.acme.test"}, `DOCS_SITE_URL "docs.acme.test" is not an http(s) URL`},
		{"no questions", map[string]string{envAskPerUser: "0"}, `DOCSBOT_ASK_PER_USER "0" must be a whole number of questions per hour, 1 or more`},
		{"a channel by name", map[string]string{envRequestsChannel: "#docs-team"}, `DOCSBOT_REQUESTS_CHANNEL "#docs-team" is not a channel id`},
		{"a user as channel", map[string]string{envRequestsChannel: "U0ALICE"}, `DOCSBOT_REQUESTS_CHANNEL "U0ALICE" is not a channel id`},
		{"one assistant beside a projects file", map[string]string{envProjectsFile: file, "K1": adminKey, envAssistantKey: key, envDomain: "acme"},
			"DOCS_ASSISTANT_KEY and DOCS_DOMAIN are not used with DOCSBOT_PROJECTS_FILE: each project of the file names its own assistant\n  give the projects"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{envSlackBotToken: testBotToken, envSlackAppToken: testAppToken, envAPIKey: adminKey, envProject: "proj_refused"}
			maps.Copy(env, tt.env)
			r, _, _ := testRunner(t, env, "")
			_, err := r.loadServeConfig(flagValues{})
			var rep bytes.Buffer
			if code := cli.Report(&rep, err); code != cli.ExitUsage || !strings.Contains(rep.String(), tt.want) {
				t.Errorf("report: exit %d, %q; want exit %d and %q", code, rep.String(), cli.ExitUsage, tt.want)
			}
			for _, secret := range []string{key, adminKey, testBotToken} {
				if strings.Contains(rep.String(), secret) {
					t.Errorf("the report shows %s: %s", bot.SecretKinds().Mask(secret), rep.String())
				}
			}
		})
	}
}

// TestDoctorAssistant checks the assistant with one real search: a key and
// a domain that work, a refused key, a domain without a search index, a
// discovery API that cannot be reached or fails, settings that block the
// check, and the line that says the answers are off.
func TestDoctorAssistant(t *testing.T) {
	t.Parallel()
	db := sharedRedis.TakeDB(t)
	tests := []struct {
		name     string
		env      func(s *doctorSetup) map[string]string
		prepare  func(s *doctorSetup)
		wantCode int
		mark     string
		want     []string
		// searches is the number of searches the API test server sees.
		searches int
		// config is what the configuration check says when it fails.
		config string
	}{
		{name: "works", env: func(s *doctorSetup) map[string]string { return s.withAssistant(nil) }, wantCode: cli.ExitOK, mark: "✓", searches: 1,
			want: []string{bot.SecretKinds().MaskOr(docsapitest.DefaultAssistantKey) + " can search docs site " + docsapitest.DefaultDomain + " at http://127.0.0.1:"}},
		{name: "key refused", env: func(s *doctorSetup) map[string]string {
			return s.withAssistant(map[string]string{envAssistantKey: wrongAssistantKey})
		}, wantCode: cli.ExitFailure, mark: "✗", searches: 1, want: []string{
			"the discovery API refused the assistant key " + bot.SecretKinds().Mask(wrongAssistantKey) + " for docs site acme (401 Unauthorized)",
			"fix: check DOCS_ASSISTANT_KEY (environment variable DOCS_ASSISTANT_KEY) and DOCS_DOMAIN: create an assistant key (mint_dsc_…)"}},
		{name: "no search index", env: func(s *doctorSetup) map[string]string {
			return s.withAssistant(map[string]string{envDomain: "nosuch-site"})
		}, wantCode: cli.ExitFailure, mark: "✗", searches: 1, want: []string{
			"docs site nosuch-site has no search index at the discovery API (404 Not Found)", "fix: check DOCS_DOMAIN: the last part of your dashboard's URL"}},
		{name: "discovery API unreachable", env: func(s *doctorSetup) map[string]string {
			return s.withAssistant(map[string]string{envDiscoveryURL: "http://127.0.0.1:1/discovery"})
		}, wantCode: cli.ExitFailure, mark: "✗", want: []string{
			"cannot reach the discovery API", "connection refused", "fix: check DOCS_DISCOVERY_URL (http://127.0.0.1:1/discovery) and your network"}},
		{name: "discovery API fails", env: func(s *doctorSetup) map[string]string { return s.withAssistant(nil) },
			prepare: func(s *doctorSetup) {
				s.api.AddFault(docsapitest.Fault{Endpoint: docsapitest.EndpointSearch, Status: 503})
			}, wantCode: cli.ExitFailure, mark: "✗", searches: 1, want: []string{"the discovery API failed", "503 Service Unavailable", "fix: this is on the service side"}},
		{name: "the admin key", env: func(s *doctorSetup) map[string]string {
			return s.withAssistant(map[string]string{envAssistantKey: doctorWrongKey})
		}, wantCode: cli.ExitFailure, mark: "-", want: []string{"not checked: fix DOCS_ASSISTANT_KEY first"},
			config: "DOCS_ASSISTANT_KEY is another kind of docs key"},
		{name: "key without domain", env: func(s *doctorSetup) map[string]string {
			return s.withAssistant(map[string]string{envDomain: ""})
		}, wantCode: cli.ExitFailure, mark: "-", want: []string{"not checked: fix DOCS_DOMAIN first"},
			config: "DOCS_ASSISTANT_KEY is set but DOCS_DOMAIN is not"},
		{name: "off", env: func(s *doctorSetup) map[string]string { return s.env }, wantCode: cli.ExitOK, mark: "✓", want: []string{
			"answers from the docs are off: no docs project has an assistant, so /docs-ask is not served",
			"set DOCS_ASSISTANT_KEY (mint_dsc_…, from the API keys page of the docs dashboard) and DOCS_DOMAIN to turn them on"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newDoctorSetup(t, db.URL)
			if tt.prepare != nil {
				tt.prepare(s)
			}
			env := tt.env(s)
			r, stdout, stderr := testRunner(t, env, "")
			code := runCode(r, []string{"doctor"})
			out := stdout.String()
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d", code, tt.wantCode)
			}
			checks := doctorChecks(t, out)
			c := checks["Assistant"]
			if c.mark != tt.mark {
				t.Errorf("Assistant: %s %q, want %s", c.mark, c.text, tt.mark)
			}
			for _, w := range tt.want {
				if !strings.Contains(c.text, w) {
					t.Errorf("Assistant says %q, want it to contain %q", c.text, w)
				}
			}
			if cc := checks["configuration"]; (tt.config == "") != (cc.mark == "✓") || !strings.Contains(cc.text, tt.config) {
				t.Errorf("configuration: %s %q, want %q", cc.mark, cc.text, tt.config)
			}
			// The other checks pass whatever the assistant does.
			for _, name := range []string{"Slack bot token", "docs API", "Redis"} {
				if checks[name].mark != "✓" && tt.config == "" {
					t.Errorf("%s: %s %q, want ✓", name, checks[name].mark, checks[name].text)
				}
			}
			if n := s.api.Count(docsapitest.EndpointSearch); n != tt.searches {
				t.Errorf("%d searches, want %d", n, tt.searches)
			}
			if n := s.api.Count(docsapitest.EndpointAssistant); n != 0 {
				t.Errorf("%d questions asked, want none: a question costs credits", n)
			}
			for _, sec := range s.secrets(s.api.AssistantKey, wrongAssistantKey) {
				if strings.Contains(out+stderr.String(), sec) {
					t.Errorf("output shows the secret %s", bot.SecretKinds().Mask(sec))
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", out, stderr)
			}
		})
	}
}

// TestDoctorAssistantProjects checks the assistant of each project of the
// projects file that has one ("assistant NAME"), with the key the file
// points to; a project without one has no line.
func TestDoctorAssistantProjects(t *testing.T) {
	t.Parallel()
	db := sharedRedis.TakeDB(t)
	d := newDoctorSetup(t, db.URL)
	docs := newServer(t, docsapitest.WithKey(docsProjectKey), docsapitest.WithProjectID("proj_docs_0001"),
		docsapitest.WithAssistantKey(docsAssistantKey), docsapitest.WithDomain("acme-docs"))
	api := newServer(t, docsapitest.WithKey(apiProjectKey), docsapitest.WithProjectID("proj_api_0002"))
	file := writeFile(t, "projects.yaml", fmt.Sprintf(`projects:
  - name: docs
    project_id: %s
    api_key_env: DOCS_API_KEY_DOCS
    api_url: %s
    assistant_key_env: DOCS_ASSISTANT_KEY_DOCS
    domain: acme-docs
    discovery_url: %s
  - name: api
    project_id: %s
    api_key_env: DOCS_API_KEY_API
    api_url: %s
`, docs.ProjectID, docs.URL, docs.DiscoveryURL, api.ProjectID, api.URL))
	env := map[string]string{envProjectsFile: file, "DOCS_API_KEY_DOCS": docsProjectKey, "DOCS_API_KEY_API": apiProjectKey,
		"DOCS_ASSISTANT_KEY_DOCS": docsAssistantKey}
	for _, k := range []string{envSlackBotToken, envSlackAppToken, envSlackAPIURL, envRedisURL, envEditors} {
		env[k] = d.env[k]
	}

	r, stdout, stderr := testRunner(t, env, "")
	if code := runCode(r, []string{"doctor"}); code != cli.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	checks := doctorChecks(t, stdout.String())
	want := bot.SecretKinds().MaskOr(docsAssistantKey) + " (environment variable DOCS_ASSISTANT_KEY_DOCS) can search docs site acme-docs at " + docs.DiscoveryURL
	if c := checks["assistant docs"]; c.mark != "✓" || !strings.Contains(c.text, want) {
		t.Errorf("assistant docs: %s %q, want ✓ %q", c.mark, c.text, want)
	}
	for _, name := range []string{"assistant api", "Assistant"} {
		if c, ok := checks[name]; ok {
			t.Errorf("a line %q: %s %q", name, c.mark, c.text)
		}
	}
	if n := docs.Count(docsapitest.EndpointSearch); n != 1 {
		t.Errorf("project docs: %d searches, want 1", n)
	}
	checkNoKey(t, "doctor", stdout.String()+stderr.String())

	// A refused key names the variable it came from, never the key.
	env["DOCS_ASSISTANT_KEY_DOCS"] = wrongAssistantKey
	r, stdout, stderr = testRunner(t, env, "")
	if code := runCode(r, []string{"doctor"}); code != cli.ExitFailure {
		t.Fatalf("with a wrong key: exit %d\n%s%s", code, stdout, stderr)
	}
	c := doctorChecks(t, stdout.String())["assistant docs"]
	for _, w := range []string{"refused the assistant key " + bot.SecretKinds().Mask(wrongAssistantKey),
		"fix: check DOCS_ASSISTANT_KEY_DOCS (environment variable DOCS_ASSISTANT_KEY_DOCS) and domain of project docs in DOCSBOT_PROJECTS_FILE"} {
		if c.mark != "✗" || !strings.Contains(c.text, w) {
			t.Errorf("assistant docs: %s %q, want ✗ and %q", c.mark, c.text, w)
		}
	}
	out := stdout.String() + stderr.String()
	for _, key := range []string{docsAssistantKey, wrongAssistantKey} {
		if strings.Contains(out, key) {
			t.Errorf("doctor shows the key %s:\n%s", bot.SecretKinds().Mask(key), out)
		}
	}

	// Without an assistant in the file, the line says which fields turn
	// the answers on.
	noAssistant := writeFile(t, "projects.yaml", fmt.Sprintf("projects:\n  - {name: api, project_id: %s, api_key_env: DOCS_API_KEY_API, api_url: %q}\n", api.ProjectID, api.URL))
	env[envProjectsFile] = noAssistant
	r, stdout, stderr = testRunner(t, env, "")
	if code := runCode(r, []string{"doctor"}); code != cli.ExitOK {
		t.Fatalf("without an assistant: exit %d\n%s%s", code, stdout, stderr)
	}
	if c := doctorChecks(t, stdout.String())["Assistant"]; c.mark != "✓" || !strings.Contains(c.text, "give projects of DOCSBOT_PROJECTS_FILE assistant_key_env (or assistant_key_file) and domain") {
		t.Errorf("Assistant: %s %q, want ✓ and the fields that turn the answers on", c.mark, c.text)
	}
}
