package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/cmd/internal/cli"
	"github.com/docsbot/docsbot/cmd/internal/config"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store/redistest"
)

const (
	testBotToken      = "xoxb-test-bot-token"
	testAppToken      = "xapp-test-app-token"
	testAPIKey        = "mint_serve_test_key_00000000"
	testSigningSecret = "0123456789abcdef0123456789abcdef"
)

func TestServeConfigProblemsNameTheVariable(t *testing.T) {
	t.Parallel()
	full := map[string]string{
		envSlackBotToken: testBotToken, envSlackAppToken: testAppToken,
		envAPIKey: testAPIKey, envProject: "proj",
	}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for a, b := range full {
			m[a] = b
		}
		m[k] = v
		return m
	}
	tests := []struct {
		name   string
		env    map[string]string
		dotenv string
		want   []string
	}{
		{"nothing set", map[string]string{}, "", []string{"missing SLACK_BOT_TOKEN, SLACK_APP_TOKEN, DOCS_API_KEY, DOCS_PROJECT_ID"}},
		{"tokens swapped", with(envSlackBotToken, testAppToken), "", []string{"SLACK_BOT_TOKEN is not a bot token"}},
		{"app token of the wrong kind", with(envSlackAppToken, testBotToken), "", []string{"SLACK_APP_TOKEN is not an app-level token"}},
		{"bad redis url", with(envRedisURL, "http://localhost:6379"), "", []string{"REDIS_URL must be a redis://"}},
		{"bad interval", with(envPollInterval, "soon"), "", []string{`DOCSBOT_POLL_INTERVAL "soon" is not a positive duration`}},
		{"max below first", with(envPollMaxInterval, "1s"), "", []string{"DOCSBOT_POLL_MAX_INTERVAL (1s) is shorter than DOCSBOT_POLL_INTERVAL (10s)"}},
		{"bad user id", with(envAllowedUsers, "U0ALICE, alice"), "", []string{`DOCSBOT_ALLOWED_USERS: "alice" is not a Slack id`}},
		{"bad channel id", with(envAllowedChannels, "#general"), "", []string{`DOCSBOT_ALLOWED_CHANNELS: "#general" is not a Slack id`}},
		{"bad budget", with(envVisitorsBudget, "lots"), "", []string{`DOCSBOT_VISITORS_BUDGET "lots" must be a whole number`}},
		{"bad digest time", with(envDigestTime, "Mon 25:00 Mars/Olympus"), "", []string{`DOCSBOT_DIGEST_TIME "Mon 25:00 Mars/Olympus" is not a digest time`}},
		{"bad log format", with(envLogFormat, "xml"), "", []string{`DOCSBOT_LOG_FORMAT "xml" must be text or json`}},
		{"bad slack url", with(envSlackAPIURL, "slack.com/api"), "", []string{"SLACK_API_URL"}},
		{"bad API URL and no key", map[string]string{envSlackBotToken: testBotToken, envSlackAppToken: testAppToken, envProject: "proj", envAPIURL: "api.example"}, "",
			[]string{"missing DOCS_API_KEY", `DOCS_API_URL "api.example" (from environment variable DOCS_API_URL) is not an http(s) URL`}},
		{"tokens from .env", map[string]string{envAPIKey: testAPIKey, envProject: "proj"}, "SLACK_BOT_TOKEN=" + testBotToken + "\n", []string{"missing SLACK_APP_TOKEN"}},
		{"unknown mode", with(envSlackMode, "websocket"), "", []string{`DOCSBOT_SLACK_MODE "websocket" must be socket or http`}},
		{"http mode needs the signing secret, not the app token", map[string]string{envSlackMode: "http", envSlackBotToken: testBotToken, envAPIKey: testAPIKey, envProject: "proj"}, "",
			[]string{"missing SLACK_SIGNING_SECRET"}},
		{"http mode needs the HTTP address", map[string]string{envSlackMode: "http", envSigningSecret: testSigningSecret, envSlackBotToken: testBotToken, envAPIKey: testAPIKey, envProject: "proj"}, "DOCSBOT_HTTP_ADDR=\n",
			[]string{"DOCSBOT_HTTP_ADDR is empty, but in http mode Slack's requests are served there"}},
		{"ops address the same as the HTTP address", map[string]string{envSlackMode: "http", envSigningSecret: testSigningSecret, envSlackBotToken: testBotToken, envAPIKey: testAPIKey, envProject: "proj",
			envHTTPAddr: ":8080", envOpsAddr: "0.0.0.0:8080"}, "",
			[]string{"DOCSBOT_OPS_ADDR (0.0.0.0:8080) is the address of DOCSBOT_HTTP_ADDR (:8080)"}},
		{"ops address the same as the default HTTP address", map[string]string{envSlackMode: "http", envSigningSecret: testSigningSecret, envSlackBotToken: testBotToken, envAPIKey: testAPIKey, envProject: "proj",
			envOpsAddr: ":8080"}, "",
			[]string{"DOCSBOT_OPS_ADDR (:8080) is the address of DOCSBOT_HTTP_ADDR (:8080)"}},
		{"ops address malformed", with(envOpsAddr, "9090"), "", []string{`DOCSBOT_OPS_ADDR "9090" is not a listen address`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, _, _ := testRunner(t, tt.env, tt.dotenv)
			_, err := r.loadServeConfig(flagValues{})
			if err == nil {
				t.Fatal("no error")
			}
			var buf bytes.Buffer
			if code := cli.Report(&buf, err); code != cli.ExitUsage {
				t.Errorf("exit code %d, want %d", code, cli.ExitUsage)
			}
			for _, w := range tt.want {
				if !strings.Contains(buf.String(), w) {
					t.Errorf("message %q lacks %q", buf.String(), w)
				}
			}
			for _, secret := range []string{testBotToken, testAppToken, testAPIKey, testSigningSecret} {
				if strings.Contains(buf.String(), secret) {
					t.Errorf("message shows a secret: %q", buf.String())
				}
			}
			if tt.env[envSlackMode] == "http" && strings.Contains(buf.String(), envSlackAppToken) {
				t.Errorf("http mode asks for %s: %q", envSlackAppToken, buf.String())
			}
		})
	}
}

