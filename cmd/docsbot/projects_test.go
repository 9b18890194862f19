package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// Keys of the two projects of twoProjects; long enough that their masked
// form shows the last four characters.
const (
	docsProjectKey = "mint_projects_docs_key_000000000000Dk"
	apiProjectKey  = "mint_projects_api_key_0000000000000Ak"
	wrongProjKey   = "mint_projects_wrong_key_00000000000Wk"
)

// projectsSetup is two docs projects, each served by its own API test
// server, the projects file naming them and the environment holding their
// keys (DOCSBOT_PROJECTS_FILE, and no DOCS_API_KEY or DOCS_PROJECT_ID).
type projectsSetup struct {
	docs, api *docsapitest.Server
	file      string
	env       map[string]string
}

func twoProjects(t *testing.T) *projectsSetup {
	t.Helper()
	s := &projectsSetup{
		docs: newServer(t, docsapitest.WithKey(docsProjectKey), docsapitest.WithProjectID("proj_docs_0001"), lifecycle(1, docsapitest.OutcomePR)),
		api:  newServer(t, docsapitest.WithKey(apiProjectKey), docsapitest.WithProjectID("proj_api_0002"), lifecycle(1, docsapitest.OutcomePR)),
	}
	s.file = writeFile(t, "projects.yaml", fmt.Sprintf(`projects:
  - name: docs
    project_id: %s
    api_key_env: DOCS_API_KEY_DOCS
    api_url: %s
    channels: [C0GENERAL]
  - name: api
    project_id: %s
    api_key_env: DOCS_API_KEY_API
    api_url: %s
`, s.docs.ProjectID, s.docs.URL, s.api.ProjectID, s.api.URL))
	s.env = map[string]string{envProjectsFile: s.file, "DOCS_API_KEY_DOCS": docsProjectKey, "DOCS_API_KEY_API": apiProjectKey}
	return s
}

