package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/redact"
	"github.com/docsbot/docsbot/store"
)

const doctorUsage = `docsbot doctor [flags]

Checks the settings of the Slack bot and, with real calls, every service it
depends on, then prints one line per check and the fix for each failure:

  configuration     every setting of 'docsbot serve' is present and well formed
  Slack bot token   auth.test with SLACK_BOT_TOKEN
  Slack app token   apps.connections.open with SLACK_APP_TOKEN (Socket Mode);
                    no connection is opened
  docs API          DOCS_API_KEY and DOCS_PROJECT_ID read one row of today's
                    unique visitors. This costs one request of the analytics
                    budget (100 an hour for the whole organization).
  Redis             PING, then SET, GET and DEL of one key under docsbot:
                    that expires by itself; and, when Redis allows CONFIG GET,
                    that a memory limit never evicts docsbot's keys

Settings are read as by 'docsbot serve': flags, then the environment, then
./.env. Secrets are shown masked (xoxb-…abcd). The exit code is 0 when every
check passed and 1 otherwise.
`

// doctorTimeout is the default time limit of each check.
const doctorTimeout = 10 * time.Second

// checkState is how a doctor check ended.
type checkState int

const (
	checkPassed checkState = iota
	checkFailed
	checkSkipped // not run, because a setting it needs is missing or wrong
)

// checkResult is the outcome of one doctor check, as printed.
type checkResult struct {
	name  string
	state checkState
	// lines describe the outcome: the first on the check's line, the others
	// below it. They never hold a secret, at most its masked form.
	lines []string
	// fix tells what to do about a failure.
	fix string
}

func passed(name, line string) checkResult {
	return checkResult{name: name, state: checkPassed, lines: []string{line}}
}

func failed(name, line, fix string) checkResult {
	return checkResult{name: name, state: checkFailed, lines: []string{line}, fix: fix}
}

// dependency is one service check of the doctor: the settings it needs and
// how to run it.
type dependency struct {
	name string
	// needs lists the variables the check cannot run without.
	needs []string
	run   func(ctx context.Context) checkResult
}

// runDoctor checks the configuration and every dependency of the bot.
func (r *runner) runDoctor(ctx context.Context, args []string) error {
	fs := r.flagSet("doctor", doctorUsage)
	var f serveFlags
	f.register(fs)
	timeout := fs.Duration("timeout", doctorTimeout, "time limit of each check")
	pos, err := r.parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError(fmt.Sprintf("doctor takes no arguments, got %q", pos[0]), "run 'docsbot doctor' alone; 'docsbot help doctor' lists its flags")
	}
	if *timeout <= 0 {
		return usageError("--timeout must be positive", "for example --timeout 10s")
	}

	fmt.Fprintln(r.stdout, "docsbot doctor")
	cfg, cfgErr := r.loadServeConfig(f)
	results := []checkResult{r.configCheck(cfg, cfgErr)}
	deps := r.dependencies(cfg)
	depResults := make([]checkResult, len(deps))
	var wg sync.WaitGroup
	for i, d := range deps {
		if why := blockedBy(cfg, cfgErr, d.needs); why != "" {
			depResults[i] = checkResult{name: d.name, state: checkSkipped, lines: []string{"not checked: " + why}}
			continue
		}
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, *timeout)
			defer cancel()
			depResults[i] = d.run(cctx)
		})
	}
	wg.Wait()
	results = append(results, depResults...)

	printChecks(r.stdout, results)
	if ctx.Err() != nil {
		return &exitError{code: exitInterrupted, msg: "interrupted", err: ctx.Err()}
	}
	for _, res := range results {
		if res.state != checkPassed {
			return &exitError{code: exitFailure, quiet: true, msg: "docsbot doctor found problems"}
		}
	}
	return nil
}