func TestServeConfigDefaultsAndOverrides(t *testing.T) {
	t.Parallel()
	r, _, _ := testRunner(t, map[string]string{
		envSlackBotToken: testBotToken, envSlackAppToken: testAppToken,
		envAPIKey: testAPIKey, envProject: "proj",
		envPollInterval: "2s", envAllowedChannels: "C0GENERAL,G0SECRET",
	}, "DOCSBOT_POLL_MAX_INTERVAL=30s\nREDIS_URL=unix:///run/redis.sock\n")
	cfg, err := r.loadServeConfig(flagValues{envLogLevel: "debug", envSlackAPIURL: "http://127.0.0.1:9/api"})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"poll interval from env", cfg.Agent.PollInterval, 2 * time.Second},
		{"poll max from .env", cfg.Agent.PollMaxInterval, 30 * time.Second},
		{"visitors ttl default", cfg.Visitors.CacheTTL, 10 * time.Minute},
		{"redis from .env", cfg.RedisURL, "unix:///run/redis.sock"},
		{"slack url from flag gets its slash", cfg.SlackAPIURL, "http://127.0.0.1:9/api/"},
		{"channels", strings.Join(cfg.Bot.AllowedChannels, ","), "C0GENERAL,G0SECRET"},
		{"users default to everyone", len(cfg.Bot.AllowedUsers), 0},
		{"log level from flag", cfg.LogLevel.String(), "DEBUG"},
		{"log format default", cfg.LogFormat, "text"},
		{"socket mode by default", cfg.Bot.Mode, bot.ModeSocket},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestServeBinary runs the built docsbot as the Slack bot against the fake