// list is env as the binary's environment.
func list(env map[string]string) []string {
	var out []string
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// writeFile writes a file of its own directory and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkNoKey fails when out shows one of the projects' keys.
func checkNoKey(t *testing.T, what, out string) {
	t.Helper()
	for _, key := range []string{docsProjectKey, apiProjectKey, wrongProjKey} {
		if strings.Contains(out, key) {
			t.Errorf("%s shows the key %s:\n%s", what, bot.SecretKinds().Mask(key), out)
		}
	}
}

func TestProjectsFileServeConfig(t *testing.T) {
	t.Parallel()
	s := twoProjects(t)
	env := maps.Clone(s.env)
	env[envSlackBotToken], env[envSlackAppToken] = testBotToken, testAppToken
	r, _, _ := testRunner(t, env, "")
	cfg, err := r.loadServeConfig(flagValues{})
	if err != nil {
		t.Fatalf("without DOCS_API_KEY and DOCS_PROJECT_ID: %v", err)
	}
	if got := cfg.Bot.Projects.Names(); !slices.Equal(got, []string{"docs", "api"}) || cfg.Bot.Projects.Implicit() {
		t.Fatalf("bot.Config.Projects %q (implicit %t), want docs and api", got, cfg.Bot.Projects.Implicit())
	}
	clients, err := project.Clients(cfg.Projects)
	if err != nil {
		t.Fatal(err)
	}
	for name, srv := range map[string]*docsapitest.Server{"docs": s.docs, "api": s.api} {
		if err := clients[name].Check(t.Context(), time.Now()); err != nil {
			t.Errorf("the client of project %s: %v", name, err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("project %s's server saw %d requests, want 1", name, n)
		}
	}

	// A key given as a flag beside the file is refused, not ignored.
	if _, err := r.loadServeConfig(flagValues{envAPIKey: wrongProjKey}); err == nil || !strings.Contains(err.Error(), "--api-key is not used with DOCSBOT_PROJECTS_FILE") {
		t.Errorf("--api-key beside the file: %v", err)
	} else {
		checkNoKey(t, "the refusal", err.Error())
	}

	// Without the file: today's settings, one implicit project.
	r, _, _ = testRunner(t, map[string]string{envSlackBotToken: testBotToken, envSlackAppToken: testAppToken,
		envAPIKey: s.docs.Key, envProject: s.docs.ProjectID, envAPIURL: s.docs.URL}, "")
	cfg, err = r.loadServeConfig(flagValues{})
	if err != nil {
		t.Fatal(err)
	}
	if p := cfg.Bot.Projects.All(); len(p) != 1 || !p[0].Implicit || p[0].ID != s.docs.ProjectID {
		t.Fatalf("projects without the file: %+v", p)
	}
}

// TestProjectsFileRefused checks that a projects file docsbot cannot use is
// refused by serve, doctor and the CLI, with its file and line, and never
// with a key.
func TestProjectsFileRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, content string
		env           map[string]string
		want          string
	}{
		{"unknown field", "projects:\n  - name: docs\n    project_id: p1\n    api_key_env: K1\n    chanels: [C0DOCS]\n", nil,
			", line 5, field chanels: unknown field"},
		{"key variable not set", "projects:\n  - name: docs\n    project_id: p1\n    api_key_env: K_UNSET\n", nil,
			", line 4, field api_key_env: the environment variable K_UNSET of project \"docs\" is not set"},
		{"the key itself in the file", "projects:\n  - name: docs\n    project_id: p1\n    api_key_env: " + docsProjectKey + "\n", nil,
			", line 4, field api_key_env: this looks like a key itself"},
		{"two projects, one id", "projects:\n  - {name: docs, project_id: p1, api_key_env: K1}\n  - {name: api, project_id: p1, api_key_env: K1}\n", nil,
			`, line 3, field project_id: project "api" has the project id of "docs" (line 2)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			file := writeFile(t, "projects.yaml", tt.content)
			env := map[string]string{envProjectsFile: file, "K1": docsProjectKey,
				envSlackBotToken: testBotToken, envSlackAppToken: testAppToken, envHTTPAddr: "", envRedisURL: "unix:///nonexistent/docsbot-test.sock"}
			want := envProjectsFile + ": projects file " + file + tt.want
			for _, args := range [][]string{{"serve"}, {"doctor", "--timeout", "5s"}, {"jobs", "get", "job_1"}, {"visitors"}} {
				res := docsbot(t, nil, list(env), args...)
				out := res.stdout + res.stderr
				if !strings.Contains(out, want) {
					t.Errorf("%s: output lacks %q:\n%s", args[0], want, res)
				}
				if wantCode := map[bool]int{true: cli.ExitFailure, false: cli.ExitUsage}[args[0] == "doctor"]; res.code != wantCode {
					t.Errorf("%s: exit %d, want %d", args[0], res.code, wantCode)
				}
				checkNoKey(t, args[0], out)
			}
		})
	}
}

func TestDoctorProjects(t *testing.T) {
	t.Parallel()
	db := sharedRedis.TakeDB(t)
	s := twoProjects(t)
	d := newDoctorSetup(t, db.URL)
	env := maps.Clone(s.env)
	for _, k := range []string{envSlackBotToken, envSlackAppToken, envSlackAPIURL, envRedisURL} {
		env[k] = d.env[k]
	}

	r, stdout, stderr := testRunner(t, env, "")
	if code := runCode(r, []string{"doctor"}); code != cli.ExitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	checks := doctorChecks(t, stdout.String())
	for name, want := range map[string]string{
		"project docs": bot.SecretKinds().MaskOr(docsProjectKey) + " (environment variable DOCS_API_KEY_DOCS) can read project " + s.docs.ProjectID + " at " + s.docs.URL,
		"project api":  bot.SecretKinds().MaskOr(apiProjectKey) + " (environment variable DOCS_API_KEY_API) can read project " + s.api.ProjectID + " at " + s.api.URL,
	} {
		if c := checks[name]; c.mark != "✓" || !strings.Contains(c.text, want) {
			t.Errorf("%s: %s %q, want ✓ %q", name, c.mark, c.text, want)
		}
	}
	if _, ok := checks["docs API"]; ok {
		t.Errorf("a docs API check of today's settings beside the projects':\n%s", stdout)
	}
	for _, srv := range []*docsapitest.Server{s.docs, s.api} {
		if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Endpoint != docsapitest.EndpointVisitors || reqs[0].Status != 200 {
			t.Errorf("%s's requests: %+v, want one visitors request answered 200", srv.ProjectID, reqs)
		}
	}
	checkNoKey(t, "doctor", stdout.String()+stderr.String())

	// A refused key names where it came from, never the key.
	env["DOCS_API_KEY_API"] = wrongProjKey
	r, stdout, stderr = testRunner(t, env, "")
	if code := runCode(r, []string{"doctor"}); code != cli.ExitFailure {
		t.Fatalf("with a wrong key: exit %d\n%s%s", code, stdout, stderr)
	}
	checks = doctorChecks(t, stdout.String())
	if c := checks["project docs"]; c.mark != "✓" {
		t.Errorf("project docs: %s %q, want ✓", c.mark, c.text)
	}
	c := checks["project api"]
	for _, want := range []string{"refused the API key " + bot.SecretKinds().Mask(wrongProjKey), "fix: check DOCS_API_KEY_API (environment variable DOCS_API_KEY_API)"} {
		if c.mark != "✗" || !strings.Contains(c.text, want) {
			t.Errorf("project api: %s %q, want ✗ and %q", c.mark, c.text, want)
		}
	}
	checkNoKey(t, "doctor", stdout.String()+stderr.String())
}

// TestCLIProjects picks the project of the API subcommands with --project.
func TestCLIProjects(t *testing.T) {
	t.Parallel()
	s := twoProjects(t)
	env := list(s.env)

	res := docsbot(t, nil, env, "jobs", "create", "--project", "api", "--prompt", "Document the API project", "--format", "json")
	var job docsapi.Job
	if res.code != cli.ExitOK || json.Unmarshal([]byte(res.stdout), &job) != nil {
		t.Fatalf("create in api: %s", res)
	}
	if _, ok := s.api.Job(job.ID); !ok || len(s.docs.Jobs()) != 0 {
		t.Fatalf("the job went to the wrong project: api has it %t, docs has %d jobs", ok, len(s.docs.Jobs()))
	}
	for _, args := range [][]string{
		{"jobs", "get", job.ID, "--project", "api"},
		{"jobs", "message", job.ID, "--project", "API", "--prompt", "Also the changelog"},
		{"jobs", "watch", job.ID, "--project", s.api.ProjectID, "--interval", "10ms", "--max-interval", "20ms"},
	} {
		if res := docsbot(t, nil, env, args...); res.code != cli.ExitOK {
			t.Errorf("%s: %s", args[1], res)
		}
	}
	if got := s.api.Prompts(job.ID); !slices.Equal(got, []string{"Document the API project", "Also the changelog"}) {
		t.Errorf("prompts of the api job: %q", got)
	}
	if res := docsbot(t, nil, env, "visitors", "--project", "docs", "--max-pages", "1"); res.code != cli.ExitOK || len(s.docs.Requests()) != 1 {
		t.Errorf("visitors of docs: %s\n%d requests on docs' server", res, len(s.docs.Requests()))
	}

	failures := []struct {
		name string
		args []string
		env  []string
		want string
	}{
		{"no --project with two projects", []string{"jobs", "get", job.ID}, nil, "DOCSBOT_PROJECTS_FILE lists several projects: pick one with --project NAME\n  its projects: docs, api"},
		{"a project the file lacks", []string{"visitors", "--project", "blog"}, nil, `--project "blog" is not a project of DOCSBOT_PROJECTS_FILE`},
		{"--api-key beside the file", []string{"jobs", "get", job.ID, "--project", "api", "--api-key", wrongProjKey}, nil, "--api-key is not used with DOCSBOT_PROJECTS_FILE"},
		{"the job of another project", []string{"jobs", "get", job.ID, "--project", "docs"}, nil,
			"job " + job.ID + " not found in project " + s.docs.ProjectID + "\n  check the job ID, and that project_id of project docs in DOCSBOT_PROJECTS_FILE is the project the job was started in"},
		{"a refused key", []string{"jobs", "get", job.ID, "--project", "api"}, []string{"DOCS_API_KEY_API=" + wrongProjKey}, "check DOCS_API_KEY_API (environment variable DOCS_API_KEY_API)"},
	}
	for _, f := range failures {
		res := docsbot(t, nil, append(slices.Clone(env), f.env...), f.args...)
		if res.code == cli.ExitOK || !strings.Contains(res.stderr, f.want) {
			t.Errorf("%s: %s\nwant an error with %q", f.name, res, f.want)
		}
		checkNoKey(t, f.name, res.stdout+res.stderr)
	}

	// A file of one project needs no --project.
	one := writeFile(t, "one.yaml", fmt.Sprintf("projects:\n  - {name: docs, project_id: %s, api_key_env: DOCS_API_KEY_DOCS, api_url: %q}\n", s.docs.ProjectID, s.docs.URL))
	res = docsbot(t, nil, []string{envProjectsFile + "=" + one, "DOCS_API_KEY_DOCS=" + docsProjectKey}, "jobs", "create", "--prompt", "Only project")
	if res.code != cli.ExitOK || len(s.docs.Jobs()) != 1 {
		t.Errorf("one project, no --project: %s", res)
	}
}

// TestServeBinaryProjects runs the built docsbot with a projects file of two
// projects and no DOCS_API_KEY or DOCS_PROJECT_ID: it starts, logs the
// projects' names (never a key), runs a job of the channel's project to its
// end, starts one with project=api and reads the api project's visitors, each
// on that project's server, and stops.
func TestServeBinaryProjects(t *testing.T) {
	t.Parallel()
	db := sharedRedis.TakeDB(t)
	s := twoProjects(t)
	sl := slacktest.NewServer(slacktest.WithPingInterval(500 * time.Millisecond))
	t.Cleanup(sl.Close)
	sl.AddChannel(slacktest.Channel{ID: "C0APIDOCS", Name: "api-docs", BotMember: true})
	env := maps.Clone(s.env)
	maps.Copy(env, map[string]string{envSlackBotToken: testBotToken, envSlackAppToken: testAppToken, envSlackAPIURL: sl.APIURL,
		envRedisURL: db.URL, envPollInterval: "50ms", envPollMaxInterval: "200ms", envLogFormat: "json", envHTTPAddr: ""})
	cmd := docsbotCmd(t, nil, list(env), "serve")
	stderr, done := startServe(t, cmd)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	firstJob(ctx, t, sl, stderr, "Document the projects file")
	if nd, na := len(s.docs.Jobs()), len(s.api.Jobs()); nd != 1 || na != 0 {
		t.Errorf("%d jobs on docs' server and %d on api's, want the job of C0GENERAL's project, docs", nd, na)
	}
	// project=NAME starts a job with that project's client.
	if _, err := sl.SlashCommand(ctx, slacktest.SlashCommand{Command: "/docs-agent", Text: "project=api Document the API", UserID: "U0ALICE", ChannelID: "C0APIDOCS"}); err != nil {
		t.Fatal(err)
	}
	if err := sl.WaitFor(ctx, func() bool { return len(s.api.Jobs()) == 1 }); err != nil {
		t.Fatalf("no job on the api project's server: %v\n%s", err, stderr.String())
	}
	if j := s.api.Jobs()[0]; !slices.Equal(s.api.Prompts(j.ID), []string{"Document the API"}) {
		t.Errorf("the api job's prompts: %q", s.api.Prompts(j.ID))
	}
	// /docs-visitors project=api reads the api project's analytics, with
	// its own client.
	if _, err := sl.SlashCommand(ctx, slacktest.SlashCommand{Command: "/docs-visitors", Text: "project=api 7d", UserID: "U0ALICE", ChannelID: "C0GENERAL"}); err != nil {
		t.Fatal(err)
	}
	visitorsOf := func(srv *docsapitest.Server) int {
		n := 0
		for _, r := range srv.Requests() {
			if r.Endpoint == docsapitest.EndpointVisitors {
				n++
			}
		}
		return n
	}
	if err := sl.WaitFor(ctx, func() bool { return visitorsOf(s.api) > 0 }); err != nil {
		t.Fatalf("the api project's server saw no visitors request: %v\n%s", err, stderr.String())
	}
	if n := visitorsOf(s.docs); n != 0 {
		t.Errorf("the docs project's server saw %d visitors requests, want none", n)
	}
	stopServe(t, cmd, done, stderr)

	logs := stderr.String()
	if !strings.Contains(logs, `"projects":["docs","api"]`) {
		t.Errorf("the start does not name the projects:\n%s", logs)
	}
	checkNoKey(t, "serve's logs", logs)
	for _, secret := range []string{testBotToken, testAppToken} {
		if strings.Contains(logs, secret) {
			t.Errorf("logs contain a Slack token")
		}
	}
}

// TestProjectKeyInWrongSetting pastes a project's key, one that does not
// look like a key, into a setting that is not secret: serve's problem names
// the setting and masks the key.
func TestProjectKeyInWrongSetting(t *testing.T) {
	t.Parallel()
	const plainKey = "plainProjectKeyWithoutPrefix0123456789"
	file := writeFile(t, "projects.yaml", "projects:\n  - {name: docs, project_id: p1, api_key_env: K1}\n")
	r, _, _ := testRunner(t, map[string]string{envProjectsFile: file, "K1": plainKey,
		envSlackBotToken: testBotToken, envSlackAppToken: testAppToken, envLogLevel: plainKey}, "")
	_, err := r.loadServeConfig(flagValues{})
	var rep strings.Builder
	if code := cli.Report(&rep, err); code != cli.ExitUsage || !strings.Contains(rep.String(), "DOCSBOT_LOG_LEVEL …6789 must be debug") {
		t.Errorf("exit %d, %q; want a usage error naming DOCSBOT_LOG_LEVEL, the key masked", code, rep.String())
	}
	if strings.Contains(rep.String(), plainKey[5:len(plainKey)-4]) {
		t.Errorf("the problem shows the key: %s", rep.String())
	}
}