// configCheck turns the outcome of loadServeConfig into the first check.
func (r *runner) configCheck(cfg serveConfig, err error) checkResult {
	const name = "configuration"
	if err == nil {
		where := ".env: " + r.dotenvPath()
		if _, statErr := os.Stat(r.dotenvPath()); errors.Is(statErr, fs.ErrNotExist) {
			where = "environment only, no " + r.dotenvPath()
		}
		return passed(name, "all settings present ("+where+")")
	}
	res := checkResult{name: name, state: checkFailed}
	var ee *exitError
	if errors.As(err, &ee) {
		res.fix = ee.fix
	}
	var lines []string
	for _, p := range cfg.problems {
		lines = append(lines, p.text)
	}
	if len(lines) == 0 { // the settings could not be read at all
		if ee != nil {
			lines = []string{ee.msg}
		} else {
			lines = []string{err.Error()}
		}
	}
	for _, l := range lines {
		res.lines = append(res.lines, strings.Split(strings.TrimRight(l, "\n"), "\n")...)
	}
	return res
}

// blockedBy says why a check that needs the variables needs cannot run, or ""
// when it can.
func blockedBy(cfg serveConfig, cfgErr error, needs []string) string {
	if cfgErr != nil && len(cfg.problems) == 0 {
		return "the settings could not be read"
	}
	var bad []string
	for _, name := range needs {
		if slices.ContainsFunc(cfg.problems, func(p problem) bool { return slices.Contains(p.vars, name) }) {
			bad = append(bad, name)
		}
	}
	if len(bad) > 0 {
		return "fix " + strings.Join(bad, " and ") + " first"
	}
	return ""
}

// dependencies lists the service checks in the order they are printed.
func (r *runner) dependencies(cfg serveConfig) []dependency {
	return []dependency{
		{name: "Slack bot token", needs: []string{envSlackBotToken, envSlackAPIURL}, run: func(ctx context.Context) checkResult {
			return checkBotToken(ctx, cfg)
		}},
		{name: "Slack app token", needs: []string{envSlackAppToken, envSlackAPIURL}, run: func(ctx context.Context) checkResult {
			return checkAppToken(ctx, cfg)
		}},
		{name: "docs API", needs: []string{envAPIKey, envProject, envAPIURL}, run: func(ctx context.Context) checkResult {
			return r.checkDocsAPI(ctx, cfg)
		}},
		{name: "Redis", needs: []string{envRedisURL}, run: func(ctx context.Context) checkResult {
			return checkRedis(ctx, cfg)
		}},
	}
}