// Slack server, the API test server and a real redis-server (a private one:
// the test stops it), drives a job to its end, then stops it with SIGTERM.
func TestServeBinary(t *testing.T) {
	t.Parallel()
	rs := privateRedis(t)
	sl := slacktest.NewServer(slacktest.WithPingInterval(500 * time.Millisecond))
	t.Cleanup(sl.Close)
	api := docsapitest.NewServer()
	t.Cleanup(api.Close)

	ops := "http://" + freeAddr(t)
	cmd := docsbotCmd(t, api, []string{
		envSlackBotToken + "=" + testBotToken, envSlackAppToken + "=" + testAppToken,
		envSlackAPIURL + "=" + sl.APIURL, envRedisURL + "=" + rs.URL,
		envPollInterval + "=50ms", envPollMaxInterval + "=200ms", envLogFormat + "=json",
		envHTTPAddr + "=" + strings.TrimPrefix(ops, "http://"),
	}, "serve")
	stderr, done := startServe(t, cmd)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	firstJob(ctx, t, sl, stderr, "Document the serve command")

	// The ops endpoint: alive, ready, and counting what just happened.
	waitHTTP(t, ops+"/readyz", http.StatusOK, "ready")
	waitHTTP(t, ops+"/healthz", http.StatusOK, "ok")
	for _, want := range []string{
		`docsbot_commands_total{command="/docs-agent"} 1`,
		`docsbot_jobs_created_total 1`,
		`docsbot_notifications_total{status="completed"} 1`,
		`docsbot_api_requests_total{code="201",endpoint="create_job"} 1`,
		`docsbot_slack_connects_total 1`,
		`docsbot_poll_lag_seconds_count`,
	} {
		waitHTTP(t, ops+"/metrics", http.StatusOK, want)
	}
	// Unready while Redis is down, ready again when it is back.
	if err := rs.Stop(); err != nil {
		t.Fatal(err)
	}
	waitHTTP(t, ops+"/readyz", http.StatusServiceUnavailable, "redis unreachable")
	if err := rs.Restart(); err != nil {
		t.Fatal(err)
	}
	waitHTTP(t, ops+"/readyz", http.StatusOK, "ready")

	stopServe(t, cmd, done, stderr)
	logs := stderr.String()
	for _, secret := range []string{testBotToken, testAppToken, api.Key} {
		if strings.Contains(logs, secret) {
			t.Errorf("logs contain a secret")
		}
	}
	if !strings.Contains(logs, `"msg":"agent job started"`) {
		t.Errorf("json logs lack the job start:\n%s", logs)
	}
}

