package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/cmd/internal/checkup"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// Tokens long enough that their masked form shows the last four characters.
const (
	doctorBotToken = "xoxb-1234567890-0987654321-doctorBotTokenAbcd"
	doctorAppToken = "xapp-1-A0DOCTOR-1234567890-doctorAppTokenWxyz"
	doctorWrongBot = "xoxb-1234567890-0987654321-revokedBotTokenQrst"
	doctorWrongApp = "xapp-1-A0DOCTOR-1234567890-revokedAppTokenMnop"
	doctorWrongKey = "mint_doctor_wrong_key_000000000000Zz"
)

// doctorSetup is a fake Slack, an API test server and a real Redis, and the
// environment that points docsbot at them.
type doctorSetup struct {
	slack *slacktest.Server
	api   *docsapitest.Server
	env   map[string]string
}

// newDoctorSetup starts a fake Slack and an API test server of their own and
// uses the Redis at redisURL.
func newDoctorSetup(t *testing.T, redisURL string) *doctorSetup {
	t.Helper()
	sl := slacktest.NewServer(
		slacktest.WithBotToken(doctorBotToken), slacktest.WithAppToken(doctorAppToken),
		slacktest.WithTeam("T0DOCTOR", "doctor-team"), slacktest.WithBot("U0DOCTOR", "B0DOCTOR"),
		slacktest.WithAppID("A0DOCTOR"))
	t.Cleanup(sl.Close)
	api := newServer(t)
	return &doctorSetup{slack: sl, api: api, env: map[string]string{
		envSlackBotToken: doctorBotToken, envSlackAppToken: doctorAppToken, envSlackAPIURL: sl.APIURL,
		envAPIURL: api.URL, envAPIKey: api.Key, envProject: api.ProjectID,
		envRedisURL: redisURL, config.EnvEditors: "U0ALICE",
	}}
}

// secrets are every secret a doctor test uses; none may be printed in full.
func (s *doctorSetup) secrets(extra ...string) []string {
	return append([]string{doctorBotToken, doctorAppToken, doctorWrongBot, doctorWrongApp, doctorWrongKey, s.api.Key}, extra...)
}

// doctorCheck is one check as printed: its mark and all its text.
type doctorCheck struct {
	mark string // ✓, ✗ or -
	text string // the check's lines, including its fix
}

// doctorChecks reads the output of docsbot doctor into its checks by name.
func doctorChecks(t *testing.T, out string) map[string]doctorCheck {
	t.Helper()
	checks := map[string]doctorCheck{}
	current := ""
	for _, line := range strings.Split(out, "\n") {
		for _, mark := range []string{"✓", "✗", "!", "-"} {
			if rest, ok := strings.CutPrefix(line, "  "+mark+" "); ok {
				current = strings.TrimSpace(rest[:min(20, len(rest))])
				checks[current] = doctorCheck{mark: mark, text: rest}
			}
		}
		if strings.HasPrefix(line, "    ") && current != "" {
			c := checks[current]
			c.text += "\n" + strings.TrimSpace(line)
			checks[current] = c
		}
	}
	return checks
}

// doctorNames are the checks in the order doctor prints them.
func doctorNames() []string {
	return []string{"configuration", "Slack bot token", "Slack app token", "Editors", "Settings in Slack", "docs API", "Assistant", "Redis"}
}