// printChecks writes one line per check, with further lines and the fix of
// a failure indented below it, and a last line that sums up.
func printChecks(w io.Writer, results []checkResult) {
	const nameWidth = 20
	var nFailed, nSkipped int
	for _, res := range results {
		mark := "✓"
		switch res.state {
		case checkFailed:
			mark = "✗"
			nFailed++
		case checkSkipped:
			mark = "-"
			nSkipped++
		}
		first := ""
		if len(res.lines) > 0 {
			first = res.lines[0]
		}
		fmt.Fprintf(w, "  %s %-*s%s\n", mark, nameWidth, res.name, first)
		for _, l := range res.lines[min(1, len(res.lines)):] {
			fmt.Fprintf(w, "    %-*s%s\n", nameWidth, "", l)
		}
		if res.state == checkFailed && res.fix != "" {
			fmt.Fprintf(w, "      fix: %s\n", res.fix)
		}
	}
	switch {
	case nFailed == 0 && nSkipped == 0:
		fmt.Fprintf(w, "All %d checks passed.\n", len(results))
	case nSkipped == 0:
		fmt.Fprintf(w, "%s failed.\n", plural(nFailed, "check"))
	default:
		fmt.Fprintf(w, "%s failed, %d not run.\n", plural(nFailed, "check"), nSkipped)
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// slackOptions are the client options every Slack check uses.
func slackOptions(cfg serveConfig) []slack.Option {
	return []slack.Option{slack.OptionAPIURL(cfg.slackAPIURL)}
}

// viaURL names a Slack API base that is not the default one.
func viaURL(cfg serveConfig) string {
	if cfg.slackAPIURL == defaultOf(envSlackAPIURL) {
		return ""
	}
	return " at " + cfg.slackAPIURL
}

const (
	fixBotToken = "copy the Bot User OAuth Token (xoxb-...) from the OAuth & Permissions page of the Slack app into " +
		envSlackBotToken + ", and reinstall the app if it was revoked"
	fixAppToken = "create an app-level token with the connections:write scope on the Basic Information page of the Slack app, " +
		"put it in " + envSlackAppToken + ", and turn Socket Mode on"
)

// checkBotToken calls auth.test with the bot token.
func checkBotToken(ctx context.Context, cfg serveConfig) checkResult {
	const name = "Slack bot token"
	masked := redact.Mask(cfg.botToken)
	client := slack.New(cfg.botToken, slackOptions(cfg)...)
	resp, err := client.AuthTestContext(ctx)
	if err != nil {
		line, fix := slackFailure(ctx, err, cfg, fixBotToken)
		return failed(name, masked+" "+redact.Scrub(line, cfg.botToken, cfg.appToken), fix)
	}
	return passed(name, fmt.Sprintf("%s works: bot @%s (%s) in team %s (%s)%s",
		masked, resp.User, resp.UserID, resp.Team, resp.TeamID, viaURL(cfg)))
}

// checkAppToken asks apps.connections.open for a Socket Mode URL with the
// app-level token. The URL is not dialled, so no connection is opened.
func checkAppToken(ctx context.Context, cfg serveConfig) checkResult {
	const name = "Slack app token"
	masked := redact.Mask(cfg.appToken)
	client := slack.New("", append(slackOptions(cfg), slack.OptionAppLevelToken(cfg.appToken))...)
	_, wsURL, err := client.StartSocketModeContext(ctx)
	if err != nil {
		line, fix := slackFailure(ctx, err, cfg, fixAppToken)
		return failed(name, masked+" "+redact.Scrub(line, cfg.botToken, cfg.appToken), fix)
	}
	app := ""
	if u, err := url.Parse(wsURL); err == nil && u.Query().Get("app_id") != "" {
		app = " for app " + u.Query().Get("app_id")
	}
	return passed(name, fmt.Sprintf("%s works: Socket Mode is on%s (connection URL issued, not opened)%s", masked, app, viaURL(cfg)))
}

// slackFailure explains a failed Slack call: what happened, and what to do,
// with tokenFix for a refused token.
func slackFailure(ctx context.Context, err error, cfg serveConfig, tokenFix string) (line, fix string) {
	var (
		se slack.SlackErrorResponse
		rl *slack.RateLimitedError
		sc slack.StatusCodeError
	)
	switch {
	case errors.As(err, &se):
		line = "refused (" + se.Err + ")"
		if se.Err == "missing_scope" && se.Needed != "" {
			line = "refused (missing_scope: needs " + se.Needed + ")"
		}
		return line, tokenFix
	case errors.As(err, &rl):
		return fmt.Sprintf("could not be checked: Slack is rate limiting this app, try again in %s", docsapi.RoundUp(rl.RetryAfter)),
			"wait, then run docsbot doctor again"
	case errors.As(err, &sc):
		return "could not be checked: Slack answered " + sc.Status, "this is on Slack's side: try again in a moment (status.slack.com)"
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "could not be checked: no answer from Slack" + viaURL(cfg) + " in time",
			"check " + envSlackAPIURL + " (" + cfg.slackAPIURL + "), proxies and that outbound HTTPS is allowed"
	}
	return "could not be checked: cannot reach Slack: " + err.Error(),
		"check " + envSlackAPIURL + " (" + cfg.slackAPIURL + "), DNS, proxies and that outbound HTTPS is allowed"
}

// checkDocsAPI reads one row of today's unique visitors: 200 means the key
// and the project are good. It costs one request of the analytics budget, and
// is not retried.
func (r *runner) checkDocsAPI(ctx context.Context, cfg serveConfig) checkResult {
	const name = "docs API"
	client, err := newAPIClient(cfg.api, docsapi.WithRetryPolicy(docsapi.RetryPolicy{MaxAttempts: 1}))
	if err == nil {
		today := r.now().UTC().Format(time.DateOnly)
		_, err = client.Visitors(ctx, docsapi.VisitorsParams{From: today, Limit: 1})
	}
	if err != nil {
		var ee *exitError
		_ = errors.As(explain(err, call{op: docsapi.OpVisitors, cfg: cfg.api, now: r.now()}), &ee) // explain always gives one
		fix := ee.fix
		if errors.Is(err, docsapi.ErrInvalidRequest) {
			fix = "check " + envAPIURL + " (" + cfg.api.APIURL + "): the service did not accept a plain visitors query"
		}
		return failed(name, ee.msg, fix)
	}
	return passed(name, fmt.Sprintf("%s can read project %s at %s", redact.MaskOr(cfg.api.APIKey), cfg.api.ProjectID, cfg.api.APIURL))
}

// checkRedis tries Redis with real commands (store.Check) and says what to
// do about a failure.
func checkRedis(ctx context.Context, cfg serveConfig) checkResult {
	const name = "Redis"
	where := store.RedactURL(cfg.redisURL)
	rep, err := store.Check(ctx, cfg.redisURL, cfg.redisPrefix)
	var ce *store.CheckError
	switch {
	case errors.Is(err, store.ErrBadURL):
		return failed(name, where+": parse redis URL: "+store.Cause(err),
			"write "+envRedisURL+" as redis://[user:password@]host:port/db, rediss://... for TLS, or unix:///path/to/redis.sock")
	case errors.Is(err, store.ErrMismatch):
		return failed(name, where+": "+store.ErrMismatch.Error(),
			"another program rewrites docsbot's keys: give docsbot a Redis database of its own")
	case errors.As(err, &ce):
		return failed(name, where+": "+ce.Step+": "+store.Cause(err), redisFix(err))
	case err != nil:
		return failed(name, where+": "+err.Error(), redisFix(err))
	}
	line := where + ": PING ok, write ok"
	switch {
	case rep.Topology == store.Sentinel && rep.Primary != "":
		line += " (sentinel, primary " + rep.Primary + ")"
	case rep.Topology == store.Cluster:
		line += fmt.Sprintf(" (cluster of %d primaries)", rep.Primaries)
	case rep.Topology != store.Standalone:
		line += " (" + string(rep.Topology) + ")"
	}
	switch {
	case rep.MaxMemory == "":
		return passed(name, line)
	case rep.Evicts():
		return failed(name, fmt.Sprintf("%s, but maxmemory-policy is %s: Redis may evict docsbot's jobs and markers when full", line, rep.Policy),
			"set maxmemory-policy noeviction (CONFIG SET, redis.conf, or the parameter group of a managed Redis)")
	case rep.MaxMemory == "0":
		return passed(name, line+", no memory limit")
	}
	return passed(name, line+", maxmemory-policy noeviction")
}

// redisFix tells what to do about a failed Redis step, by the kind of
// failure the store found.
func redisFix(err error) string {
	switch {
	case errors.Is(err, store.ErrAuth):
		return "put the credentials in " + envRedisURL + ": redis://:PASSWORD@host:6379/0, or redis://USER:PASSWORD@host:6379/0 for an ACL user"
	case errors.Is(err, store.ErrNoPerm):
		return "the Redis user may not write docsbot's keys: allow it the keys docsbot:* and the read, write and scripting commands (ACL SETUSER)"
	case errors.Is(err, store.ErrReadOnly):
		return envRedisURL + " points at a read-only replica: point it at the primary"
	case errors.Is(err, store.ErrFull):
		return "Redis is full and refuses writes: raise maxmemory, and keep maxmemory-policy noeviction"
	case errors.Is(err, store.ErrCannotPersist):
		return "Redis refuses writes because it cannot save to disk: fix its persistence (disk space, permissions)"
	case errors.Is(err, store.ErrTLS):
		return "the TLS handshake failed: use rediss:// only for a server that speaks TLS, and check its certificate"
	case errors.Is(err, store.ErrLoading):
		return "Redis is starting or failing over: try again in a moment"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return "check the host and port in " + envRedisURL + " and firewalls; use rediss:// if the server requires TLS"
	}
	return "start Redis or point " + envRedisURL + " at it: redis://host:6379/0, rediss:// for TLS, unix:///path/to/redis.sock"
}