// TestServeBinaryHTTPMode runs the built docsbot in http mode: Slack's
// signed requests reach it on DOCSBOT_HTTP_ADDR, without an app-level token,
// and a job runs to its end. The ops endpoint is served beside Slack's
// request URLs, or, with DOCSBOT_OPS_ADDR, on a listener of its own: then
// the Slack listener answers 404 to /healthz, /readyz and /metrics, and the
// ops listener 404 to Slack's request paths.
func TestServeBinaryHTTPMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		opsApart bool
	}{
		{"ops endpoint beside Slack's request URLs", false},
		{"ops endpoint on DOCSBOT_OPS_ADDR", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := sharedRedis.TakeDB(t)
			addr := freeAddr(t)
			base := "http://" + addr
			sl := slacktest.NewServer(slacktest.WithHTTPDelivery(base, testSigningSecret))
			t.Cleanup(sl.Close)
			api := docsapitest.NewServer()
			t.Cleanup(api.Close)

			env := []string{
				envSlackMode + "=http", envSigningSecret + "=" + testSigningSecret, envSlackBotToken + "=" + testBotToken,
				envSlackAPIURL + "=" + sl.APIURL, envRedisURL + "=" + db.URL,
				envPollInterval + "=50ms", envPollMaxInterval + "=200ms", envHTTPAddr + "=" + addr,
			}
			ops := base
			if !tc.opsApart {
				env = append(env, envOpsAddr+"=") // set empty: beside Slack's
			}
			if tc.opsApart {
				opsAddr := freeAddr(t)
				ops = "http://" + opsAddr
				env = append(env, envOpsAddr+"="+opsAddr)
			}
			cmd := docsbotCmd(t, api, env, "serve")
			stderr, done := startServe(t, cmd)

			waitHTTP(t, ops+"/readyz", http.StatusOK, "ready")
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if err := sl.VerifyURL(ctx); err != nil {
				t.Fatalf("url_verification: %v\n%s", err, stderr.String())
			}
			if ans, err := sl.SendBadSignature(ctx, slacktest.PathCommands, []byte("command=%2Fdocs-agent&text=forged")); err != nil || ans.Status != http.StatusUnauthorized {
				t.Errorf("a request signed with another secret: %d %v, want 401", ans.Status, err)
			}
			if _, err := sl.SlashCommand(ctx, slacktest.SlashCommand{Command: "/docs-agent", Text: "Document HTTP mode", UserID: "U0ALICE", ChannelID: "C0GENERAL"}); err != nil {
				t.Fatal(err)
			}
			waitPullRequest(ctx, t, sl, stderr)
			if n := sl.Connects(); n != 0 {
				t.Errorf("%d Socket Mode connections in http mode, want none", n)
			}
			for _, want := range []string{
				`docsbot_slack_requests_total{code="401",path="/slack/commands"} 1`,
				`docsbot_slack_requests_total{code="200",path="/slack/events"}`,
				`docsbot_jobs_created_total 1`,
			} {
				waitHTTP(t, ops+"/metrics", http.StatusOK, want)
			}
			waitHTTP(t, ops+"/healthz", http.StatusOK, "ok")
			if tc.opsApart {
				// The listener Slack (and so the internet) reaches serves
				// Slack's paths alone; the ops listener none of them.
				for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
					if got := statusOf(t, http.MethodGet, base+path); got != http.StatusNotFound {
						t.Errorf("GET %s on the Slack listener: %d, want 404", path, got)
					}
				}
				for _, path := range []string{bot.PathEvents, bot.PathCommands, bot.PathInteractive} {
					for _, method := range []string{http.MethodPost, http.MethodGet} {
						if got := statusOf(t, method, ops+path); got != http.StatusNotFound {
							t.Errorf("%s %s on the ops listener: %d, want 404", method, path, got)
						}
					}
				}
			}

			stopServe(t, cmd, done, stderr)
			logs := stderr.String()
			for _, secret := range []string{testBotToken, testSigningSecret, api.Key} {
				if strings.Contains(logs, secret) {
					t.Errorf("logs contain a secret")
				}
			}
			if !strings.Contains(logs, "slack request refused") {
				t.Errorf("logs lack the refused request:\n%s", logs)
			}
		})
	}
}