func TestDoctor(t *testing.T) {
	t.Parallel()
	db := sharedRedis.TakeDB(t)
	const roPassword = "doctor-ro-Secret-pw-4321"
	acl := sharedRedis.Client()
	defer acl.Close()
	if err := acl.Do(context.Background(), "ACL", "SETUSER", "doctor-ro", "on", ">"+roPassword, "~*", "&*", "+@all", "-@write").Err(); err != nil {
		t.Fatal(err)
	}
	// A server that takes connections and never answers, as a Redis behind
	// a stuck proxy does.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = silent.Close() })
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, c); _ = c.Close() }()
		}
	}()

	type want struct {
		mark string
		text []string
	}
	// lacking is a fake Slack whose bot token lacks scope.
	lacking := func(scope string) func(*doctorSetup) map[string]string {
		return func(*doctorSetup) map[string]string {
			granted := slices.DeleteFunc(slacktest.DefaultScopes(), func(s string) bool { return s == scope })
			sl := slacktest.NewServer(slacktest.WithBotToken(doctorBotToken), slacktest.WithAppToken(doctorAppToken), slacktest.WithScopes(granted...))
			t.Cleanup(sl.Close)
			return map[string]string{envSlackAPIURL: sl.APIURL}
		}
	}
	tests := []struct {
		name     string
		args     []string
		dotenv   string
		env      func(s *doctorSetup) map[string]string
		prepare  func(s *doctorSetup)
		wantCode int
		// want says how checks end that do not pass, and what they say.
		want map[string]want
	}{
		{
			name:     "bot token rejected",
			env:      func(*doctorSetup) map[string]string { return map[string]string{envSlackBotToken: doctorWrongBot} },
			wantCode: cli.ExitFailure,
			want: map[string]want{"Slack bot token": {"✗", []string{
				bot.SecretKinds().Mask(doctorWrongBot) + " refused (invalid_auth)", "fix: copy the Bot User OAuth Token", "OAuth & Permissions"}}},
		},
		{
			// An app installed before the manifest asked for im:write.
			name:     "bot token lacks a scope",
			env:      lacking("im:write"),
			wantCode: cli.ExitFailure,
			want: map[string]want{"Slack bot token": {"✗", []string{
				bot.SecretKinds().Mask(doctorBotToken) + " works", "lacks scopes docsbot uses: im:write", "slack-app-manifest.yaml", "reinstall the app"}}},
		},
		{
			// An app installed before docsbot read the files people attach.
			name:     "bot token lacks files:read",
			env:      lacking("files:read"),
			wantCode: cli.ExitFailure,
			want: map[string]want{"Slack bot token": {"✗", []string{"lacks scopes docsbot uses: files:read (files:read: the files people attach",
				"without it Slack sends its sign-in page instead of each file, and docsbot reads none", "reinstall the app"}}},
		},
		{
			// An app installed before the manifest turned on the pane and
			// the unfurls.
			name: "bot token lacks the AI surface's scopes",
			env: func(*doctorSetup) map[string]string {
				sl := slacktest.NewServer(slacktest.WithBotToken(doctorBotToken), slacktest.WithAppToken(doctorAppToken), slacktest.WithoutAIScopes())
				t.Cleanup(sl.Close)
				return map[string]string{envSlackAPIURL: sl.APIURL}
			},
			wantCode: cli.ExitFailure,
			want: map[string]want{"Slack bot token": {"✗", []string{
				"lacks scopes docsbot uses: assistant:write, links:read, links:write", "slack-app-manifest.yaml"}}},
		},
		{
			name:     "app token rejected",
			env:      func(*doctorSetup) map[string]string { return map[string]string{envSlackAppToken: doctorWrongApp} },
			wantCode: cli.ExitFailure,
			want: map[string]want{"Slack app token": {"✗", []string{
				bot.SecretKinds().Mask(doctorWrongApp) + " refused (invalid_auth)", "connections:write", "turn Socket Mode on"}}},
		},
		{
			name:     "app token without Socket Mode scope",
			prepare:  func(s *doctorSetup) { s.slack.FailNext("apps.connections.open", "missing_scope", 1) },
			wantCode: cli.ExitFailure,
			want:     map[string]want{"Slack app token": {"✗", []string{"refused (missing_scope)", "connections:write"}}},
		},
		{
			name: "Slack does not answer in time",
			// The limit holds for every check: long enough for the others to
			// pass on a loaded machine beside the parallel subtests.
			args:     []string{"--timeout", "5s"},
			prepare:  func(s *doctorSetup) { s.slack.SetAPILatency("auth.test", time.Minute) },
			wantCode: cli.ExitFailure,
			want: map[string]want{"Slack bot token": {"✗", []string{
				"could not be checked: no answer from Slack at http://127.0.0.1:", "in time", "fix: check SLACK_API_URL"}}},
		},
		{
			name:     "API key wrong",
			env:      func(*doctorSetup) map[string]string { return map[string]string{envAPIKey: doctorWrongKey} },
			wantCode: cli.ExitFailure,
			want: map[string]want{"docs API": {"✗", []string{
				"refused the API key " + bot.SecretKinds().MaskOr(doctorWrongKey), "401 Unauthorized", "fix: check DOCS_API_KEY"}}},
		},
		{
			name:     "project wrong",
			env:      func(*doctorSetup) map[string]string { return map[string]string{envProject: "proj_unknown"} },
			wantCode: cli.ExitFailure,
			want: map[string]want{"docs API": {"✗", []string{
				"project proj_unknown not found by the docs API (404 Not Found)", "fix: check DOCS_PROJECT_ID"}}},
		},
		{
			name: "Redis socket missing",
			env: func(s *doctorSetup) map[string]string {
				return map[string]string{envRedisURL: "unix://" + sharedRedis.Socket + ".missing"}
			},
			wantCode: cli.ExitFailure,
			want: map[string]want{"Redis": {"✗", []string{
				"unix://" + sharedRedis.Socket + ".missing: PING failed", "no such file or directory", "fix: start Redis or point REDIS_URL at it"}}},
		},
		{
			name: "Redis refuses writes",
			env: func(s *doctorSetup) map[string]string {
				// Database 0: the user can write nothing anyway.
				return map[string]string{envRedisURL: "unix://doctor-ro:" + roPassword + "@" + sharedRedis.Socket}
			},
			wantCode: cli.ExitFailure,
			want: map[string]want{"Redis": {"✗", []string{
				"unix://REDACTED@" + sharedRedis.Socket + ": PING ok, write refused: NOPERM", "fix: the Redis user may not write docsbot's keys"}}},
		},
		{
			name: "Redis password wrong",
			env: func(s *doctorSetup) map[string]string {
				return map[string]string{envRedisURL: "unix://doctor-ro:not-" + roPassword + "@" + sharedRedis.Socket}
			},
			wantCode: cli.ExitFailure,
			want: map[string]want{"Redis": {"✗", []string{
				"unix://REDACTED@" + sharedRedis.Socket + ": PING failed: WRONGPASS", "fix: put the credentials in REDIS_URL"}}},
		},
		{
			name: "Redis does not answer in time",
			// As for Slack above: the other checks must pass within it too.
			args: []string{"--timeout", "5s"},
			env: func(s *doctorSetup) map[string]string {
				return map[string]string{envRedisURL: "redis://" + silent.Addr().String() + "/0"}
			},
			wantCode: cli.ExitFailure,
			want: map[string]want{"Redis": {"✗", []string{
				"redis://" + silent.Addr().String() + "/0: PING failed", "fix: check the host and port in REDIS_URL and firewalls"}}},
		},
		{
			name:     "a variable missing",
			env:      func(*doctorSetup) map[string]string { return map[string]string{envSlackAppToken: ""} },
			wantCode: cli.ExitFailure,
			want: map[string]want{
				"configuration":   {"✗", []string{"missing SLACK_APP_TOKEN", "fix: set them in the environment or in"}},
				"Slack app token": {"-", []string{"not checked: fix SLACK_APP_TOKEN first"}},
			},
		},
		{
			name: "several variables malformed",
			env: func(*doctorSetup) map[string]string {
				return map[string]string{envRedisURL: "http://localhost:6379", envPollInterval: "soon", envSlackBotToken: doctorAppToken}
			},
			wantCode: cli.ExitFailure,
			want: map[string]want{
				"configuration": {"✗", []string{
					"SLACK_BOT_TOKEN is not a bot token", `DOCSBOT_POLL_INTERVAL "soon" is not a positive duration`, "REDIS_URL must be a redis://"}},
				"Slack bot token": {"-", []string{"not checked: fix SLACK_BOT_TOKEN first"}},
				"Redis":           {"-", []string{"not checked: fix REDIS_URL first"}},
			},
		},
		{
			name:     "a value that names another variable",
			env:      func(*doctorSetup) map[string]string { return map[string]string{envAllowedUsers: envRedisURL} },
			wantCode: cli.ExitFailure,
			want: map[string]want{
				"configuration": {"✗", []string{`DOCSBOT_ALLOWED_USERS: "REDIS_URL" is not a Slack id`}},
			},
		},
		{
			name:     "unreadable .env",
			dotenv:   "DOCS-API-KEY=" + doctorWrongKey + "\n",
			wantCode: cli.ExitFailure,
			want: map[string]want{
				"configuration":   {"✗", []string{"is not a valid .env file", "fix: write one NAME=value per line"}},
				"Slack bot token": {"-", []string{"not checked: the settings could not be read"}},
				"Slack app token": {"-", []string{"not checked: the settings could not be read"}},
				"Editors":         {"-", []string{"not checked: the settings could not be read"}},
				"docs API":        {"-", []string{"not checked: the settings could not be read"}},
				"Assistant":       {"-", []string{"not checked: the settings could not be read"}},
				"Redis":           {"-", []string{"not checked: the settings could not be read"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newDoctorSetup(t, db.URL)
			env := maps.Clone(s.env)
			if tt.env != nil {
				maps.Copy(env, tt.env(s))
			}
			if tt.prepare != nil {
				tt.prepare(s)
			}
			r, stdout, stderr := testRunner(t, env, tt.dotenv)
			code := runCode(r, append([]string{"doctor"}, tt.args...))
			out := stdout.String()
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d", code, tt.wantCode)
			}
			checks := doctorChecks(t, out)
			failures := 0
			for _, name := range doctorNames() {
				got, ok := checks[name]
				w, special := tt.want[name]
				switch {
				case !ok:
					t.Errorf("no %q line", name)
				case !special && got.mark != "✓":
					t.Errorf("%s: %s %s, want it to pass", name, got.mark, got.text)
				case special && got.mark != w.mark:
					t.Errorf("%s: %s %s, want %s", name, got.mark, got.text, w.mark)
				}
				for _, text := range w.text {
					if !strings.Contains(got.text, text) {
						t.Errorf("%s says %q, want it to contain %q", name, got.text, text)
					}
				}
				if got.mark == "✗" {
					failures++
				}
			}
			if !strings.Contains(out, checkup.Plural(failures, "check")+" failed") {
				t.Errorf("output does not end with the count of %d failures", failures)
			}
			for _, sec := range s.secrets(roPassword, "not-"+roPassword) {
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

// TestDoctorAllPass checks that every check makes its real call, and only
// that: one auth.test, one apps.connections.open without a connection, one
// visitors request of one row, and one key written, read and deleted.
func TestDoctorAllPass(t *testing.T) {
	t.Parallel()
	db := sharedRedis.TakeDB(t)
	s := newDoctorSetup(t, db.URL)
	mon := monitorRedis(t)
	r, stdout, stderr := testRunner(t, s.env, "")
	before := time.Now().UTC().Format(time.DateOnly)
	code := runCode(r, []string{"doctor"})
	after := time.Now().UTC().Format(time.DateOnly)
	out := stdout.String()
	if code != cli.ExitOK {
		t.Fatalf("exit code %d\n%s%s", code, out, stderr)
	}

	checks := doctorChecks(t, out)
	wants := map[string][]string{
		"configuration":   {"all settings present", "environment only, no " + r.env().DotenvPath()},
		"Slack bot token": {bot.SecretKinds().Mask(doctorBotToken) + " works: bot @docsbot (U0DOCTOR) in team doctor-team (T0DOCTOR)"},
		"Slack app token": {bot.SecretKinds().Mask(doctorAppToken) + " works: Socket Mode is on for app A0DOCTOR"},
		"docs API":        {bot.SecretKinds().MaskOr(s.api.Key) + " can read project " + s.api.ProjectID + " at " + s.api.URL},
		"Assistant": {"answers from the docs are off: no docs project has an assistant, so /docs-ask is not served",
			"set DOCS_ASSISTANT_KEY (mint_dsc_…, from the API keys page of the docs dashboard) and DOCS_DOMAIN to turn them on"},
		"Redis": {db.URL + ": PING ok, write ok"},
		"Settings in Slack": {"may set these from docsbot's Home", "DOCSBOT_EDITORS (Editors)", "DOCSBOT_ANSWER_CHANNELS (Answers, per channel)",
			"DOCSBOT_ASK_PER_USER (Questions per person an hour)", "never in Slack: secrets"},
	}
	for _, name := range doctorNames() {
		c := checks[name]
		if c.mark != "✓" {
			t.Errorf("%s: %q %s, want ✓", name, c.mark, c.text)
		}
		for _, w := range wants[name] {
			if !strings.Contains(c.text, w) {
				t.Errorf("%s says %q, want %q", name, c.text, w)
			}
		}
	}
	if !strings.HasSuffix(out, fmt.Sprintf("All %d checks passed.\n", len(doctorNames()))) {
		t.Errorf("output does not end with the summary:\n%s", out)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr)
	}
	for _, sec := range s.secrets() {
		if strings.Contains(out, sec) {
			t.Errorf("output shows the secret %s", bot.SecretKinds().Mask(sec))
		}
	}

	if calls := s.slack.Calls("auth.test"); len(calls) != 1 || calls[0].Token != "bot" {
		t.Errorf("auth.test calls: %+v, want one with the bot token", calls)
	}
	if calls := s.slack.Calls("apps.connections.open"); len(calls) != 1 || calls[0].Token != "app" {
		t.Errorf("apps.connections.open calls: %+v, want one with the app token", calls)
	}
	if n := len(s.slack.Calls("")); n != 2 {
		t.Errorf("%d Slack calls, want 2", n)
	}
	if n := s.slack.Connects(); n != 0 {
		t.Errorf("%d Socket Mode connections opened, want none", n)
	}
	reqs := s.api.Requests()
	if len(reqs) != 1 || reqs[0].Endpoint != docsapitest.EndpointVisitors || reqs[0].Status != 200 {
		t.Fatalf("API requests: %+v, want one visitors request answered 200", reqs)
	}
	if q := reqs[0].Query; q.Get("limit") != "1" || (q.Get("dateFrom") != before && q.Get("dateFrom") != after) || q.Has("dateTo") {
		t.Errorf("visitors query %v, want limit=1 and dateFrom=%s", q, after)
	}

	cmds := mon.commands(t, db)
	if keys, err := db.Client.Keys(context.Background(), "*").Result(); err != nil || len(keys) != 0 {
		t.Errorf("keys left in Redis: %q (%v)", keys, err)
	}
	for _, cmd := range []string{"set", "get", "del"} {
		n := 0
		for _, c := range cmds {
			if c == cmd {
				n++
			}
		}
		if n != 1 {
			t.Errorf("Redis ran %s %d times, want once; commands: %q", strings.ToUpper(cmd), n, cmds)
		}
	}
}

// TestDoctorRedisEviction checks that a Redis with a memory limit must not
// evict docsbot's keys. It changes the server's configuration: a private one.
func TestDoctorRedisEviction(t *testing.T) {
	t.Parallel()
	rs := privateRedis(t)
	s := newDoctorSetup(t, rs.URL)
	rdb := rs.Client()
	defer rdb.Close()
	tests := []struct {
		maxmemory, policy string
		wantCode          int
		want              string
	}{
		{"0", "allkeys-lru", cli.ExitOK, "PING ok, write ok, no memory limit"},
		{"64mb", "noeviction", cli.ExitOK, "PING ok, write ok, maxmemory-policy noeviction"},
		{"64mb", "allkeys-lru", cli.ExitFailure, "but maxmemory-policy is allkeys-lru"},
		{"64mb", "volatile-lru", cli.ExitFailure, "fix: set maxmemory-policy noeviction"},
	}
	for _, tt := range tests { // one Redis: not in parallel
		ctx := context.Background()
		if err := rdb.ConfigSet(ctx, "maxmemory", tt.maxmemory).Err(); err != nil {
			t.Fatal(err)
		}
		if err := rdb.ConfigSet(ctx, "maxmemory-policy", tt.policy).Err(); err != nil {
			t.Fatal(err)
		}
		r, stdout, _ := testRunner(t, s.env, "")
		code := runCode(r, []string{"doctor"})
		c := doctorChecks(t, stdout.String())["Redis"]
		if code != tt.wantCode || !strings.Contains(c.text, tt.want) {
			t.Errorf("maxmemory %s, %s: exit %d, Redis %q; want exit %d and %q", tt.maxmemory, tt.policy, code, c.text, tt.wantCode, tt.want)
		}
	}
}

// TestDoctorBinary runs the built docsbot doctor: once with everything
// working, once with Redis stopped (a private one).
func TestDoctorBinary(t *testing.T) {
	t.Parallel()
	rs := privateRedis(t)
	s := newDoctorSetup(t, rs.URL)
	env := func() []string {
		var out []string
		for k, v := range s.env {
			out = append(out, k+"="+v)
		}
		return out
	}

	res := docsbot(t, nil, env(), "doctor")
	if res.code != cli.ExitOK || strings.Count(res.stdout, "  ✓ ") != len(doctorNames()) {
		t.Fatalf("all working: %s", res)
	}

	if err := rs.Stop(); err != nil {
		t.Fatal(err)
	}
	res = docsbot(t, nil, env(), "doctor")
	redis := doctorChecks(t, res.stdout)["Redis"]
	if res.code != cli.ExitFailure || redis.mark != "✗" || !strings.Contains(redis.text, "PING failed") ||
		strings.Count(res.stdout, "  ✓ ") != len(doctorNames())-1 || !strings.HasSuffix(res.stdout, "1 check failed.\n") {
		t.Fatalf("Redis stopped: %s", res)
	}
	for _, sec := range s.secrets() {
		if strings.Contains(res.stdout+res.stderr, sec) {
			t.Errorf("output shows the secret %s", bot.SecretKinds().Mask(sec))
		}
	}
}

func TestDoctorHelpTellsTheCost(t *testing.T) {
	t.Parallel()
	r, stdout, _ := testRunner(t, nil, "")
	if code := runCode(r, []string{"help", "doctor"}); code != cli.ExitOK {
		t.Fatalf("exit code %d", code)
	}
	for _, want := range []string{"docsbot doctor", "one request of the analytics", "budget (100 an hour", "-timeout duration"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, stdout)
		}
	}
}

// TestDoctorHTTPMode checks that in http mode doctor asks for what that mode
// needs: the signing secret instead of the app-level token, which is not
// tried.
func TestDoctorHTTPMode(t *testing.T) {
	t.Parallel()
	db := sharedRedis.TakeDB(t)
	const secret = "8f742231b10e8888abcd99e1f0a2c3d4"
	tests := []struct {
		name     string
		secret   string
		wantCode int
		want     doctorCheck
	}{
		{"a signing secret", secret, cli.ExitOK, doctorCheck{"✓", bot.SecretKinds().Mask(secret) + " set: Slack's requests to /slack/events, /slack/commands and /slack/interactive on :8080"}},
		{"a token instead", doctorBotToken, cli.ExitFailure, doctorCheck{"✗", bot.SecretKinds().Mask(doctorBotToken) + " does not look like a signing secret (32 hexadecimal characters)\nfix: copy the Signing Secret"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newDoctorSetup(t, db.URL)
			env := maps.Clone(s.env)
			delete(env, envSlackAppToken)
			env[envSlackMode], env[envSigningSecret] = "http", tt.secret
			r, stdout, stderr := testRunner(t, env, "")
			code := runCode(r, []string{"doctor"})
			out := stdout.String()
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d\n%s%s", code, tt.wantCode, out, stderr)
			}
			checks := doctorChecks(t, out)
			for _, name := range []string{"configuration", "Slack bot token", "docs API", "Redis"} {
				if c := checks[name]; c.mark != "✓" {
					t.Errorf("%s: %q %s, want ✓", name, c.mark, c.text)
				}
			}
			if c := checks["Signing secret"]; c.mark != tt.want.mark || !strings.Contains(c.text, tt.want.text) {
				t.Errorf("Signing secret: %s %q, want %s %q", c.mark, c.text, tt.want.mark, tt.want.text)
			}
			if _, ok := checks["Slack app token"]; ok {
				t.Errorf("the app token is checked in http mode:\n%s", out)
			}
			if n := len(s.slack.Calls("apps.connections.open")); n != 0 {
				t.Errorf("%d apps.connections.open calls in http mode, want none", n)
			}
			if strings.Contains(out+stderr.String(), tt.secret) {
				t.Errorf("output shows the signing secret:\n%s", out)
			}
		})
	}
}

// TestDoctorWarnsWhenNobodyEdits: with nobody named an editor, doctor says
// that everyone in the workspace can open pull requests, with the fix, and
// still passes (exit 0): a warning, not a failure.
func TestDoctorWarnsWhenNobodyEdits(t *testing.T) {
	t.Parallel()
	db := sharedRedis.TakeDB(t)
	s := newDoctorSetup(t, db.URL)
	delete(s.env, config.EnvEditors)
	r, stdout, stderr := testRunner(t, s.env, "")
	if code := runCode(r, []string{"doctor"}); code != cli.ExitOK {
		t.Fatalf("exit code %d\n%s%s", code, stdout, stderr)
	}
	out := stdout.String()
	c := doctorChecks(t, out)["Editors"]
	if c.mark != "!" || !strings.Contains(c.text, "everyone in the workspace can start docs agent jobs") {
		t.Errorf("Editors: %q %s, want a warning that everyone may start jobs", c.mark, c.text)
	}
	if !strings.Contains(out, "fix: set DOCSBOT_EDITORS") || !strings.HasSuffix(out, fmt.Sprintf("All %d checks passed, 1 warning.\n", len(doctorNames()))) {
		t.Errorf("doctor's output lacks the fix or the summary:\n%s", out)
	}
}

// TestDoctorFirstRun: with DOCSBOT_SECRETS_KEY and no docs settings,
// doctor passes and says the docs are connected from Slack, with no
// assistant check, and warns that nobody is named an editor.
func TestDoctorFirstRun(t *testing.T) {
	t.Parallel()
	db := sharedRedis.TakeDB(t)
	s := newDoctorSetup(t, db.URL)
	for _, k := range []string{envAPIKey, envProject, config.EnvEditors} {
		delete(s.env, k)
	}
	s.env[config.EnvSecretsKey] = base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	r, stdout, stderr := testRunner(t, s.env, "")
	if code := runCode(r, []string{"doctor"}); code != cli.ExitOK {
		t.Fatalf("exit code %d\n%s%s", code, stdout, stderr)
	}
	checks := doctorChecks(t, stdout.String())
	if c := checks["docs API"]; c.mark != "✓" || !strings.Contains(c.text, "connect its docs from the Settings of docsbot's Home") {
		t.Errorf("docs API: %q %s", c.mark, c.text)
	}
	if c, ok := checks["Assistant"]; ok {
		t.Errorf("an assistant check with no docs: %q %s", c.mark, c.text)
	}
	if c := checks["Editors"]; c.mark != "!" || !strings.Contains(c.text, "docs connected from Slack") {
		t.Errorf("Editors: %q %s", c.mark, c.text)
	}
}