// statusOf is the status a plain request (no body) gets from url.
func statusOf(t *testing.T, method, url string) int {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// startServe starts cmd (docsbot serve) and returns its stderr and the
// channel its exit arrives on; the test's end kills it.
func startServe(t *testing.T, cmd *exec.Cmd) (*bytes.Buffer, chan error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return &stderr, done
}

// firstJob waits until the bot `docsbot serve` started connects, has Alice
// start a job with prompt in C0GENERAL, and waits for its pull request.
func firstJob(ctx context.Context, t *testing.T, sl *slacktest.Server, stderr *bytes.Buffer, prompt string) {
	t.Helper()
	if err := sl.WaitConnections(ctx, 1); err != nil {
		t.Fatalf("the bot did not connect: %v\n%s", err, stderr.String())
	}
	if _, err := sl.SlashCommand(ctx, slacktest.SlashCommand{Command: "/docs-agent", Text: prompt, UserID: "U0ALICE", ChannelID: "C0GENERAL"}); err != nil {
		t.Fatal(err)
	}
	waitPullRequest(ctx, t, sl, stderr)
}

// waitPullRequest waits until the one job of C0GENERAL has its pull request
// posted in its thread.
func waitPullRequest(ctx context.Context, t *testing.T, sl *slacktest.Server, stderr *bytes.Buffer) {
	t.Helper()
	err := sl.WaitFor(ctx, func() bool {
		msgs := sl.Messages("C0GENERAL")
		if len(msgs) != 1 {
			return false
		}
		for _, m := range sl.Thread("C0GENERAL", msgs[0].TS) {
			if strings.Contains(m.Text, "opened a pull request") {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("no result in the thread: %v\n%s", err, stderr.String())
	}
}

// stopServe sends SIGTERM and checks that docsbot exits 0 within 15s.
func stopServe(t *testing.T, cmd *exec.Cmd, done chan error, stderr *bytes.Buffer) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var ee interface{ ExitCode() int }
		if err != nil && errors.As(err, &ee) {
			t.Errorf("exit code %d after SIGTERM, want 0\n%s", ee.ExitCode(), stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("docsbot did not stop within 15s of SIGTERM")
	}
}

func TestServeStopsOnRejectedToken(t *testing.T) {
	t.Parallel()
	db := sharedRedis.TakeDB(t)
	sl := slacktest.NewServer()
	t.Cleanup(sl.Close)
	api := docsapitest.NewServer()
	t.Cleanup(api.Close)
	res := docsbot(t, api, []string{
		envSlackBotToken + "=xoxb-revoked", envSlackAppToken + "=" + testAppToken,
		envSlackAPIURL + "=" + sl.APIURL, envRedisURL + "=" + db.URL,
		envHTTPAddr + "=", // off: the test must not depend on a free :8080
	}, "serve")
	if res.code != cli.ExitFailure || !strings.Contains(res.stderr, "Slack refused SLACK_BOT_TOKEN (invalid_auth)") {
		t.Errorf("exit %d, stderr %q", res.code, res.stderr)
	}
	if strings.Contains(res.stderr, "xoxb-revoked") {
		t.Errorf("stderr shows the token")
	}
}

// TestServeRedisUnreachable checks that a Redis that cannot be reached stops
// the bot with one plain message: the address once, the cause, no password.
func TestServeRedisUnreachable(t *testing.T) {
	t.Parallel()
	api := newServer(t)
	const password = "serve-redis-Secret-pw-0987"
	where := "redis://REDACTED@127.0.0.1:1/0"
	res := docsbot(t, api, []string{
		envSlackBotToken + "=" + testBotToken, envSlackAppToken + "=" + testAppToken,
		envSlackAPIURL + "=http://127.0.0.1:1/api/", envRedisURL + "=redis://:" + password + "@127.0.0.1:1/0",
		envHTTPAddr + "=",
	}, "serve")
	if res.code != cli.ExitFailure || !strings.Contains(res.stderr, "docsbot: cannot reach Redis at "+where+": ") ||
		!strings.Contains(res.stderr, "connection refused") || !strings.Contains(res.stderr, "start Redis or point REDIS_URL at it") {
		t.Fatalf("want exit 1 and the reason Redis cannot be reached: %s", res)
	}
	if strings.Count(res.stderr, where) != 1 || strings.Contains(res.stderr, "store:") || strings.Contains(res.stderr, password) {
		t.Errorf("the message repeats itself or shows the password: %s", res)
	}
}

// TestEnvExampleListsEverySetting keeps deploy/.env.example complete.
func TestEnvExampleListsEverySetting(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../deploy/.env.example")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range settingsTable() {
		if !strings.Contains(string(raw), s.Env+"=") {
			t.Errorf("deploy/.env.example does not list %s", s.Env)
		}
	}
}

// TestReadmeListsEverySetting keeps the README's configuration table the
// same as the settings table: every setting a row with its default and
// meaning, and no row for a setting docsbot does not read.
func TestReadmeListsEverySetting(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if name, ok := strings.CutPrefix(line, "| `"); ok {
			if env, _, ok := strings.Cut(name, "`"); ok && strings.ToUpper(env) == env && strings.Contains(env, "_") {
				rows[env] = line
			}
		}
	}
	known := map[string]bool{}
	for _, s := range settingsTable() {
		known[s.Env] = true
		row, ok := rows[s.Env]
		want := "`" + s.Default + "`"
		if s.Default == "" {
			want = "(" + s.None + ")"
		}
		switch {
		case !ok:
			t.Errorf("the README's configuration table has no row for %s", s.Env)
		case !strings.Contains(row, " | "+want+" | ") || !strings.HasSuffix(row, " | "+s.Doc+" |"):
			t.Errorf("README row %q, want default %s and meaning %q", row, want, s.Doc)
		}
	}
	for env := range rows {
		if !known[env] {
			t.Errorf("the README lists %s, which docsbot does not read", env)
		}
	}
}

// freeAddr returns a loopback address with a port free right now, out of
// the range outgoing connections take their local ports from.
func freeAddr(t *testing.T) string {
	t.Helper()
	addr := redistest.FreeAddr()
	if strings.HasSuffix(addr, ":0") {
		t.Fatal("no free port on 127.0.0.1")
	}
	return addr
}

// waitHTTP polls url until it answers status with a body containing want.
func waitHTTP(t *testing.T, url string, status int, want string) {
	t.Helper()
	var last string
	answered := false
	defer func() {
		if !answered {
			t.Logf("GET %s: last answer: %.2000s", url, last)
		}
	}()
	redistest.Until(t, fmt.Sprintf("GET %s to answer %d with %q", url, status, want), func() bool {
		resp, err := http.Get(url)
		if err != nil {
			last = err.Error()
			return false
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		last = fmt.Sprintf("%d %s", resp.StatusCode, body)
		return resp.StatusCode == status && strings.Contains(string(body), want)
	})
	answered = true
}

// TestServeBinaryFirstRun runs the built docsbot with DOCSBOT_SECRETS_KEY
// and no docs settings: it starts, and a command is told, privately, that
// no docs are connected and where an admin connects them.
func TestServeBinaryFirstRun(t *testing.T) {
	t.Parallel()
	rs := privateRedis(t)
	sl := slacktest.NewServer(slacktest.WithPingInterval(500 * time.Millisecond))
	t.Cleanup(sl.Close)
	cmd := docsbotCmd(t, nil, []string{
		envSlackBotToken + "=" + testBotToken, envSlackAppToken + "=" + testAppToken,
		envSlackAPIURL + "=" + sl.APIURL, envRedisURL + "=" + rs.URL, envLogFormat + "=json",
		config.EnvSecretsKey + "=" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{5}, 32)),
	}, "serve")
	stderr, done := startServe(t, cmd)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := sl.WaitConnections(ctx, 1); err != nil {
		t.Fatalf("no connection: %v\n%s", err, stderr)
	}
	ack, err := sl.SlashCommand(ctx, slacktest.SlashCommand{Command: "/docs-agent", Text: "Document the webhooks", UserID: "U0ALICE", ChannelID: "C0GENERAL"})
	if err != nil || !strings.Contains(string(ack.Payload), "no docs connected in this workspace") {
		t.Errorf("a command on the first run was answered %s (%v)", ack.Payload, err)
	}
	stopServe(t, cmd, done, stderr)
	if logs := stderr.String(); !strings.Contains(logs, "connect its docs from the Settings of docsbot's Home") {
		t.Errorf("the start log does not say where docs are connected:\n%s", logs)
	}
}
